import FlightRecords
import FollowCore

extension FlightTimeline {
    /// The timeline of one bench run (`followme bench --report DIR`), from what `BenchRunner`
    /// recorded: the track samples (true positions on the scenario's plane, every
    /// `trackSampleSeconds`, with the simulated drone's altitude, battery, last PCMD and the
    /// controller's fix ages), FollowMe's transitions (the state bands; none for the baseline) and
    /// the run's `BenchMetrics` (the scores, measured on true positions, unlike a flight log's).
    /// Speeds are the change of true position between track samples.
    ///
    /// - Parameter minSeparationMeters: the run's `failsafe.minSeparationMeters` (the result does
    ///   not carry it).
    public init(benchResult r: BenchResult, minSeparationMeters: Double) {
        self.init { $0.title = "\(r.scenario) — \(r.controller.rawValue) — \(r.noise.rawValue) GPS" + (r.link == .ardrone ? "" : " — \(r.link)") }
        notes = [
            "followme bench, simulated: seed \(r.seed), plant \(r.plant.rawValue), standoff \(fixed(r.standoffMeters, decimals: 1)) m, "
                + "\(fixed(r.simulatedSeconds, decimals: 0)) s; final: drone \(r.finalDroneState), controller \(r.finalControllerState)",
        ]
        endSeconds = r.simulatedSeconds
        standoffMeters = r.standoffMeters
        self.minSeparationMeters = minSeparationMeters
        let m = r.metrics
        scores = Scores {
            ($0.rmsStandoffErrorMeters, $0.rmsSamples) = (m.settledSamples > 0 ? m.rangeErrorRMSMeters : nil, m.settledSamples)
            $0.closestApproachMeters = m.minSeparationMeters.isFinite ? m.minSeparationMeters : nil
            $0.closestApproachAtSeconds = m.minSeparationAtSeconds
            $0.followingSeconds = m.secondsByState.first { $0.name == "following" }?.seconds
            $0.method = "Bench scores (BenchMetrics): true positions, no GPS error; RMS of |distance − standoff| over every "
                + "control tick once the person has moved for the settling time, whatever the drone was doing; "
                + "closest approach while airborne."
        }

        // The baseline has no flight states: no bands rather than a made-up preflight.
        states = r.events.isEmpty ? [] : Self.stateSpans(
            transitions: r.events.map { ($0.timeSeconds, $0.state ?? "?", $0.reason ?? "?") }, endSeconds: endSeconds)

        let track = r.track
        personTrack = track.map { TrackPoint(t: $0.timeSeconds, plane: $0.personPlane) }
        droneTrack = track.map { TrackPoint(t: $0.timeSeconds, plane: $0.dronePlane) }
        distance = track.map { Sample(t: $0.timeSeconds, value: ($0.personPlane - $0.dronePlane).length) }
        for (previous, sample) in zip(track, track.dropFirst()) where sample.timeSeconds > previous.timeSeconds {
            let dt = sample.timeSeconds - previous.timeSeconds
            personSpeed.append(Sample(t: sample.timeSeconds, value: (sample.personPlane - previous.personPlane).length / dt))
            droneSpeed.append(Sample(t: sample.timeSeconds, value: (sample.dronePlane - previous.dronePlane).length / dt))
        }
        func series(_ value: (BenchTrackSample) -> Double?) -> [Sample] {
            track.compactMap { s in value(s).map { Sample(t: s.timeSeconds, value: $0) } }
        }
        altitude = series(\.altitudeMeters)
        battery = series(\.batteryPercent)
        targetFixAge = series(\.targetFixAgeSeconds)
        onboardFixAge = series(\.onboardFixAgeSeconds)
        pcmdRoll = series { $0.pcmd?.first }
        pcmdPitch = series { $0.pcmd.flatMap { $0.count > 1 ? $0[1] : nil } }
        pcmdGaz = series { $0.pcmd.flatMap { $0.count > 2 ? $0[2] : nil } }
        pcmdYaw = series { $0.pcmd.flatMap { $0.count > 3 ? $0[3] : nil } }
    }
}
