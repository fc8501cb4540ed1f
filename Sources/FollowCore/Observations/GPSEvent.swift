/// Everything the gpsd client reports, one value per event; each carries its monotonic arrival time
/// (gpsd says nothing when a receiver goes silent: staleness is the consumer's job).
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
    /// The receiver's view of the sky (gpsd SKY): for people and logs; the core flies on fixes.
    case sky(SkyReport)

    public var role: ReceiverRole {
        switch self {
        case .fix(let f): return f.role
        case .heading(let h): return h.role
        case .lost(let l): return l.role
        case .connected(let role, _, _, _): return role
        case .gpsdError(let role, _, _): return role
        case .sky(let s): return s.role
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

/// One gpsd SKY report; every field optional (receivers send different sentences).
public struct SkyReport: Sendable, Hashable {
    public var role: ReceiverRole
    public var device: String
    /// Satellites used in the position solution, and in view (0…255 when known).
    public var satellitesUsed: Int?
    public var satellitesVisible: Int?
    /// Horizontal, vertical and position dilution of precision (finite and > 0 when known).
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    public var receivedAt: MonotonicTime

    /// Keeps only plausible values: a count outside 0…255 or a non-finite or non-positive DOP becomes nil.
    public init(role: ReceiverRole, device: String, satellitesUsed: Int?, satellitesVisible: Int?,
                hdop: Double?, vdop: Double?, pdop: Double?, receivedAt: MonotonicTime) {
        (self.role, self.device, self.receivedAt) = (role, device, receivedAt)
        (self.satellitesUsed, self.satellitesVisible) = (Self.plausible(satellitesUsed), Self.plausible(satellitesVisible))
        (self.hdop, self.vdop, self.pdop) = (Self.plausible(hdop), Self.plausible(vdop), Self.plausible(pdop))
    }

    static func plausible(_ count: Int?) -> Int? { count.flatMap { (0...255).contains($0) ? $0 : nil } }
    static func plausible(_ dop: Double?) -> Double? { dop.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
}
