import FollowCore

/// Runs one closed loop on simulated time: person scenario → GPS receivers → FollowMe's flight →
/// AT commands → simulated AR.Drone → navdata → the flight (or, on `BenchLink.mavlink`, the MAVLink
/// link's session → simulated Copter → telemetry: `MAVLinkBenchDrone`, docs/mavlink.md §9). No clock,
/// no I/O; the same inputs give the same `BenchResult`.
///
/// Timeline (all on the simulator's 5 ms step grid): at t = 0 the drone sits landed the standoff
/// behind the person's start, nose towards them, and both configuration writes
/// (`control:euler_angle_max`, `control:altitude_max`) arrive. The person stands until
/// `personStartSeconds`, then moves for `durationSeconds` (a replay stops at its track's end).
/// Every control period (30 ms) the link ticks — it re-sends the flight's latest `LinkCommand`, as
/// REF + PCMD mapped as `DroneLink` maps it (`ARDroneBenchDrone`) or as `MAVLinkSession`'s set-point —
/// and then the flight runs its control step, as `DroneLink`/`MAVLinkLink` call their tick handler
/// after each tick; a GPS fix is decided on and sent at once. Navdata reaches FollowMe at 15 Hz
/// through the link's own mapping (`DroneTelemetry(navdata:receivedAt:)`); GPS fixes and headings
/// arrive as the error model delivers them (5 Hz, 0.3 s late).
///
/// - FollowMe: the flight `followme run` flies (`FlightLoopCore`: the state machine, its inputs, its
///   commands to the link; `FlightLoop` is the same core with the log around it), with the bench's
///   standoff and the drone's own limits; it takes off by itself once preflight passes (the link's
///   configuration included), climbs to 3 m and follows. The bench only feeds it inputs on simulated
///   time and reads its decisions: no rule of the flight lives here.
/// - Naive: `NaiveBaselineController` (objc.io) with the same standoff, REF take-off from the
///   first tick (objc.io sent one take-off REF; the appliance-style link re-sends it), no altitude
///   control (it stays at the 1 m take-off height) and no navdata.
public enum BenchRunner {
    /// Nose heading − onboard receiver heading, degrees, for the simulated receiver, FollowMe and the
    /// baseline alike (the product default `onboard.mount_offset_deg`; objc.io taped the phone at 90°).
    public static let mountOffsetDegrees = 90.0

    /// Runs `scenario` with `controller` under `noise` on the drone behind `link`.
    public static func run(
        _ scenario: BenchScenario, controller: BenchController, noise: BenchNoise,
        configuration: BenchConfiguration, link: BenchLink = .ardrone
    ) throws(BenchError) -> BenchResult {
        try fly(scenario, controller: controller, noise: noise, configuration: configuration, link: link, tracing: false).result
    }

    /// Runs `scenario` with FollowMe as `run` does and returns every input its flight got, with what
    /// it made of each (for comparing the bench's flight with `followme run`'s: OneFlightLoopTests).
    package static func flightTrace(
        _ scenario: BenchScenario, noise: BenchNoise, configuration: BenchConfiguration, link: BenchLink
    ) throws(BenchError) -> BenchFlightTrace {
        try fly(scenario, controller: .followMe, noise: noise, configuration: configuration, link: link, tracing: true).trace!
    }

    private static func fly(
        _ scenario: BenchScenario, controller: BenchController, noise: BenchNoise,
        configuration: BenchConfiguration, link: BenchLink, tracing: Bool
    ) throws(BenchError) -> (result: BenchResult, trace: BenchFlightTrace?) {
        try configuration.validate()
        // The drone waits the standoff behind the person's start, facing the way they will go.
        let bearing = scenario.droneStartBearingDegrees
        let start = scenario.person.state(atSeconds: 0).positionPlane
            - PlaneVector.unit(bearingDegrees: bearing) * configuration.standoffMeters
        switch link {
        case .ardrone:
            var drone = ARDroneBenchDrone(configuration: configuration, positionPlane: start, noseHeadingDegrees: bearing)
            if scenario.person.hasTerrain {
                // Its ultrasound measures down to the ground under it (an autopilot's altitude is above home).
                drone.airframe.groundAltitudeMeters = { [person = scenario.person] in person.groundAltitudeMeters(atPlane: $0) }
            }
            return try run(scenario, controller: controller, noise: noise, configuration: configuration, drone: drone,
                           tracing: tracing)
        case .mavlink:
            let drone = try MAVLinkBenchDrone(configuration: configuration, plane: LocalPlane(origin: scenario.origin),
                                              positionPlane: start, noseHeadingDegrees: bearing)
            var flown = try run(scenario, controller: controller, noise: noise, configuration: configuration, drone: drone,
                                tracing: tracing)
            flown.result.link = .mavlink
            return flown
        }
    }

