import ARDrone
import FollowCore

/// One 30 Hz control step of `followme run`, driven by synthetic inputs, in the `following` state.
///
/// Like `Tests/FollowCoreTests/World.swift`: the person walks a circle of radius `circleRadiusMeters`
/// around the take-off point at `walkingSpeedMetersPerSecond`, the drone hovers over the take-off
/// point facing north. Rates as on the real link: the target fix every step (the benchmarked input:
/// `FlightLoop` decides on every fix), navdata every 2nd step (15 Hz), onboard fix and heading every
/// 6th (5 Hz). Each step ends with the command's set-point (the AR.Drone model's tilt loop, as
/// `FlightLoopCore` asks it for every command sent) and the
/// tick's AT datagram (REF + PCMD: `DroneCommand.refInput`, `ProgressiveCommand(pilot:)`) encoded into a
/// reused buffer, as `ARDroneSession` does. Not `Sendable`: one benchmark thread owns it.
final class ControlLoopHarness {
    private(set) var machine: FlightStateMachine
    private var encoder = ATEncoder()
    private(set) var datagram: [UInt8] = []
    private(set) var step = 0
    /// Steps measured while the machine was not following (must stay 0, or the benchmark is wrong).
    private(set) var stepsNotFollowing = 0

    static let stepSeconds = 1.0 / 30
    static let circleRadiusMeters = 9.0
    static let walkingSpeedMetersPerSecond = 1.4
    let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)
    /// Receiver heading that puts the nose north with the default 90° mount.
    static let receiverHeadingDegrees = 270.0

    /// Drives a fresh machine through preflight, take-off and climb until it follows.
    init() throws {
        machine = try FlightStateMachine(follow: .defaults, failsafe: .defaults, vehicle: .tiltLoop)
        datagram.reserveCapacity(ATEncoder.maximumDatagramByteCount)
        var firmware = FakeFirmware()
        while machine.state != .following {
            precondition(step < 30 * 120, "never reached following: \(machine.state)")
            runStep(firmware: &firmware)
        }
        for _ in 0..<(30 * 5) { runStep(firmware: &firmware) }   // settle
        precondition(machine.state == .following, "left following while settling: \(machine.state)")
    }

    private var now: MonotonicTime { MonotonicTime(seconds: 1000 + Double(step) * Self.stepSeconds) }

    private func personPosition(at seconds: Double) -> PlaneVector {
        let angle = seconds * Self.walkingSpeedMetersPerSecond / Self.circleRadiusMeters
        return PlaneVector(east: Self.circleRadiusMeters * _sin(angle), north: Self.circleRadiusMeters * _cos(angle))
    }

    private func fix(_ role: ReceiverRole, at position: PlaneVector) -> GPSFix {
        let c = plane.unproject(position)!
        let nanos = Int64(step) * 33_333_333
        return GPSFix(role: role, device: role == .target ? "/dev/gpstarget" : "/dev/gpsonboard", mode: .threeD,
                      latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                      fixTime: FixTime(seconds: 1_700_000_000 + nanos / 1_000_000_000,
                                       nanoseconds: Int32(nanos % 1_000_000_000)),
                      receivedAt: now, ephMeters: 2.5)!
    }

    /// One control step; returns the datagram's byte count (to keep the work observable).
    @discardableResult
    func measuredStep() -> Int {
        if machine.state != .following { stepsNotFollowing += 1 }
        var firmware = FakeFirmware.steady
        return runStep(firmware: &firmware)
    }

    @discardableResult
    private func runStep(firmware: inout FakeFirmware) -> Int {
        let t = now
        let seconds = Double(step) * Self.stepSeconds
        if step % 2 == 0 {
            machine.handle(.telemetry(DroneTelemetry(
                flightState: firmware.flightState, batteryPercent: 80, altitudeMeters: firmware.altitudeMeters,
                velocityBody: BodyVelocity(forwardMetersPerSecond: 0, rightMetersPerSecond: 0), yawDegrees: 0,
                receivedAt: t)), now: t)
        }
        if step % 6 == 0 {
            machine.handle(.fix(fix(.onboard, at: .zero)), now: t)
            machine.handle(.heading(HeadingReport(role: .onboard, device: "/dev/gpsonboard",
                                                  headingDegrees: Self.receiverHeadingDegrees, receivedAt: t)!), now: t)
        }
        machine.handle(.fix(fix(.target, at: personPosition(at: seconds))), now: t)
        let decision = machine.tick(now: t)
        let pilot = machine.setpoint(
            for: LinkCommand(flying: decision.command.intent.wantsAirborne, motion: decision.command.motion))?.pilot
        firmware.react(to: decision.command, pilot: pilot, seconds: Self.stepSeconds)

        // The tick's datagram, as the link sends it: REF (bit 9 = fly) + PCMD.
        datagram.removeAll(keepingCapacity: true)
        do {
            try encoder.append(.ref(decision.command.refInput), to: &datagram)
            try encoder.append(.pcmd(ProgressiveCommand(pilot: pilot)), to: &datagram)
        } catch {
            preconditionFailure("AT encoding failed: \(error)")
        }
        step += 1
        return datagram.count
    }
}

/// A stand-in for the drone firmware, as in `World.swift`: REF take-off → taking off → hovering at
/// 1 m after 2 s; PCMD gaz moves the altitude. `steady` = flying at 3 m, the follow altitude.
struct FakeFirmware {
    var flightState: DroneFlightState = .landed
    var altitudeMeters = 0.0
    private var timerSeconds = 0.0
    private var reacts = true

    static let steady: FakeFirmware = {
        var f = FakeFirmware(flightState: .flying, altitudeMeters: 3)
        f.reacts = false
        return f
    }()

    init(flightState: DroneFlightState = .landed, altitudeMeters: Double = 0) {
        self.flightState = flightState
        self.altitudeMeters = altitudeMeters
    }

    mutating func react(to command: DroneCommand, pilot: PilotCommand?, seconds dt: Double) {
        guard reacts else { return }
        timerSeconds += dt
        guard command.intent.wantsAirborne else { return }
        switch flightState {
        case .landed, .landing:
            flightState = .takingOff
            timerSeconds = -0.3
        case .takingOff where timerSeconds >= 2:
            flightState = .hovering
            altitudeMeters = 1
        case .flying, .hovering:
            if let pilot {
                flightState = .flying
                altitudeMeters += pilot.gaz * 0.7 * dt
            } else {
                flightState = .hovering
            }
        default:
            break
        }
    }
}
