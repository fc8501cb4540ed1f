import FollowCore

/// The core's `AT*CONFIG` writes: one at a time, each acknowledged by state bit 6, and the bootstrap
/// redone when the drone falls back (docs/ardrone-protocol.md §1.2, §2.3, §9.5).
extension ARDroneSession {
    // MARK: - Configuration

    package mutating func appendConfigurationCommands(now: MonotonicTime, effects: inout DroneLinkEffects) {
        // Only while navdata flows: the ACK is only visible in navdata, and a drone without a
        // navdata client "might simply drop the configuration" (pyardrone #12, docs/ardrone-protocol.md §7.7).
        guard !isNavdataLost, let state = latestState else { return }
        let acknowledgeBitSet = state.contains(.commandAcknowledged)
        let timeout = configuration.configAcknowledgementTimeoutSeconds
        switch configurationPhase {
        case .awaitingAcknowledgement(let attempt, let sentAt):
            // The ACK itself is seen in `receiveNavdata`; here only the timeout.
            guard now.seconds(since: sentAt) >= timeout, let write = configurationQueue.first else { return }
            if attempt < configuration.configMaxAttempts {
                statistics.counts[.configurationRetries] += 1
                appendConfigurationWrite(write, attempt: attempt + 1, now: now)
            } else {
                finishHead(.configurationFailed(write, reason: .notAcknowledged(attempts: attempt), at: now),
                           now: now, effects: &effects)
                statistics.counts[.configurationFailures] += 1
            }
        case .idle:
            if acknowledgeBitSet {
                // Reset the ACK bit (ours from the previous write, or a stale one): ACK_CONTROL_MODE.
                commands.append(.ctrl(.acknowledgeCommand))
                guard let write = configurationQueue.first else { return }
                let waitingSince = acknowledgementClearWaitStartedAt ?? now
                acknowledgementClearWaitStartedAt = waitingSince
                let stuckLimit = timeout * Double(configuration.configMaxAttempts)
                let waited = now.seconds(since: waitingSince)
                if waited >= stuckLimit {
                    finishHead(.configurationFailed(write, reason: .acknowledgementBitStuck(seconds: waited), at: now),
                               now: now, effects: &effects)
                    statistics.counts[.configurationFailures] += 1
                }
                return
            }
            guard let write = configurationQueue.first else { return }
            appendConfigurationWrite(write, attempt: 1, now: now)
        }
    }

    package mutating func appendConfigurationWrite(_ write: ConfigurationWrite, attempt: Int, now: MonotonicTime) {
        let ids = configuration.configurationIDs
        // SDK sends CONFIG_IDS immediately before every CONFIG (ardrone_at_set_toy_configuration_ids).
        commands.append(.configIDs(sessionID: ids.sessionID, userID: ids.userID, applicationID: ids.applicationID))
        commands.append(.config(key: write.key, value: write.value))
        configurationPhase = .awaitingAcknowledgement(attempt: attempt, sentAt: now)
        acknowledgementClearWaitStartedAt = nil
    }

    package mutating func finishHead(_ event: DroneLinkEvent, now: MonotonicTime, effects: inout DroneLinkEffects) {
        let write = configurationQueue.removeFirst()
        configurationPhase = .idle
        acknowledgementClearWaitStartedAt = nil
        statistics.configurationsPending = configurationQueue.count
        switch event {
        case .configurationAcknowledged where write == .navdataDemo: navdataDemoAcknowledged = true
        case .configurationFailed: failedKeys.append(write.key)
        default: break
        }
        effects.events.append(event)
        if configurationQueue.isEmpty, configurationCompletionPending {
            completeConfiguration(at: now, effects: &effects)
        }
    }

    package mutating func completeConfiguration(at now: MonotonicTime, effects: inout DroneLinkEffects) {
        configurationCompletionPending = false
        effects.events.append(.configurationComplete(failedKeys: failedKeys, at: now))
        failedKeys.removeAll()
    }

    /// Navdata shows bootstrap mode (or no demo option) although the bootstrap had completed:
    /// the drone rebooted or fell back. Re-queues every start-up write in front of anything still
    /// queued (navdata_demo first), restarts the head's handshake, and reports it.
    package mutating func redoBootstrap(_ reason: BootstrapFallbackReason, now: MonotonicTime,
                                        effects: inout DroneLinkEffects) {
        bootstrapComplete = false
        navdataDemoAcknowledged = false
        fallbackPacketCount = 0
        let startup = Set(startupWrites)
        configurationQueue = startupWrites + configurationQueue.filter { !startup.contains($0) }
        configurationPhase = .idle
        acknowledgementClearWaitStartedAt = nil
        configurationCompletionPending = true
        failedKeys.removeAll()
        statistics.configurationsPending = configurationQueue.count
        statistics.counts[.bootstrapRedos] += 1
        effects.events.append(.bootstrapFallback(reason, at: now))
    }

    /// Whether this packet shows demo mode as configured (bit 11 clear and, unless the options mask
    /// leaves it out, the demo option present).
    package func showsDemoMode(_ navdata: NavdataSummary) -> BootstrapFallbackReason? {
        if navdata.state.contains(.navdataBootstrap) { return .bootstrapBit }
        let demoExpected = configuration.navdataOptionsMask.map { $0 & Self.demoOptionMaskBit != 0 } ?? true
        if demoExpected, navdata.demo == nil { return .demoOptionMissing }
        return nil
    }
}
