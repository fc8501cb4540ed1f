import FollowCore

/// The core's navdata intake: source, decoding and sequence checks (docs/ardrone-protocol.md §1.3).
extension ARDroneSession {
    // MARK: - Navdata

    /// Why the datagram was dropped, or nil if accepted (events appended to `effects`).
    @discardableResult
    package mutating func receiveNavdata(
        _ bytes: UnsafeRawBufferPointer,
        fromDrone: Bool,
        now: MonotonicTime,
        effects: inout DroneLinkEffects
    ) -> NavdataDropReason? {
        statistics.counts[.navdataDatagramsRead] += 1
        guard fromDrone else {
            statistics.counts[.droppedUnexpectedSource] += 1
            return .unexpectedSource
        }
        let navdata: NavdataSummary
        do {
            navdata = try NavdataSummary(bytes: bytes)
        } catch {
            statistics.counts[.droppedMalformed] += 1
            statistics.droppedMalformedByKind[error.kind, default: 0] += 1
            return .malformed(error.kind)
        }
        if let last = lastSequenceNumber, navdata.sequenceNumber <= last {
            let restart = navdata.sequenceNumber <= Self.sequenceRestartWindow
                && last > navdata.sequenceNumber + Self.sequenceRestartWindow
            guard restart else {
                statistics.counts[.droppedSequenceNotIncreasing] += 1
                return .sequenceNotIncreasing
            }
            statistics.counts[.sequenceRestarts] += 1
        }
        accept(navdata, now: now, effects: &effects)
        return nil
    }

    package mutating func accept(_ navdata: NavdataSummary, now: MonotonicTime,
                                 effects: inout DroneLinkEffects) {
        let previousNavdataAt = statistics.lastNavdataAt
        lastSequenceNumber = navdata.sequenceNumber
        statistics.counts[.navdataReceived] += 1
        statistics.lastNavdataAt = now
        let state = navdata.state
        latestState = state
        if let demo = navdata.demo { latestControlState = demo.controlState }

        if !isConnected {
            isConnected = true
            let airborne = navdata.isAirborne
            if airborne && !state.contains(.emergency) { desiredFlying = true }
            effects.events.append(.connected(droneWasFlying: airborne, desiredFlying: desiredFlying, at: now))
        }
        if isNavdataLost {
            isNavdataLost = false
            statistics.telemetryLost = false
            let silenceSeconds = now.seconds(since: previousNavdataAt ?? startedAt)
            effects.events.append(.navdataRestored(silenceSeconds: silenceSeconds, at: now))
        }

        if state.contains(.emergency) {
            emergencyCutoffRequested = false
            if desiredFlying {
                desiredFlying = false
                pilot = .hover
                effects.events.append(.desiredFlyingCleared(reason: .emergency, at: now))
            }
        } else {
            emergencyResetRequested = false
        }
        if state.contains(.communicationWatchdog) { comWatchdogResetPending = true }

        if case .awaitingAcknowledgement(let attempt, _) = configurationPhase,
           state.contains(.commandAcknowledged), let write = configurationQueue.first {
            statistics.counts[.configurationsAcknowledged] += 1
            finishHead(.configurationAcknowledged(write, attempts: attempt, at: now), now: now, effects: &effects)
        }
        if !state.contains(.commandAcknowledged) { acknowledgementClearWaitStartedAt = nil }

        let fallback = showsDemoMode(navdata)
        if bootstrapComplete {
            if let fallback {
                fallbackPacketCount += 1
                if fallbackPacketCount >= Self.bootstrapFallbackPacketCount {
                    redoBootstrap(fallback, now: now, effects: &effects)
                }
            } else {
                fallbackPacketCount = 0
            }
        } else if navdataDemoAcknowledged, fallback == nil {
            bootstrapComplete = true
        }

        effects.events.append(.navdata(ReceivedNavdata(navdata: navdata, receivedAt: now)))
    }
}
