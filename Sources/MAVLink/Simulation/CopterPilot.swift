import FollowCore
import MAVLink

/// A pilot who flies the `MAVLinkCopter` without FollowMe (docs/mavlink.md §8.5): from their own ground
/// station (system 255, component 190: the ids Mission Planner and QGroundControl use) and the
/// transmitter's mode switch. The control port's `pilot-takeoff` and `pilot-land`.
///
/// Pure: time is an argument and the copter is handed in. `takeOff` sends GUIDED, ARM and NAV_TAKEOFF at
/// once; `step`, called as time passes, moves the mode switch to the mode asked for once the take-off is
/// over (within 0.1 m of its height, or the copter left its take-off); `land` sends LAND. The pilot's
/// frames go through `MAVLinkCopter.receive(_:at:)` like any station's, so the copter counts them under
/// system 255; its answers (COMMAND_ACK, STATUSTEXT) are the pilot's station's and are not returned.
public struct CopterPilot: Sendable, Hashable {
    /// The pilot's ground station: MAVLink system 255, component 190 (`MAV_COMP_ID_MISSIONPLANNER`).
    public static let systemID: UInt8 = 255
    public static let componentID: UInt8 = 190
    /// Modes the pilot may switch to once in the air: those `MAVLinkCopter.modeRefusal` allows there
    /// (STABILIZE needs sticks this simulation has not; AUTO a mission).
    public static let modesAfterTakeOff: [ArduCopterMode] = [.loiter, .brake, .rtl, .land, .guided]
    /// How close to the asked height the take-off counts as over, metres (the copter's own take-off
    /// ends 0.05 m below it).
    static let heightReachedMarginMeters = 0.1

    /// A mode switch waiting for the take-off to reach `meters`.
    public struct PendingSwitch: Sendable, Hashable {
        public var meters: Double
        public var mode: ArduCopterMode
    }

    /// The switch still to come (nil: none).
    public private(set) var pending: PendingSwitch?
    private var sequence: UInt8 = 0

    public init() {}

    /// GUIDED, ARM and NAV_TAKEOFF to `meters` from the pilot's station at `now`, then (in `step`) the
    /// mode switch to `mode`. Refused unless the copter is disarmed on the ground, and when any of the
    /// three is not ACCEPTED (the copter stays as that left it: armed on the ground disarms by itself).
    /// Returns the telemetry that fell due, and why it was refused (nil = taking off).
    public mutating func takeOff(
        to meters: Double, then mode: ArduCopterMode, copter: inout MAVLinkCopter, at now: MonotonicTime
    ) -> (messages: [any MAVLinkMessage], refusal: String?) {
        let due = copter.advance(to: now)
        guard !copter.isArmed, !copter.isAirborne else {
            return (due, "the Copter is \(copter.isAirborne ? "flying" : "armed"): a pilot's take-off starts disarmed on the ground")
        }
        guard Self.modesAfterTakeOff.contains(mode) else {
            return (due, "the pilot cannot fly \(MAVLinkCopter.name(of: mode)) after the take-off")
        }
        let steps: [(name: String, command: MAVCommand, parameters: [Float])] = [
            ("DO_SET_MODE GUIDED", .doSetMode, Self.setModeParameters(.guided)),
            ("ARM", .componentArmDisarm, [1]),
            ("NAV_TAKEOFF \(meters) m", .navTakeoff, [0, 0, 0, 0, 0, 0, Float(meters)]),
        ]
        for step in steps {
            let result = send(step.command, step.parameters, to: &copter, at: now)
            guard result == .accepted else { return (due, Self.refusal(step.name, result)) }
        }
        pending = PendingSwitch(meters: meters, mode: mode)
        return (due, nil)
    }

    /// Advances the copter to `now`; once the take-off is over, moves the mode switch (returned with the
    /// messages: the telemetry due and the switch's STATUSTEXT). A copter no longer armed in GUIDED (it
    /// disarmed, or another station changed its mode) ends the pending switch unmade.
    public mutating func step(copter: inout MAVLinkCopter, at now: MonotonicTime)
        -> (messages: [any MAVLinkMessage], switched: ArduCopterMode?) {
        var out = copter.advance(to: now)
        guard let wanted = pending else { return (out, nil) }
        guard copter.isArmed, copter.mode == .guided else {
            pending = nil
            return (out, nil)
        }
        let overTakeOff = copter.phase == .flying
            || copter.altitudeMeters >= wanted.meters - Self.heightReachedMarginMeters
        guard overTakeOff else { return (out, nil) }
        pending = nil
        let result = copter.pilotModeSwitch(to: wanted.mode, at: now)
        out += result.messages
        return (out, result.refusal == nil ? wanted.mode : nil)
    }

    /// LAND from the pilot's station at `now` (the copter lands and disarms on touch-down); a switch still
    /// pending is dropped. Refused unless the copter is armed in the air, or if LAND is not ACCEPTED.
    public mutating func land(copter: inout MAVLinkCopter, at now: MonotonicTime)
        -> (messages: [any MAVLinkMessage], refusal: String?) {
        let due = copter.advance(to: now)
        guard copter.isArmed, copter.isAirborne else { return (due, "the Copter is not flying") }
        pending = nil
        let result = send(.doSetMode, Self.setModeParameters(.land), to: &copter, at: now)
        guard result == .accepted else { return (due, Self.refusal("DO_SET_MODE LAND", result)) }
        return (due, nil)
    }

    /// "ARM: failed": which command the copter did not accept, and its result.
    private static func refusal(_ name: String, _ result: MAVResult?) -> String {
        "\(name): \(result.map { "\($0)" } ?? "no COMMAND_ACK")"
    }

    /// DO_SET_MODE's parameters for an ArduCopter mode: p1 custom mode enabled, p2 the mode number.
    static func setModeParameters(_ mode: ArduCopterMode) -> [Float] {
        [Float(MAVModeFlag.customModeEnabled.rawValue), Float(mode.rawValue)]
    }

    /// COMMAND_LONG `command` from the pilot's station to the copter (system 1, component 1); its result.
    private mutating func send(_ command: MAVCommand, _ parameters: [Float], to copter: inout MAVLinkCopter,
                               at now: MonotonicTime) -> MAVResult? {
        let message = CommandLong {
            $0.params = parameters + Array(repeating: 0, count: max(0, 7 - parameters.count))
            $0.command = .init(command)
            $0.target = MAVLinkTarget(system: copter.parameters.systemID, component: copter.parameters.componentID)
        }
        defer { sequence &+= 1 }
        let replies = copter.receive(message.frame(sequence: sequence, systemID: Self.systemID, componentID: Self.componentID), at: now)
        return replies.compactMap { $0 as? CommandAck }.first { $0.command.known == command }?.result.known
    }
}
