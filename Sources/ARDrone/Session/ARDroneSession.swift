import FollowCore

/// What the shell must do after the core handled an input.
package struct DroneLinkEffects {
    /// Send `01 00 00 00` to the drone's navdata port.
    package var sendNavdataTrigger = false
    /// Events to publish, in order.
    package var events: [DroneLinkEvent] = []

    package init() {}

    package mutating func reset() {
        sendNavdataTrigger = false
        events.removeAll(keepingCapacity: true)
    }
}

/// The link's decisions, as a value: every input (tick, navdata datagram, owner request) comes in
/// with `now`, and the output is the AT datagram to send plus effects (docs/style.md habit 4). No
/// sockets, no clock: the shell (`DroneLink`) owns both.
///
/// Rules, each from docs/ardrone-protocol.md:
/// * AT traffic starts only after the first accepted navdata, so a drone that is already flying
///   is never sent a land REF (§7.3, node-ar-drone #55/#120).
/// * Every tick is one datagram: `[COMWDG] REF PCMD [CTRL | CONFIG_IDS CONFIG] [FTRIM]`, numbered
///   by the encoder from 1 (§2.1, §9.2). REF always carries the base 0x11540000 (§2.3).
/// * Config writes one at a time: wait for bit 6 clear (sending `AT*CTRL=…,5,0` while set), send
///   `CONFIG_IDS` + `CONFIG`, wait for bit 6 (ACK), retry on timeout (§1.2, §2.3, §9.5).
/// * Navdata is accepted only from the drone's navdata address and port, only if it decodes, and
///   only with an increasing sequence number, except a jump back to a small number (restart, §1.3).
/// * Once bootstrap completed, navdata showing bootstrap mode again (state bit 11, §1.2) or lacking
///   the demo option means the drone rebooted or fell back: the bootstrap and every start-up config
///   write are redone (`.bootstrapFallback`, then `.configurationComplete`).
package struct ARDroneSession {
    package let configuration: DroneLinkConfiguration

    /// How many times a flat trim is repeated on consecutive ticks (node-ar-drone repeats its
    /// one-shot commands 10×, docs/ardrone-protocol.md §2.3 `AT*FTRIM`).
    static let flatTrimRepeatCount = 10
    /// A backwards navdata sequence number `s` counts as a drone restart (the drone counts from 1,
    /// `NAVDATA_SEQUENCE_DEFAULT`) when `s <= restartWindow` and the last accepted number exceeds
    /// `s + restartWindow`: 200 packets is one second of full-rate (200 Hz) navdata, far more
    /// reordering than a direct Wi-Fi link produces.
    static let sequenceRestartWindow: UInt32 = 200
    /// Consecutive packets in bootstrap mode (or without the demo option) after the bootstrap
    /// completed before it is redone. Our choice: 2 (≈130 ms of demo navdata) so a single odd
    /// packet cannot restart the config writes, while a rebooted drone (every packet bootstrap) is
    /// caught at once.
    static let bootstrapFallbackPacketCount = 2
    /// `NAVDATA_DEMO_TAG` = 0: bit 0 of `general:navdata_options` asks for the demo option (docs/ardrone-protocol.md §1.3).
    static let demoOptionMaskBit: UInt32 = 1 << 0

    package internal(set) var statistics = DroneLinkStatistics()

    // MARK: Encoding
    var encoder = ATEncoder()
    var commands: [ATCommand] = []

    // MARK: Desired state (from the owner)
    /// REF bit 9 the owner wants (before masking by emergency).
    var desiredFlying = false
    /// The owner's last PCMD; reset to hover when navdata is lost.
    var pilot: ProgressiveCommand = .hover
    /// When set, PCMD_MAG is sent instead of PCMD.
    var controllerHeading: ControllerHeading?

    // MARK: Requests
    var emergencyResetRequested = false
    var emergencyCutoffRequested = false
    var flatTrimTicksRemaining = 0
    var comWatchdogResetPending = false

    // MARK: Navdata
    var latestState: DroneState?
    var latestControlState: ControlState?
    var lastSequenceNumber: UInt32?
    package internal(set) var isConnected = false
    var isNavdataLost = false
    package internal(set) var startedAt = MonotonicTime.zero
    var lastTriggerAt = MonotonicTime.zero

    // MARK: Configuration
    enum ConfigurationPhase {
        case idle
        case awaitingAcknowledgement(attempt: Int, sentAt: MonotonicTime)
    }
    var configurationQueue: [ConfigurationWrite]
    /// navdata_demo, the options mask, the flight limits and the video stream's writes: written at start
    /// and on every bootstrap redo.
    let startupWrites: [ConfigurationWrite]
    /// Keys given up since the last `.configurationComplete` (reported with it).
    var failedKeys: [String] = []
    /// Whether `.configurationComplete` is owed once the queue empties.
    var configurationCompletionPending = true
    /// Navdata showed demo mode after navdata_demo was acknowledged: from now on, bootstrap mode
    /// (or a missing demo option) is a fallback to redo.
    var bootstrapComplete = false
    var navdataDemoAcknowledged = false
    var fallbackPacketCount = 0
    var configurationPhase = ConfigurationPhase.idle
    /// Since when the head of the queue waits for bit 6 to clear.
    var acknowledgementClearWaitStartedAt: MonotonicTime?

    // MARK: Statistics interval
    var lastStatisticsAt = MonotonicTime.zero
    var navdataCountAtLastStatistics = 0

    package init(configuration: DroneLinkConfiguration) {
        self.configuration = configuration
        var queue = [ConfigurationWrite.navdataDemo]
        if let mask = configuration.navdataOptionsMask { queue.append(.navdataOptions(mask)) }
        queue.append(contentsOf: configuration.limits.configurationWrites)
        queue.append(contentsOf: configuration.videoWrites)
        configurationQueue = queue
        startupWrites = queue
        statistics.configurationsPending = queue.count
        commands.reserveCapacity(8)
    }

    /// Sends the first navdata trigger; ticks may follow.
    package mutating func start(now: MonotonicTime, effects: inout DroneLinkEffects) {
        startedAt = now
        lastStatisticsAt = now
        sendTrigger(now: now, effects: &effects)
    }

    // MARK: - Owner requests

    /// Sets REF bit 9 and the PCMD to repeat every tick. `heading` non-nil selects PCMD_MAG.
    package mutating func setDesired(flying: Bool, pilot: ProgressiveCommand, heading: ControllerHeading?) {
        desiredFlying = flying
        self.pilot = pilot
        controllerHeading = heading
    }

    /// Toggles emergency off: REF bit 8 on every tick while navdata shows EMERGENCY, cleared as
    /// soon as it does not (node-ar-drone `disableEmergency` pattern, docs/ardrone-protocol.md §2.3 / §7.4).
    package mutating func requestEmergencyReset() -> Result<Void, DroneLinkRefusal> {
        guard let state = latestState else { return .failure(.noNavdataYet) }
        guard state.contains(.emergency) else { return .failure(.notInEmergency(state: state)) }
        emergencyResetRequested = true
        desiredFlying = false
        return .success(())
    }

    /// Cuts the motors: REF bit 8 while navdata does not show EMERGENCY, then released (docs/ardrone-protocol.md §2.3:
    /// "to trigger an emergency (motor cut) send bit 8 while bit 31 = 0").
    package mutating func requestEmergencyCutoff(now: MonotonicTime, effects: inout DroneLinkEffects) -> Result<Void, DroneLinkRefusal> {
        guard let state = latestState else { return .failure(.noNavdataYet) }
        guard !state.contains(.emergency) else { return .failure(.alreadyInEmergency) }
        emergencyCutoffRequested = true
        emergencyResetRequested = false
        if desiredFlying {
            desiredFlying = false
            effects.events.append(.desiredFlyingCleared(reason: .emergencyCutoffRequested, at: now))
        }
        pilot = .hover
        return .success(())
    }

    /// Flat trim, only while navdata says landed (docs/ardrone-protocol.md §2.3 `AT*FTRIM`; node-ar-drone refuses
    /// while flying).
    package mutating func requestFlatTrim() -> Result<Void, DroneLinkRefusal> {
        guard let state = latestState else { return .failure(.noNavdataYet) }
        guard isLanded else { return .failure(.notLanded(state: state, controlState: latestControlState)) }
        flatTrimTicksRemaining = Self.flatTrimRepeatCount
        return .success(())
    }

    /// Queues one more configuration write (after the start-up ones).
    package mutating func enqueueConfiguration(_ write: ConfigurationWrite) -> Result<Void, DroneLinkRefusal> {
        guard write.isEncodable else { return .failure(.unencodableConfiguration(write)) }
        configurationQueue.append(write)
        configurationCompletionPending = true
        statistics.configurationsPending = configurationQueue.count
        return .success(())
    }

    // MARK: - Shell bookkeeping

    package mutating func countImmediateSend() { statistics.counts[.immediateDatagramsSent] += 1 }
    package mutating func recordTickLateness(seconds: Double) {
        statistics.maxTickLatenessSeconds = max(statistics.maxTickLatenessSeconds, seconds)
        if seconds > configuration.tickIntervalSeconds { statistics.counts[.ticksLate] += 1 }
    }
    package mutating func countSendFailure() { statistics.counts[.sendFailures] += 1 }
    package mutating func countDroppedEvent() { statistics.counts[.eventsDropped] += 1 }

    /// A socket closed under the link (the shell re-binds it). While the AT socket is closed
    /// nothing is sent; after the navdata socket the trigger must be re-sent once it is back.
    package mutating func socketClosed(_ socket: DroneLinkSocket, error: String?, now: MonotonicTime,
                               effects: inout DroneLinkEffects) {
        statistics.counts[.socketsClosed] += 1
        effects.events.append(.socketClosed(socket, error: error, at: now))
    }

    /// The shell re-bound `socket`. For the navdata socket the trigger goes out at once (the
    /// drone answers the trigger's source, which may be a new port).
    package mutating func socketReopened(_ socket: DroneLinkSocket, localPort: Int, samePort: Bool, attempts: Int,
                                 downSeconds: Double, now: MonotonicTime, effects: inout DroneLinkEffects) {
        statistics.counts[.socketsReopened] += 1
        effects.events.append(.socketReopened(socket, localPort: localPort, samePort: samePort, attempts: attempts,
                                              downSeconds: downSeconds, at: now))
        if socket == .navdata {
            lastSequenceNumber = nil
            sendTrigger(now: now, effects: &effects)
        }
    }

    // MARK: - Derived state

    /// Landed according to the latest navdata: FLY bit clear and, if a demo option was seen, its
    /// control state LANDED.
    var isLanded: Bool {
        guard let state = latestState, !state.contains(.flying) else { return false }
        if let control = latestControlState { return control == .landed }
        return true
    }

    /// The REF input this tick: base bits, bit 9 = desired flying (never while in emergency or
    /// cutting off), bit 8 = pending emergency reset/cutoff.
    var currentREF: REFInput {
        let emergency = latestState?.contains(.emergency) ?? false
        let toggle = (emergencyResetRequested && emergency) || (emergencyCutoffRequested && !emergency)
        let flying = desiredFlying && !emergency && !emergencyCutoffRequested
        return REFInput(flying: flying, emergencyToggle: toggle)
    }

    // MARK: - Tick

    /// One tick: silence check (lost / re-trigger), then the AT datagram. Returns false when
    /// there is nothing to send (no navdata yet).
    package mutating func tick(now: MonotonicTime, datagram: inout [UInt8], effects: inout DroneLinkEffects) -> Bool {
        checkSilence(now: now, effects: &effects)
        emitStatisticsIfDue(now: now, effects: &effects)
        guard isConnected else {
            datagram.removeAll(keepingCapacity: true)
            return false
        }

        commands.removeAll(keepingCapacity: true)
        let bootstrap = latestState?.contains(.navdataBootstrap) ?? true
        if comWatchdogResetPending {
            comWatchdogResetPending = false
            // SDK: COMWDG on the next tick unless the drone is in bootstrap (ardrone_tool.c, docs/ardrone-protocol.md §2.2).
            if !bootstrap {
                commands.append(.comwdg)
                statistics.counts[.comWatchdogResetsSent] += 1
            }
        }
        commands.append(.ref(currentREF))
        let pcmd = isNavdataLost ? ProgressiveCommand.hover : pilot
        if let heading = controllerHeading {
            commands.append(.pcmdMag(pcmd, heading))
        } else {
            commands.append(.pcmd(pcmd))
        }
        appendConfigurationCommands(now: now, effects: &effects)
        if flatTrimTicksRemaining > 0 {
            if isLanded {
                commands.append(.ftrim)
                flatTrimTicksRemaining -= 1
            } else {
                flatTrimTicksRemaining = 0
            }
        }

        do {
            try encoder.encode(commands, into: &datagram)
        } catch {
            // Cannot happen with the commands above (well under 1024 bytes, strings checked on
            // entry); never leave the drone without REF+PCMD if it somehow does.
            statistics.counts[.encodingFailures] += 1
            commands.removeSubrange(2...)
            do { try encoder.encode(commands.prefix(2), into: &datagram) } catch { return false }
        }
        statistics.counts[.commandsSent] += commands.count
        statistics.counts[.datagramsSent] += 1
        return true
    }

    package mutating func sendTrigger(now: MonotonicTime, effects: inout DroneLinkEffects) {
        effects.sendNavdataTrigger = true
        lastTriggerAt = now
        statistics.counts[.navdataTriggersSent] += 1
    }

    /// SDK: re-send the trigger whenever a 1 s read times out and restart the sequence expectation
    /// (`ardrone_navdata_client.c`, docs/ardrone-protocol.md §1.2/§1.3).
    package mutating func checkSilence(now: MonotonicTime, effects: inout DroneLinkEffects) {
        let silence = configuration.navdataSilenceSeconds
        let lastHeard = statistics.lastNavdataAt ?? startedAt
        guard now.seconds(since: lastHeard) >= silence else { return }
        if isConnected, !isNavdataLost {
            isNavdataLost = true
            statistics.telemetryLost = true
            statistics.counts[.navdataLosses] += 1
            lastSequenceNumber = nil
            pilot = .hover
            effects.events.append(.telemetryLost(lastReceivedAt: lastHeard, at: now))
        }
        if now.seconds(since: lastTriggerAt) >= silence {
            sendTrigger(now: now, effects: &effects)
        }
    }

    package mutating func emitStatisticsIfDue(now: MonotonicTime, effects: inout DroneLinkEffects) {
        let elapsed = now.seconds(since: lastStatisticsAt)
        guard elapsed >= configuration.statisticsIntervalSeconds else { return }
        statistics.navdataRateHz = Double(statistics.counts[.navdataReceived] - navdataCountAtLastStatistics) / elapsed
        navdataCountAtLastStatistics = statistics.counts[.navdataReceived]
        lastStatisticsAt = now
        effects.events.append(.statistics(statistics))
    }
}
