@testable import FollowCore
@testable import MAVLink
@testable import Simulation

/// A pure ground station for `MAVLinkCopter` tests: sends typed messages as frames from system
/// 255 / component 190 at the copter's time and keeps everything the copter answered or sent.
struct CopterGroundStation {
    var copter: MAVLinkCopter
    /// Every message the copter returned, in order.
    var received: [any MAVLinkMessage] = []

    init(
        copter: MAVLinkCopter = MAVLinkCopter(plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!))
    ) {
        self.copter = copter
    }

    /// Sends `message` now; returns what the copter answered to it.
    @discardableResult
    mutating func send(_ message: some MAVLinkMessage) -> [any MAVLinkMessage] {
        let replies = copter.receive(message.frame(sequence: 0, systemID: 255, componentID: 190), at: copter.time)
        received += replies
        return replies
    }

    /// Sends COMMAND_LONG `command` to system 1 and returns its COMMAND_ACK result.
    mutating func command(_ command: MAVCommand, _ params: [Float]) -> MAVResult? {
        var padded = params
        while padded.count < 7 { padded.append(0) }
        let replies = send(CommandLong {
            $0.params = padded
            $0.command = .init(command)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        })
        return replies.compactMap { $0 as? CommandAck }.first { $0.command.known == command }?.result.known
    }

    /// DO_SET_MODE to an ArduPilot Copter mode (p1 = custom mode enabled, p2 = the mode).
    mutating func setMode(_ mode: ArduCopterMode) -> MAVResult? {
        command(.doSetMode, [Float(MAVModeFlag.customModeEnabled.rawValue), Float(mode.rawValue)])
    }

    mutating func arm() -> MAVResult? { command(.componentArmDisarm, [1]) }

    /// GUIDED, then arm (on the ground: nothing waits for the answers).
    mutating func armInGuided() {
        _ = setMode(.guided)
        _ = arm()
    }

    /// GUIDED, arm, NAV_TAKEOFF to `altitudeMeters`, then waits until the copter is in the air.
    mutating func takeOff(to altitudeMeters: Float = 5) {
        armInGuided()
        _ = command(.navTakeoff, [0, 0, 0, .nan, .nan, .nan, altitudeMeters])
        wait(seconds: 15)
    }

    /// Lets `seconds` pass without sending anything.
    mutating func wait(seconds: Double) {
        received += copter.advance(to: copter.time.adding(seconds: seconds))
    }

    /// Sends `setpoint` every `periodSeconds` for `seconds`.
    mutating func stream(_ setpoint: SetPositionTargetLocalNED, seconds: Double, periodSeconds: Double = 0.1) {
        let end = copter.time.adding(seconds: seconds)
        while copter.time.adding(seconds: periodSeconds) <= end {
            wait(seconds: periodSeconds)
            send(setpoint)
        }
        received += copter.advance(to: end)
    }

    /// A velocity set-point (`.velocityAndYawRate` mask) in `frame`: x, y, z as NED or body axes, m/s.
    static func velocity(_ x: Float, _ y: Float, _ z: Float = 0, frame: MAVFrame, yawRateRadiansPerSecond: Float = 0) -> SetPositionTargetLocalNED {
        SetPositionTargetLocalNED {
            $0.velocityNEDMetersPerSecond = [x, y, z]
            $0.yawRateRadiansPerSecond = yawRateRadiansPerSecond
            $0.typeMask = .velocityAndYawRate
            $0.target = MAVLinkTarget(system: 1, component: 1)
            $0.coordinateFrame = .init(frame)
        }
    }

    /// The texts of every STATUSTEXT received.
    var statusTexts: [String] { received.compactMap { ($0 as? StatusText)?.text.string } }

    /// The messages of type `M` received.
    func all<M: MAVLinkMessage>(_ type: M.Type) -> [M] { received.compactMap { $0 as? M } }
}
