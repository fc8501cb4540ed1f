import FollowCore

/// One thing the session asks of the vehicle with a COMMAND_LONG, answered by COMMAND_ACK
/// (docs/mavlink.md §5.1, §7.3). Retries and back-offs are kept per request.
public enum VehicleRequest: Sendable, Hashable, CustomStringConvertible {
    /// SET_MESSAGE_INTERVAL (511): param1 = message id, param2 = interval (µs).
    case messageInterval(messageID: UInt32, intervalMicroseconds: Int32)
    /// DO_SET_MODE (176) into `mode`.
    case setMode(AutopilotMode)
    /// COMPONENT_ARM_DISARM (400), param1 = 1; never forced (param2 = 0).
    case arm
    /// COMPONENT_ARM_DISARM (400), param1 = 0, never forced: only on the ground (both autopilots refuse it
    /// in the air), for a vehicle FollowMe armed whose take-off it no longer wants.
    case disarm
    /// NAV_TAKEOFF (22); param7 = the altitude, computed when sent (`AutopilotProfile`).
    case takeoff
    /// NAV_LAND (21) here (lat/lon/alt NaN): the fallback when our LAND mode is refused.
    case navLand

    public var description: String {
        switch self {
        case .messageInterval(let id, let interval):
            "SET_MESSAGE_INTERVAL \(MAVLinkMessages.type(for: id)?.messageName ?? "\(id)") \(interval) µs"
        case .setMode(let mode): "DO_SET_MODE \(mode)"
        case .arm: "ARM"
        case .disarm: "DISARM"
        case .takeoff: "NAV_TAKEOFF"
        case .navLand: "NAV_LAND"
        }
    }

    /// The MAV_CMD this request sends.
    var command: MAVCommand {
        switch self {
        case .messageInterval: .setMessageInterval
        case .setMode: .doSetMode
        case .arm, .disarm: .componentArmDisarm
        case .takeoff: .navTakeoff
        case .navLand: .navLand
        }
    }
}

/// A request sent and not yet answered.
struct PendingRequest: Sendable {
    let request: VehicleRequest
    /// What goes on the wire (re-sent as is, `confirmation` counting the re-sends).
    var message: CommandLong
    /// Sends so far.
    var attempts: Int
    var sentAt: MonotonicTime
    /// When the vehicle first answered IN_PROGRESS: from then on the final ACK is awaited, not re-sent.
    var inProgressSince: MonotonicTime?
}