    private static func run<Drone: BenchDrone>(
        _ scenario: BenchScenario, controller: BenchController, noise: BenchNoise,
        configuration: BenchConfiguration, drone: Drone, tracing: Bool
    ) throws(BenchError) -> (result: BenchResult, trace: BenchFlightTrace?) {
        var loop = try Loop(scenario: scenario, controller: controller, noise: noise, configuration: configuration,
                            drone: drone, tracing: tracing)
        loop.run()
        return (loop.result(), loop.trace)
    }

    /// The mutable state of one run.
    private struct Loop<Drone: BenchDrone> {
        let scenario: BenchScenario
        let controller: BenchController
        let noise: BenchNoise
        let configuration: BenchConfiguration
        let plane: LocalPlane
        let stepNanoseconds: Int64
        let endNanoseconds: Int64
        let controlNanoseconds: Int64
        let navdataNanoseconds: Int64
        let trackNanoseconds: Int64

        var sim: Drone
        var gps: GPSPairSimulator
        /// Each receiver's fix-age meter with `receiverLatencySeconds`; nil: fixes keep no age of their own.
        var ageMeters: [ReceiverRole: FixAgeMeter]?
        var wind: WindModel
        let failsafe: FailsafeParameters
        /// FollowMe's flight (nil for the baseline).
        var flight: FlightLoopCore?
        /// Every input the flight got, when asked for (`flightTrace`).
        var trace: BenchFlightTrace?
        var naive: NaiveBaselineController?
        var naiveTarget: GeoCoordinate?
        var naiveDrone: GeoCoordinate?
        var naiveReceiverHeading: Double?

        var metrics: MetricsAccumulator
        var events: [BenchEvent] = []
        var track: [BenchTrackSample] = []
        /// For the report's series: when each receiver's latest fix arrived, the largest gap between
        /// its fixes since the last track sample (the fix age's peak), the last PCMD sent.
        var lastFixSeconds: [ReceiverRole: Double] = [:]
        var fixAgePeakSeconds: [ReceiverRole: Double] = [:]
        var lastPCMD: [Double]?
        /// `altitude_m` on an autopilot link in a follow-mode scenario: the height above the person's
        /// ground the drone should keep (`FollowModeFigures.heightErrorRMSMeters`); nil otherwise.
        var heightAbovePersonMeters: Double?
        /// The drone's altitude is above the ground under it (the AR.Drone's ultrasound on a scenario with
        /// terrain), not above take-off (an autopilot's, above home).
        var altitudeAboveGround = false
        /// The scenario's changes of follow mode not yet made (`BenchFollowMode.changes`).
        var modeChanges: [BenchFollowMode.Change] = []

