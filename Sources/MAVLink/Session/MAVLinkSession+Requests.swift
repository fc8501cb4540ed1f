import FollowCore

/// The session's commands: which one the vehicle's state calls for, sending, re-sending, and the answers.
extension MAVLinkSession {
    /// What the rules ask of the vehicle now (docs/mavlink.md §7.3): a flight command first, else
    /// the next message rate; nil when nothing (or when the vehicle is unknown). A silent vehicle is
    /// asked only to LAND, blind, from what it last said (it may still hear us: a lost downlink; the
    /// flight lands when telemetry stays lost, as the AR.Drone link's REF land, docs/mavlink.md §7.5).
    func wantedRequest(now: MonotonicTime) -> VehicleRequest? {
        guard vehicleTarget != nil else { return nil }
        guard !isTelemetryLost else {
            return desired.flying || blindLandSends >= Self.maxBlindLandSends ? nil : flightRequest(now: now)
        }
        if let request = flightRequest(now: now) { return request }
        return streams.first { $0.status == .pending }.map {
            .messageInterval(messageID: $0.messageID, intervalMicroseconds: $0.intervalMicroseconds)
        }
    }

    /// The take-off sequence of the configured autopilot, or LAND.
    func flightRequest(now: MonotonicTime) -> VehicleRequest? {
        // Released (a pilot or the autopilot's failsafe flies it), by the vehicle or by the owner, or a
        // dry run: nothing is ever asked of it, LAND included.
        guard !autopilotMismatch, !configuration.dryRun, vehicle.heartbeat != nil, !flight.released, !desired.released
        else { return nil }
        guard desired.flying else {
            // Armed by us and still on the ground (a take-off given up before it left: a parameter the
            // operator is still setting, an operator's LAND or HOLD, SIGTERM): disarmed, so that no idling
            // propellers wait beside people while the flight waits (docs/mavlink.md §7.3).
            if owner == .followMe, vehicle.isArmed, vehicle.landedState == .onGround, !ownerAskedToLand { return .disarm }
            // Land: only our flight (`FlightOwner`), or any on the operator's explicit request — never
            // one someone else flies, whatever the flight wants (docs/mavlink.md §7.14); armed and not
            // confirmed on the ground, not in LAND, our LAND not yet seen.
            let ours = owner.isOurs || ownerAskedToLand
            let landing = ours && vehicle.mightBeAirborne && !isIn(profile.land) && !flight.landAccepted
            guard landing else { return nil }
            // LAND refused (DENIED, FAILED) twice: MAV_CMD_NAV_LAND, which lands where it is on both autopilots.
            return landRefusals >= Self.landRefusalsBeforeNavLand ? .navLand : .setMode(profile.land)
        }
        // Adopted at connect, not asked: keep flying, never start a take-off or change its mode.
        // Two vehicles and none configured: no command at all (docs/mavlink.md §7.7).
        guard !vehicle.isEmergency, !flyingAdopted, otherVehicleSystems.isEmpty else { return nil }
        if vehicle.isOnGround {
            if flight.takeoffAccepted || takeoffOverruled { return nil }   // waiting for lift-off; or someone stopped it
            // MAV_STATE_CRITICAL: the autopilot reports a failure; no take-off (docs/mavlink.md §7.2).
            guard !vehicle.isCritical else { return nil }
            // Armed, but not by us (someone else, or before we started): launched only when the
            // autopilot says ON_GROUND — the core's preflight (the person clear) held for it. Without
            // a landed state the core saw "taking off" and adopted it: not ours to launch.
            if vehicle.isArmed, owner != .followMe, vehicle.landedState != .onGround { return nil }
            switch profile.autopilot {
            case .ardupilot:
                // GUIDED → ARM → NAV_TAKEOFF (ArduPilot arms in GUIDED only with a position).
                if !isIn(profile.control) { return .setMode(profile.control) }
                return vehicle.isArmed ? .takeoff : .arm
            case .px4:
                // Set-points stream (hold) for `px4SetpointLeadSeconds` first; then ARM → NAV_TAKEOFF
                // (AUTO.TAKEOFF, then AUTO.LOITER).
                guard let since = setpointsStreamingSince,
                      now.seconds(since: since) >= Self.px4SetpointLeadSeconds else { return nil }
                // PX4's take-off altitude is AMSL: without a position there is no home altitude to add to.
                guard vehicle.position != nil else { return nil }
                return vehicle.isArmed ? .takeoff : .arm
            }
        }
        // Airborne: only our own flight is flown. PX4: into OFFBOARD once its take-off finished
        // (AUTO.LOITER at the take-off height after AUTO.TAKEOFF, IN_AIR: `isPX4TakeoffUnderWay`); ArduPilot
        // flies its take-off in GUIDED already.
        if profile.autopilot == .px4, owner.isOurs, flight.takeoffAccepted, flight.px4TakeoffFinished, !flight.released,
           !isIn(profile.control), isIn(AutopilotProfile.px4Loiter), vehicle.landedState == .inAir {
            return .setMode(profile.control)
        }
        return nil
    }

