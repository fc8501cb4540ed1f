import FollowCore
import FlightRecords

/// What the flight loop remembers for its status snapshot (`FlightStatus`) beyond the state
/// machine: the latest fix and loss of each receiver, the last transitions, the link's rates.
/// A value the loop owns; `status(...)` builds the snapshot from it and the machine at `now`.
struct FlightStatusTracker {
    private var fixes: [ReceiverRole: GPSFix] = [:]
    private var losses: [ReceiverRole: String] = [:]
    private var skies: [ReceiverRole: SkyReport] = [:]
    private var lastHeadingAt: MonotonicTime?
    /// The latest operator command, as the status shows it.
    var operatorCommand: FlightStatus.OperatorCommandStatus?
    /// The vehicle's camera as the link last reported it (`LinkEvent.camera`); nil before any report.
    private(set) var camera: (state: CameraRecordingState, reason: String)?
    /// When the camera entered its state (the event's own time, the flight's clock); kept while the
    /// link repeats the same state, so a recording's length runs from its start.
    private var cameraSince: MonotonicTime?
    private var transitions: [FlightStatus.Transition] = []
    private var navdataHertz: Double?
    private var commandsPerSecond: Double?
    /// The link's command counter at its previous statistics event, and when that was.
    private var previousCommands: (count: Int, at: MonotonicTime)?

    /// Monotonic time of the latest fix of `role`, if any.
    func lastFixAt(_ role: ReceiverRole) -> MonotonicTime? { fixes[role]?.receivedAt }

    mutating func note(_ event: GPSEvent) {
        switch event {
        case .fix(let fix):
            fixes[fix.role] = fix
            losses[fix.role] = nil
        case .heading(let heading):
            lastHeadingAt = heading.receivedAt
        case .lost(let loss):
            switch loss.reason {
            case .noFix(let mode): losses[loss.role] = "no fix (mode \(mode))"
            case .deviceDeactivated: losses[loss.role] = "device gone"
            case .connectionLost(let why): losses[loss.role] = "gpsd lost: \(why)"
            }
        case .sky(let sky):
            skies[sky.role] = sky
        case .connected, .gpsdError:
            break
        }
    }

    /// The link's report of the camera at `at`: the state, and from when it holds.
    mutating func noteCamera(_ state: CameraRecordingState, reason: String, at: MonotonicTime) {
        if camera?.state != state { cameraSince = at }
        camera = (state, reason)
    }

    mutating func note(_ transition: FlightTransition, now: MonotonicTime) {
        transitions.append(FlightStatus.Transition {
            ($0.t, $0.from, $0.to, $0.reason) = (now.seconds, transition.from.name, transition.to.name, transition.reason.name)
        })
        if transitions.count > FlightStatus.transitionsKept { transitions.removeFirst() }
    }

    /// The link's periodic statistics: telemetry rate as the link measured it, commands per second
    /// from its command counter between two events.
    mutating func note(_ statistics: LinkStatistics, now: MonotonicTime) {
        navdataHertz = statistics.telemetryRateHz
        let commands = statistics.counts[.commandsSent]
        if let previous = previousCommands, now.seconds(since: previous.at) > 0 {
            commandsPerSecond = Double(commands - previous.count) / now.seconds(since: previous.at)
        }
        previousCommands = (commands, now)
    }

