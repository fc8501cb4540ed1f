import Links

extension RateRequest {
    /// The request for a configured `rate_hz`: "max" → `.fastest`, "device" → `.receiverDefault`,
    /// a number → `.hertz`.
    public init(_ configured: FollowMeConfiguration.ReceiverRate) {
        switch configured {
        case .max: self = .fastest
        case .device: self = .receiverDefault
        case .hertz(let hz): self = .hertz(hz)
        }
    }
}