        init(scenario: BenchScenario, controller: BenchController, noise: BenchNoise,
             configuration c: BenchConfiguration, drone: Drone, tracing: Bool) throws(BenchError) {
            self.scenario = scenario
            self.controller = controller
            self.noise = noise
            self.configuration = c
            plane = LocalPlane(origin: scenario.origin)

            let dynamics = c.plant.dynamics
            stepNanoseconds = max(1, Int64((dynamics.stepSeconds * 1e9).rounded()))
            var moveSeconds = scenario.durationSeconds ?? c.durationSeconds
            if let end = scenario.endSeconds { moveSeconds = min(moveSeconds, end) }
            endNanoseconds = Int64(((c.personStartSeconds + moveSeconds) * 1e9).rounded())
            controlNanoseconds = max(1, Int64((c.controlPeriodSeconds * 1e9).rounded()))
            navdataNanoseconds = max(1, Int64((1e9 / c.navdataRateHertz).rounded()))
            trackNanoseconds = max(1, Int64((c.trackSampleSeconds * 1e9).rounded()))

            sim = drone
            var gpsModel = noise.model(mountOffsetDegrees: BenchRunner.mountOffsetDegrees)
            if let rate = c.targetRateHertz { gpsModel.target.fixRateHertz = rate }
            gpsModel.target.reportsVelocity = c.targetReportsVelocity
            // The person's altitude errs too where it is flown on (altitude_mode "person"): only there, since
            // in "takeoff" an autopilot's person-above-drone rule reads it as well, and every figure from
            // before the vertical model stays as it was.
            if noise == .realistic, scenario.followMode?.altitudeMode == .person { gpsModel.target.vertical = .realistic }
            if let latency = c.receiverLatencySeconds {
                (gpsModel.target.latencySeconds, gpsModel.onboard.latencySeconds) = (latency, latency)
            }
            gps = GPSPairSimulator(model: gpsModel, plane: plane, seed: c.seed, start: .zero)
            wind = WindModel(parameters: scenario.wind ?? c.wind, seed: c.seed, start: .zero)
            sim.airframe.windENU = wind.windENU(at: .zero)
            var failsafe = c.failsafe
            if scenario.usesShippedFailsafe {
                failsafe = c.shippedFailsafe
                failsafe.minSeparationMeters = c.failsafe.minSeparationMeters
                failsafe.gpsRelativeErrorMeters = c.failsafe.gpsRelativeErrorMeters
            }
            if let fence = scenario.geofenceMeters { failsafe.geofenceMeters = fence }
            self.failsafe = failsafe

            switch controller {
            case .followMe:
                var follow = c.followParameters(drone: sim.droneConfiguration)
                follow.mountOffsetDegrees = sim.mountOffsetDegrees
                scenario.followMode?.apply(to: &follow)
                if c.receiverLatencySeconds != nil {
                    ageMeters = [.target: FixAgeMeter(policy: .auto, configuredSeconds: follow.assumedGPSLatencySeconds),
                                 .onboard: FixAgeMeter(policy: .auto, configuredSeconds: follow.assumedOnboardGPSLatencySeconds)]
                }
                if scenario.followMode != nil {
                    if sim.vehicleModel.build(follow).isAutopilot {
                        heightAbovePersonMeters = follow.altitudeMeters
                    } else if scenario.person.hasTerrain {
                        (heightAbovePersonMeters, altitudeAboveGround) = (follow.altitudeMeters, true)
                    }
                }
                do {
                    flight = FlightLoopCore(machine: try FlightStateMachine(
                        follow: follow, failsafe: failsafe, vehicle: sim.vehicleModel,
                        onboardLatencySeconds: sim.readsOnboardReceiver ? nil : 0))
                } catch {
                    throw .parameters(error)
                }
                if tracing { trace = BenchFlightTrace(machine: flight!.machine) }
                flight!.start(now: .zero)
            case .naive:
                var parameters = NaiveBaselineController.Parameters()
                parameters.standoffMeters = c.standoffMeters
                parameters.mountOffsetDegrees = sim.mountOffsetDegrees
                naive = NaiveBaselineController(parameters: parameters)
            }
            let ticks = Int(endNanoseconds / controlNanoseconds) + 1
            metrics = MetricsAccumulator(
                standoffMeters: c.standoffMeters, settledFromSeconds: c.personStartSeconds + c.settleSeconds,
                tickSeconds: Double(controlNanoseconds) / 1e9, expectedSamples: ticks,
                minSeparationLimitMeters: c.failsafe.minSeparationMeters)
            if controller == .followMe {
                metrics.followMode = scenario.followMode
                modeChanges = scenario.followMode?.changes ?? []
            }
            track.reserveCapacity(Int(endNanoseconds / trackNanoseconds) + 2)
        }

        /// The person's true state at run time `nanoseconds`.
        func person(at nanoseconds: Int64) -> PersonState {
            scenario.person.state(atSeconds: Double(nanoseconds) / 1e9 - configuration.personStartSeconds)
        }

        /// What the person's receiver measures from: the truth, moved
        /// `adversarialTargetOffsetMeters` away from the drone (the worst direction for separation).
        /// The drone's true height above the take-off point, metres.
        func heightAboveTakeoff() -> Double {
            sim.airframe.altitudeMeters
                + (altitudeAboveGround ? scenario.person.groundAltitudeMeters(atPlane: sim.airframe.positionPlane) : 0)
        }

        func targetTruth(at nanoseconds: Int64) -> GPSTruthSample {
            var truth = person(at: nanoseconds).gpsTruth
            let offset = configuration.adversarialTargetOffsetMeters
            let away = truth.positionPlane - sim.airframe.positionPlane
            if offset > 0, away.length > 1e-6 {
                truth.positionPlane += away / away.length * offset
            }
            return truth
        }