    /// The snapshot at `now`.
    func status(machine: FlightStateMachine, decision: FlightDecision?, dryRun: Bool, startedAt: MonotonicTime,
                now: MonotonicTime) -> FlightStatus
    {
        var s = FlightStatus()
        s.t = now.seconds
        s.flightSeconds = now.seconds(since: startedAt)
        s.state = machine.state.name
        if let last = transitions.last, last.to == s.state { (s.reason, s.stateSinceT) = (last.reason, last.t) }
        s.dryRun = dryRun
        s.standoffMeters = machine.followParameters.standoffMeters
        if let drone = fixes[.onboard], let person = fixes[.target] {
            let between = BearingDistance.between(drone.coordinate, person.coordinate)
            s.person = FlightStatus.PersonBearing {
                ($0.distanceMeters, $0.bearingDegrees) = (between.distanceMeters, between.bearingDegrees)
                $0.relativeBearingDegrees = decision?.follow?.relativeBearingDegrees
            }
        }
        s.target = receiver(.target, now: now)
        s.onboard = receiver(.onboard, now: now)
        if let age = fixAge(.target, machine: machine) {
            (s.targetLatencyMilliseconds, s.targetLatencySource, s.targetLatencyReason) = age
        }
        if let age = fixAge(.onboard, machine: machine) {
            (s.onboardLatencyMilliseconds, s.onboardLatencySource, s.onboardLatencyReason) = age
        }
        s.headingDegrees = machine.navigator.noseHeadingDegrees(now: now)
        s.headingAgeSeconds = lastHeadingAt.map { now.seconds(since: $0) }
        if let t = machine.telemetry {
            s.altitudeMeters = t.altitudeMeters
            s.batteryPercent = t.batteryPercent
            s.droneState = "\(t.flightState)"
            s.emergency = t.emergency
            s.navdataAgeSeconds = now.seconds(since: t.receivedAt)
        }
        s.navdataHertz = navdataHertz
        s.commandsPerSecond = commandsPerSecond
        s.wind = machine.airborneWind
        s.transitions = transitions
        if case .preflight(let missing) = machine.state { s.waiting = missing.names }
        (s.minSeparationMeters, s.geofenceMeters) = (machine.failsafeParameters.minSeparationMeters, machine.failsafeParameters.geofenceMeters)
        if let home = machine.home, let coordinate = machine.navigator.plane?.unproject(home) {
            s.home = FlightStatus.Position { ($0.latitudeDegrees, $0.longitudeDegrees) = (coordinate.latitudeDegrees, coordinate.longitudeDegrees) }
        }
        s.takeoff = machine.failsafeParameters.takeOffOnStart ? "start" : "auto"
        s.operatorCommand = operatorCommand
        (s.camera, s.cameraReason) = (camera?.state.rawValue, camera?.reason)
        s.cameraSinceT = cameraSince?.seconds
        if camera?.state == .recording, let since = cameraSince { s.cameraRecordingSeconds = max(0, now.seconds(since: since)) }
        let follow = machine.followParameters
        s.follow = FlightStatus.FollowModeStatus {
            ($0.mode, $0.angleDegrees, $0.orbitDirection) = (follow.mode.rawValue, follow.angleDegrees, follow.orbitDirection.rawValue)
        }
        return s
    }

    /// The age `role`'s latest fix was dated by, milliseconds (0.1 ms), with its source and reason: its
    /// own `GPSFix.age`, else the estimator's configured latency ("config", "not measured"); nil before a fix.
    private func fixAge(_ role: ReceiverRole, machine: FlightStateMachine) -> (Double, String, String)? {
        guard let fix = fixes[role] else { return nil }
        let milliseconds = { (seconds: Double) in (seconds * 10_000).rounded() / 10 }
        if let age = fix.age { return (milliseconds(age.seconds), age.source.name, age.source.reason) }
        let configured = role == .target ? machine.target.latencySeconds : machine.drone.latencySeconds
        return (milliseconds(configured), "config", "not measured")
    }

    private func receiver(_ role: ReceiverRole, now: MonotonicTime) -> FlightStatus.ReceiverStatus? {
        guard fixes[role] != nil || losses[role] != nil else { return nil }
        let fix = fixes[role]
        return FlightStatus.ReceiverStatus {
            ($0.mode, $0.ephMeters, $0.ageSeconds) = (fix?.mode.rawValue, fix?.ephMeters, fix.map { f in now.seconds(since: f.receivedAt) })
            ($0.latitudeDegrees, $0.longitudeDegrees) = (fix?.coordinate.latitudeDegrees, fix?.coordinate.longitudeDegrees)
            $0.lost = losses[role]
            ($0.satellitesUsed, $0.satellitesVisible, $0.hdop) = (skies[role]?.satellitesUsed, skies[role]?.satellitesVisible, skies[role]?.hdop)
        }
    }
}

extension FlightStateMachine {
    /// The wind failsafe's view for the flight log and the status (`WindMonitor`: its latest fast
    /// estimate, the share of the tilt authority it takes, the saturation clock) while the drone is
    /// airborne: from take-off to landing under our control with navdata saying it is off the
    /// ground (or landing), once the monitor has an estimate (none until the firmware's take-off
    /// lifts the drone, or the follower first flies it); during the landing, the last one before it.
    /// Nil otherwise: a 0 there would read as calm air.
    var airborneWind: FlightStatus.Wind? {
        switch state.kind {
        case .takingOff, .climbing, .following, .holding, .landing: break
        case .preflight, .landed, .emergency, .released: return nil
        }
        guard let navdata = telemetry?.flightState,
              navdata.isAirborne || navdata == .landing, wind.lastWind != .zero else { return nil }
        return FlightStatus.Wind {
            ($0.windMetersPerSecond, $0.windTowardsDegrees) = (wind.lastWind.length, wind.lastWind.bearingDegrees)
            ($0.windAuthority, $0.saturatedSeconds) = (wind.authorityUsed, wind.saturatedSeconds)
        }
    }
}