    /// Drops a pending request the rules no longer want, re-sends one whose ACK is late (or gives
    /// it up), or sends the wanted one unless it is waiting out a back-off.
    mutating func advanceRequests(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let wanted = wantedRequest(now: now)
        if var pending {
            if pending.request != wanted {
                self.pending = nil
            } else if let since = pending.inProgressSince {
                // IN_PROGRESS: the command runs; wait for its final result, bounded (docs/mavlink.md §7.3).
                guard now.seconds(since: since) >= Self.inProgressTimeoutSeconds else { return }
                self.pending = nil
                settle(pending.request, refused: "IN_PROGRESS without a final result for \(Int(Self.inProgressTimeoutSeconds)) s",
                       now: now, output: &output)
                return
            } else if now.seconds(since: pending.sentAt) >= configuration.timing.commandAckTimeoutSeconds {
                guard pending.attempts < configuration.timing.commandMaxAttempts else {
                    self.pending = nil
                    settle(pending.request, refused: "not answered after \(pending.attempts) sends", now: now, output: &output)
                    return
                }
                pending.attempts += 1
                pending.message.confirmation = UInt8(clamping: pending.attempts - 1)
                pending.sentAt = now
                self.pending = pending
                countBlindLand(pending.request, now: now, output: &output)
                emit(.command(pending.message), into: &output)
                return
            } else {
                return
            }
        }
        guard let wanted, let target = vehicleTarget, now >= notBefore[wanted, default: .zero] else { return }
        let message = command(for: wanted, target: target)
        pending = PendingRequest(request: wanted, message: message, attempts: 1, sentAt: now, inProgressSince: nil)
        countBlindLand(wanted, now: now, output: &output)
        emit(.command(message), into: &output)
    }

    /// Notes a LAND sent (the vehicle in LAND after it is ours, its ACK lost or not); counts one sent
    /// without telemetry and, at the bound, says so once (the link then stops).
    mutating func countBlindLand(_ request: VehicleRequest, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        if request == .setMode(profile.land) || request == .navLand { flight.landSent = true }
        guard isTelemetryLost, request == .setMode(profile.land) else { return }
        blindLandSends += 1
        if blindLandSends == Self.maxBlindLandSends {
            output.events.append(notice(
                "LAND sent \(blindLandSends) times without telemetry; no more, nor HEARTBEATs or set-points until it returns: the vehicle's own GCS-loss failsafe applies",
                .warning, now: now))
        }
    }

    /// The COMMAND_LONG for `request`, first transmission (docs/mavlink.md §5.1).
    func command(for request: VehicleRequest, target: MAVLinkTarget) -> CommandLong {
        var message = CommandLong()
        message.command = .init(request.command)
        message.target = target
        switch request {
        case .messageInterval(let id, let interval):
            message.params = [Float(id), Float(interval), 0, 0, 0, 0, 0]
        case .setMode(let mode):
            message.params = profile.setModeParameters(mode)
        case .arm:
            message.params = [1, 0, 0, 0, 0, 0, 0]
        case .disarm:
            message.params = [0, 0, 0, 0, 0, 0, 0]
        case .takeoff:
            let altitude = profile.takeoffAltitudeParameter(aboveHomeMeters: configuration.takeoffAltitudeMeters,
                                                            vehicle: vehicle)
            message.params = profile.takeoffParameters(altitude: altitude)
        case .navLand:
            // NAV_LAND here: abort altitude 0, no precision landing, yaw/lat/lon/alt NaN = current
            // (PX4 navigator and ArduCopter read NaN position fields as "where it is").
            message.params = [0, 0, 0, .nan, .nan, .nan, .nan]
        }
        return message
    }

    /// Longest wait for the final result after COMMAND_ACK IN_PROGRESS, seconds. Our choice: 10 s; a
    /// mode change, ARM or take-off answers at once, so a long IN_PROGRESS is a stuck command.
    static let inProgressTimeoutSeconds = 10.0

    /// Whether a COMMAND_ACK is addressed to us. ArduPilot and PX4 fill its `target_system` /
    /// `target_component` extension with the sender of the command (ArduPilot
    /// `libraries/GCS_MAVLink/GCS_Common.cpp` `handle_command_long`, PX4
    /// `src/modules/mavlink/mavlink_receiver.cpp` `acknowledge`), so another station's ACK of its
    /// own DO_SET_MODE names that station. 0/0 (the extension absent: MAVLink 1, an older firmware)
    /// is taken as ours: a mode is confirmed by the HEARTBEAT anyway (docs/mavlink.md §7.3).
    func isAddressedToUs(_ ack: CommandAck) -> Bool {
        if ack.target.system == 0, ack.target.component == 0 { return true }
        return ack.target.system == configuration.systemID
            && (ack.target.component == configuration.componentID || ack.target.component == 0)
    }

