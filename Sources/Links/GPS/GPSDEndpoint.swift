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
    /// When the fixes' measured age may be used (`latency_source`); anything but `.config` also
    /// watches gpsd's TOFF reports (docs/gps-latency.md §2).
    public var latencySource: FixAgeMeter.Policy
    /// The age a fix gets when none is measured (`latency_s`), seconds, 0…1.
    public var latencySeconds: Double

    public init(role: ReceiverRole, endpoint: GPSDAddress, device: String?, rate: RateRequest = .receiverDefault,
                expectsHeading: Bool? = nil, latencySource: FixAgeMeter.Policy = .auto,
                latencySeconds: Double = FollowParameters.Spec.assumedGPSLatencySeconds.defaultValue) {
        self.role = role
        self.endpoint = endpoint
        self.device = (device?.isEmpty ?? true) ? nil : device
        self.rate = rate
        self.expectsHeading = expectsHeading ?? (role == .onboard)
        self.latencySource = latencySource
        self.latencySeconds = latencySeconds
    }
}

import FollowCore
