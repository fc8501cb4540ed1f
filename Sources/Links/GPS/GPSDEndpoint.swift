/// Where a gpsd listens: host name or address, and TCP port (2947 by default).
public struct GPSDAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int = 2947

    public var description: String { "\(host):\(port)" }

    public init(host: String, port: Int = 2947) {
        self.host = host
        self.port = port
    }
}

/// One role's subscription: which gpsd, which of its devices (exact gpsd path; nil = any), and
/// what rate to ask gpsd to run that receiver at.
public struct ReceiverSubscription: Sendable, Hashable {
    public var role: ReceiverRole
    public var endpoint: GPSDAddress
    public var device: String?
    /// Sent to gpsd as `?DEVICE` once it identified the device; `.receiverDefault` sends nothing.
    public var rate: RateRequest
    /// The flight takes the drone's heading from this receiver: fixes without any heading get a
    /// hint in the log (`MissingHeadingWatch`). Default: the onboard role.
    public var expectsHeading: Bool

    public init(role: ReceiverRole, endpoint: GPSDAddress, device: String?, rate: RateRequest = .receiverDefault,
                expectsHeading: Bool? = nil) {
        self.role = role
        self.endpoint = endpoint
        self.device = (device?.isEmpty ?? true) ? nil : device
        self.rate = rate
        self.expectsHeading = expectsHeading ?? (role == .onboard)
    }
}

import FollowCore