        mutating func run() {
            var t: Int64 = 0
            var nextControl: Int64 = 0
            var nextNavdata: Int64 = 0
            var nextTrack: Int64 = 0
            while t <= endNanoseconds {
                let now = MonotonicTime(nanoseconds: t)
                sim.advance(to: now)
                sim.airframe.windENU = wind.windENU(at: now) // in force for the next step
                if now >= gps.nextFixTime(for: .target) || now >= gps.nextFixTime(for: .onboard) {
                    gps.update(now: now, target: targetTruth(at: t), onboard: sim.airframe.gpsTruth)
                }
                while let output = gps.nextOutput(readyBy: now) {
                    if sim.readsOnboardReceiver || output.role == .target { deliver(output, now: now) }
                }
                handleLinkEvents(now: now)
                if t >= nextNavdata, flight != nil {
                    nextNavdata += navdataNanoseconds
                    sim.pollTelemetry(at: now)
                    handleLinkEvents(now: now)
                }
                if flight != nil, let next = modeChanges.first, now.seconds - configuration.personStartSeconds >= next.atSeconds {
                    modeChanges.removeFirst()
                    let outcome = fly(.followModeChange(next.change, source: "bench"), now: now).operatorOutcome?.name ?? "?"
                    events.append(BenchEvent(timeSeconds: now.seconds, description: "mode \(next.change.mode.rawValue): \(outcome)",
                                             state: nil, reason: nil))
                }
                if t >= nextControl {
                    nextControl += controlNanoseconds
                    let tick = control(now: now)
                    handleLinkEvents(now: now)
                    let p = person(at: t)
                    metrics.add(timeSeconds: now.seconds, person: p.positionPlane, drone: sim.airframe.positionPlane,
                                noseHeadingDegrees: sim.airframe.noseHeadingDegrees, airborne: sim.airframe.altitudeMeters > 0,
                                following: tick.following, personVelocity: p.velocityENU,
                                droneVelocity: sim.airframe.velocityENU, stateName: tick.stateName, aimPoint: tick.aimPoint,
                                climbing: tick.climbing,
                                heightErrorMeters: heightAbovePersonMeters.map { heightAboveTakeoff() - p.groundAltitudeMeters - $0 },
                                receiversSlowErrorMeters: (sim.readsOnboardReceiver ? gps.biasMeters(for: .onboard) : .zero)
                                    - gps.biasMeters(for: .target))
                }
                if t >= nextTrack {
                    nextTrack += trackNanoseconds
                    let targetFixAge = fixAgePeak(.target, now: now), onboardFixAge = fixAgePeak(.onboard, now: now)
                    track.append(BenchTrackSample(timeSeconds: now.seconds, personPlane: person(at: t).positionPlane,
                                                  dronePlane: sim.airframe.positionPlane,
                                                  noseHeadingDegrees: sim.airframe.noseHeadingDegrees,
                                                  altitudeMeters: sim.airframe.altitudeMeters, batteryPercent: sim.airframe.batteryPercent,
                                                  pcmd: lastPCMD, targetFixAgeSeconds: targetFixAge,
                                                  onboardFixAgeSeconds: onboardFixAge))
                }
                t += stepNanoseconds
            }
        }

        /// The oldest `role`'s latest fix got since the last call (then forgotten), seconds; nil before its first fix.
        mutating func fixAgePeak(_ role: ReceiverRole, now: MonotonicTime) -> Double? {
            guard let last = lastFixSeconds[role] else { return nil }
            defer { fixAgePeakSeconds[role] = 0 }
            return max(fixAgePeakSeconds[role] ?? 0, now.seconds - last)
        }

        /// `fix` dated by its receiver's meter, fed first with the fix's time against the simulated host
        /// clock at its arrival (UTC = `gps.utcEpochSeconds` + monotonic time; trusted); unchanged without meters.
        mutating func aged(_ fix: GPSFix) -> GPSFix {
            guard var meter = ageMeters?[fix.role] else { return fix }
            if let time = fix.fixTime {
                let hostNanoseconds = gps.utcEpochSeconds * 1_000_000_000 + fix.receivedAt.nanoseconds
                let epochNanoseconds = time.seconds * 1_000_000_000 + Int64(time.nanoseconds)
                meter.record(sampleSeconds: Double(hostNanoseconds - epochNanoseconds) / 1e9, origin: .fixTime)
            }
            ageMeters?[fix.role] = meter
            var stamped = fix
            stamped.age = meter.age(hostClockSynchronised: true)
            return stamped
        }

