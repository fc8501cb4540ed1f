import FollowCore

/// One telemetry message whose rate the session asks for with SET_MESSAGE_INTERVAL (docs/mavlink.md §7.1).
struct StreamState: Sendable, Equatable {
    enum Status: Sendable, Equatable {
        case pending
        /// The vehicle acknowledged the interval, or sends the message at least at that rate.
        case configured
        /// Refused or unanswered, and not seen at the rate: the core will not take off.
        case failed(reason: String)
    }

    let messageID: UInt32
    let name: String
    let intervalMicroseconds: Int32
    var status: Status = .pending
    var lastSeenAt: MonotonicTime? = nil

    /// The configuration key the flight log shows (`interval:GLOBAL_POSITION_INT`).
    var key: String { "interval:" + name }
    /// Its value (`100000 us`).
    var value: String { "\(intervalMicroseconds) us" }

    /// Two messages this close together (1.5 intervals: our margin for scheduling jitter) show the
    /// rate is in force even without an ACK (an autopilot whose stream rates were set by its own
    /// parameters, or that does not answer SET_MESSAGE_INTERVAL).
    func showsRate(previous: MonotonicTime, now: MonotonicTime) -> Bool {
        now.seconds(since: previous) <= 1.5 * Double(intervalMicroseconds) / 1e6
    }

    /// GLOBAL_POSITION_INT and ATTITUDE at 10 Hz (what the core's estimator and wind observer want;
    /// the AR.Drone's demo navdata is 15 Hz), SYS_STATUS and EXTENDED_SYS_STATE at 2 Hz (battery and
    /// landed state change slowly; 2 Hz keeps the landed confirmation within half a second).
    static let requested: [StreamState] = [
        stream(GlobalPositionInt.self, hertz: 10), stream(Attitude.self, hertz: 10),
        stream(SysStatus.self, hertz: 2), stream(ExtendedSysState.self, hertz: 2),
    ]

    static func stream(_ type: any MAVLinkMessage.Type, hertz: Int32) -> StreamState {
        StreamState(messageID: type.messageID, name: type.messageName, intervalMicroseconds: 1_000_000 / hertz)
    }
}
