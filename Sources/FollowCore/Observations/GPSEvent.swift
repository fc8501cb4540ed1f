/// Everything the gpsd client reports, one value per event, all `Sendable`.
///
/// gpsd says nothing when a receiver goes silent, so per-device staleness is the consumer's
/// job: every case carries the monotonic time it was received at.
public enum GPSEvent: Sendable, Hashable {
    /// A position fix with mode ≥ 2 and a finite position.
    case fix(GPSFix)
    /// A heading (gpsd ATT, e.g. from an onboard `$HCHDT` compass sentence).
    case heading(HeadingReport)
    /// The receiver or its gpsd stopped providing positions. Treat the role's data as gone.
    case lost(GPSLoss)
    /// The client (re)connected to gpsd and subscribed; fixes may follow.
    case connected(role: ReceiverRole, endpoint: String, isReconnect: Bool, at: MonotonicTime)
    /// gpsd answered with an ERROR message (e.g. "No such device as /dev/gpstarget").
    case gpsdError(role: ReceiverRole, message: String, at: MonotonicTime)

    /// The role the event belongs to.
    public var role: ReceiverRole {
        switch self {
        case .fix(let f): return f.role
        case .heading(let h): return h.role
        case .lost(let l): return l.role
        case .connected(let role, _, _, _): return role
        case .gpsdError(let role, _, _): return role
        }
    }
}

/// Why a role's data stopped.
public struct GPSLoss: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// A TPV with mode 0 (nothing seen) or 1 (no fix).
        case noFix(mode: Int)
        /// gpsd reported the device deactivated (unplugged, `gpsdctl remove`, end of a replay).
        case deviceDeactivated
        /// The connection to gpsd failed or closed; the client is reconnecting.
        case connectionLost(String)
    }

    public let role: ReceiverRole
    /// The device concerned, when known.
    public let device: String?
    public let reason: Reason
    public let at: MonotonicTime

    public init(role: ReceiverRole, device: String?, reason: Reason, at: MonotonicTime) {
        self.role = role
        self.device = device
        self.reason = reason
        self.at = at
    }
}