    /// A COMMAND_ACK for the pending command (others are ignored: late answers to abandoned ones,
    /// answers to another station).
    mutating func handle(_ ack: CommandAck, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        if isAddressedToUs(ack) { noteCameraAck(ack) }
        guard let pending, ack.command.rawValue == pending.message.command.rawValue, isAddressedToUs(ack) else { return }
        switch ack.result.known {
        case .accepted?:
            self.pending = nil
            notBefore[pending.request] = now.adding(seconds: configuration.timing.acceptedSettleSeconds)
            accepted(pending, now: now, output: &output)
        case .inProgress?:
            if self.pending?.inProgressSince == nil { self.pending?.inProgressSince = now }
        default:
            self.pending = nil
            let result = ack.result.known.map { "\($0)".uppercased() } ?? "result \(ack.result.rawValue)"
            noteRefusal(pending.request, now: now)
            settle(pending.request, refused: "refused (\(result))", now: now, output: &output)
        }
    }

    /// An accepted request: a message rate is configured, a take-off or our LAND under way.
    mutating func accepted(_ pending: PendingRequest, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        switch pending.request {
        case .messageInterval(let id, _):
            guard let index = streams.firstIndex(where: { $0.messageID == id }), streams[index].status != .configured else { return }
            streams[index].status = .configured
            output.events.append(.configurationAcknowledged(key: streams[index].key, value: streams[index].value,
                                                            attempts: pending.attempts, at: now))
            reportConfigurationIfResolved(now: now, output: &output)
            return
        case .takeoff:
            flight.takeoffAccepted = true
            flight.takeoffAcceptedAt = now
            flight.takeoffTargetMSLMeters = profile.autopilot == .px4 ? Double(pending.message.params[6]) : nil
            owner = .followMe
        case .setMode(let mode) where mode == profile.land:
            // Confirmed only when the HEARTBEAT shows LAND (`updateFlightProgress`); until then it
            // is asked again after `acceptedSettleSeconds`.
            flight.landRequested = true
        case .navLand:
            flight.landRequested = true
        case .arm:
            owner = .followMe
            armRefusals = 0
            (armAcceptedAt, modeAtArm) = (now, vehicle.customMode)
        case .disarm:
            break
        case .setMode(let mode) where mode == profile.control:
            if vehicle.isOnGround { controlModeAcceptedAt = now }
        case .setMode:
            break
        }
        output.events.append(notice("\(pending.request) accepted", .info, now: now))
    }

    /// Longest back-off between two ARMs the autopilot refused, seconds. Our choice: 30 s (the
    /// range's top of `refusedRetrySeconds`): an EKF takes tens of seconds to converge.
    static let maximumArmBackoffSeconds = 30.0

    /// A refused or unanswered request: a `.notice`, a back-off before it is asked again; a message
    /// rate that is not seen at its rate fails (and the core will not take off).
    mutating func settle(_ request: VehicleRequest, refused reason: String, now: MonotonicTime,
                         output: inout MAVLinkSessionOutput) {
        var wait = configuration.timing.refusedRetrySeconds
        var text = "\(request) \(reason)"
        if request == .arm {
            // Refused ARM before take-off: the autopilot's checks (ArduPilot "PreArm: Need Position
            // Estimate" until its EKF uses GPS) clear on their own — keep asking, backing off (doubling,
            // at most `maximumArmBackoffSeconds`), with the autopilot's own reason (docs/mavlink.md §7.3).
            armRefusals += 1
            wait = min(Self.maximumArmBackoffSeconds, wait * Double(1 << min(armRefusals - 1, 8)))
            if let lastArmingText { text += ": \(lastArmingText)" } else { armRefusedWithoutReasonAt = now }
            text += "; asking again in \(Int(wait.rounded())) s"
        }
        notBefore[request] = max(notBefore[request] ?? .zero, now.adding(seconds: wait))   // never shortens "not again" (`noteRefusal`)
        output.events.append(notice(text, .warning, now: now))
        guard case .messageInterval(let id, _) = request,
              let index = streams.firstIndex(where: { $0.messageID == id }), streams[index].status == .pending else { return }
        streams[index].status = .failed(reason: reason)
        output.events.append(.configurationFailed(key: streams[index].key, value: streams[index].value, reason: reason, at: now))
        reportConfigurationIfResolved(now: now, output: &output)
    }
}