        /// Hands one receiver output to the controller.
        mutating func deliver(_ output: GPSSimulatorOutput, now: MonotonicTime) {
            switch output {
            case .fix(let received):
                let fix = aged(received)
                noteFix(fix, now: now)
                if flight != nil {
                    fly(.gps(.fix(fix)), now: now)
                } else if fix.role == .target {
                    naiveTarget = fix.coordinate
                } else {
                    naiveDrone = fix.coordinate
                }
            case .heading(let report):
                if flight != nil {
                    fly(.gps(.heading(report)), now: now)
                } else if report.role == .onboard {
                    naiveReceiverHeading = report.headingDegrees
                }
            }
        }

        /// For the track's fix ages: `fix` arrived now.
        mutating func noteFix(_ fix: GPSFix, now: MonotonicTime) {
            let gap = now.seconds - (lastFixSeconds[fix.role] ?? now.seconds)
            fixAgePeakSeconds[fix.role] = max(fixAgePeakSeconds[fix.role] ?? 0, gap)
            lastFixSeconds[fix.role] = now.seconds
        }

        /// The link's events (telemetry, the autopilot's own fixes and headings, the configuration's
        /// progress, …), every one handed to the flight as `followme run` hands it.
        mutating func handleLinkEvents(now: MonotonicTime) {
            for event in sim.takeEvents() {
                guard flight != nil else {
                    // The baseline reads the autopilot's own position and heading as its phone's (nothing else).
                    switch event {
                    case .onboard(.fix(let fix)) where fix.role == .onboard: deliver(.fix(fix), now: now)
                    case .onboard(.heading(let report)) where report.role == .onboard: deliver(.heading(report), now: now)
                    default: break
                    }
                    continue
                }
                if case .onboard(.fix(let fix)) = event, fix.role == .onboard { noteFix(fix, now: now) }
                fly(.link(event), now: now)
            }
        }

        /// One input to FollowMe's flight; its command goes to the link as `FlightLoop` sends it.
        @discardableResult
        mutating func fly(_ input: FlightLoopCore.Input, now: MonotonicTime) -> FlightLoopCore.Step {
            let step = flight!.handle(input, now: now)
            trace?.entries.append(BenchFlightTrace.Entry(input: input, now: now, step: step))
            if let change = step.decision?.transition {
                events.append(BenchEvent(
                    timeSeconds: now.seconds,
                    description: "\(change.from.name) → \(change.to.name) (\(change.reason.name))",
                    state: change.to.name, reason: change.reason.name))
            }
            if step.sendsCommand, let command = step.command {
                if let sent = sim.send(command, immediately: step.immediately, at: now) { lastPCMD = sent }
            }
            return step
        }

        /// What one control tick did, for the metrics.
        struct Tick {
            var following = false
            /// FollowMe's state after the tick (nil for the baseline).
            var stateName: String?
            /// FollowMe's aim point on the scenario's plane, when it produced a following command.
            var aimPoint: PlaneVector?
            /// FollowMe is taking off or climbing.
            var climbing = false
        }

        /// One control period: the link's tick, then FollowMe's control step (or the baseline's command).
        mutating func control(now: MonotonicTime) -> Tick {
            if flight != nil {
                if let sent = sim.tick(at: now) { lastPCMD = sent }
                guard let decision = fly(.tick, now: now).decision else { return Tick() }
                var aim: PlaneVector?
                if let follow = decision.follow, let controllerPlane = flight!.machine.navigator.plane,
                   let coordinate = controllerPlane.unproject(follow.aimPoint) {
                    aim = plane.project(coordinate)
                }
                return Tick(following: decision.state == .following, stateName: decision.state.name, aimPoint: aim,
                            climbing: decision.state == .takingOff || decision.state == .climbing)
            }
            var input: NaiveBaselineController.Input?
            if let target = naiveTarget, let drone = naiveDrone, let heading = naiveReceiverHeading {
                input = .init(targetCoordinate: target, droneCoordinate: drone, receiverHeadingDegrees: heading)
            }
            let command = naive!.update(input, at: now)
            sim.send(naive: command, at: now)
            return Tick()
        }

        func result() -> BenchResult {
            BenchResult(
                scenario: scenario.name, scenarioKind: scenario.kind, controller: controller, noise: noise,
                seed: configuration.seed, origin: scenario.origin, standoffMeters: configuration.standoffMeters,
                plant: configuration.plant, wind: wind.parameters, geofenceMeters: failsafe.geofenceMeters,
                simulatedSeconds: sim.airframe.time.seconds,
                metrics: metrics.metrics(tracksFollowing: flight != nil),
                finalDroneState: sim.phaseName,
                finalControllerState: flight?.machine.state.name ?? BenchController.naive.rawValue,
                events: events, track: track)
        }
    }
}
