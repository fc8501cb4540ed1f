import FollowCore

extension LinkEvent {
    /// What an AR.Drone link event means to a flight (docs/architecture.md §3); nil for a navdata
    /// packet that is not telemetry (no demo option: `DroneTelemetry(navdata:receivedAt:)`).
    ///
    /// Navdata becomes `.telemetry` with its sequence number; navdata lost/restored become
    /// telemetry lost/restored; a bootstrap fallback means the configuration is pending again
    /// (`reason`: `bootstrap-bit` or `demo-option-missing`). The link never reports `.onboard`.
    public init?(_ event: DroneLinkEvent) {
        switch event {
        case .navdata(let received):
            guard let telemetry = DroneTelemetry(navdata: received.navdata, receivedAt: received.receivedAt) else { return nil }
            self = .telemetry(telemetry, sequence: Int(received.navdata.sequenceNumber))
        case .connected(let wasFlying, let desiredFlying, let at):
            self = .connected(droneWasFlying: wasFlying, desiredFlying: desiredFlying, at: at)
        case .telemetryLost(let lastReceivedAt, let at):
            self = .telemetryLost(lastReceivedAt: lastReceivedAt, at: at)
        case .navdataRestored(let silenceSeconds, let at):
            self = .telemetryRestored(silenceSeconds: silenceSeconds, at: at)
        case .configurationAcknowledged(let write, let attempts, let at):
            self = .configurationAcknowledged(key: write.key, value: write.value, attempts: attempts, at: at)
        case .configurationFailed(let write, let reason, let at):
            self = .configurationFailed(key: write.key, value: write.value, reason: "\(reason)", at: at)
        case .desiredFlyingCleared(let reason, let at):
            self = .flyingCleared(reason: "\(reason)", at: at)
        case .statistics(let statistics):
            self = .statistics(LinkStatistics(statistics))
        case .socketClosed(let socket, let error, let at):
            self = .socketClosed(socket: socket.rawValue, error: error, at: at)
        case .socketReopened(let socket, let localPort, let samePort, let attempts, let downSeconds, let at):
            self = .socketReopened(socket: socket.rawValue, localPort: localPort, samePort: samePort, attempts: attempts,
                                   downSeconds: downSeconds, at: at)
        case .bootstrapFallback(let reason, let at):
            self = .configurationPending(reason: reason.rawValue, at: at)
        case .configurationComplete(let failedKeys, let at):
            self = .configurationComplete(failedKeys: failedKeys, at: at)
        }
    }
}

extension LinkStatistics {
    /// Which AR.Drone counter each neutral counter is (navdata is the AR.Drone's telemetry).
    static let droneLinkCounters: [(Counter, DroneLinkStatistics.Counter)] = [
        (.datagramsSent, .datagramsSent), (.commandsSent, .commandsSent),
        (.telemetryDatagramsRead, .navdataDatagramsRead), (.telemetryReceived, .navdataReceived),
        (.droppedUnexpectedSource, .droppedUnexpectedSource), (.droppedMalformed, .droppedMalformed),
        (.droppedSequence, .droppedSequenceNotIncreasing), (.sequenceRestarts, .sequenceRestarts),
        (.telemetryLosses, .navdataLosses), (.ticksLate, .ticksLate), (.sendFailures, .sendFailures),
        (.eventsDropped, .eventsDropped), (.socketsClosed, .socketsClosed), (.socketsReopened, .socketsReopened),
        (.bootstrapRedos, .bootstrapRedos),
    ]

    /// The AR.Drone link's counters in the neutral vocabulary (what the flight log records).
    public init(_ statistics: DroneLinkStatistics) {
        self.init()
        for (neutral, drone) in Self.droneLinkCounters { counts[neutral] = statistics.counts[drone] }
        telemetryRateHz = statistics.navdataRateHz
        maxTickLatenessSeconds = statistics.maxTickLatenessSeconds
    }
}
