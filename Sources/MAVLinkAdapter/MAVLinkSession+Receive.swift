import DroneControl
import MAVLink
import Observations

/// The session's intake: datagrams → frames → the vehicle's state, events and answers.
extension MAVLinkSession {
    /// One UDP datagram. `fromExpectedSource`: it came from the configured address and port
    /// (anything else is dropped and counted, like the AR.Drone link's navdata).
    public mutating func receive(datagram: some Sequence<UInt8>, fromExpectedSource: Bool, now: MonotonicTime,
                                 output: inout MAVLinkSessionOutput) {
        statistics.counts[.telemetryDatagramsRead] += 1
        guard fromExpectedSource else {
            statistics.counts[.droppedUnexpectedSource] += 1
            return
        }
        let before = parser.counters
        let items = parser.parse(datagram)
        let after = parser.counters
        statistics.counts[.droppedMalformed] += (after.badChecksums - before.badChecksums)
            + (after.unsupportedFlags - before.unsupportedFlags)
        for case .frame(let frame) in items { receive(frame, now: now, output: &output) }
    }

    /// One checked frame: from the vehicle (or, before it is known, its first HEARTBEAT) it updates
    /// the state; frames from other systems or components are dropped and counted.
    mutating func receive(_ frame: MAVLinkFrame, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let message = MAVLinkMessages.message(in: frame) else { return }
        let isFirstHeartbeat = vehicleTarget == nil
        if isFirstHeartbeat {
            guard let heartbeat = message as? Heartbeat, Self.isVehicle(heartbeat),
                  configuration.targetSystem == 0 || frame.systemID == configuration.targetSystem else {
                statistics.counts[.droppedUnexpectedSource] += 1
                return
            }
            vehicleTarget = MAVLinkTarget(system: frame.systemID, component: frame.componentID)
        }
        guard frame.systemID == vehicleTarget?.system, frame.componentID == vehicleTarget?.component else {
            statistics.counts[.droppedUnexpectedSource] += 1
            return
        }
        statistics.counts[.telemetryReceived] += 1
        if let last = lastReceivedAt, isTelemetryLost {
            isTelemetryLost = false
            blindLandSends = 0
            output.events.append(.telemetryRestored(silenceSeconds: now.seconds(since: last), at: now))
        }
        lastReceivedAt = now
        let previous = vehicle
        vehicle.apply(message)
        if isFirstHeartbeat, let heartbeat = message as? Heartbeat { connect(heartbeat, now: now, output: &output) }

        switch message {
        case let heartbeat as Heartbeat:
            heartbeatChanged(from: previous, heartbeat, now: now, output: &output)
        case let ack as CommandAck:
            handle(ack, now: now, output: &output)
        case let text as StatusText:
            output.events.append(.notice(text: text.text.string, severity: Int(text.severity.rawValue), at: now))
        case is GlobalPositionInt:
            if let telemetry = vehicle.telemetry(receivedAt: now) {
                output.events.append(.telemetry(telemetry, sequence: Int(frame.sequence)))
            }
            if configuration.positionSource == .autopilot {
                for event in vehicle.onboardEvents(receivedAt: now) { output.events.append(.onboard(event)) }
            }
        default:
            break
        }
        updateFlightProgress(now: now, output: &output)
        noteSeen(frame.messageID, now: now, output: &output)
    }

    /// A HEARTBEAT from a vehicle, not from another ground station or a non-flight component.
    static func isVehicle(_ heartbeat: Heartbeat) -> Bool {
        heartbeat.type.known != .gcs && heartbeat.autopilot.known != .invalid
    }

    /// The vehicle's first HEARTBEAT: `.connected`; an armed vehicle might be flying, so flying is
    /// adopted (no LAND until the owner asks), as the AR.Drone link does — but an adopted "flying"
    /// never starts a take-off (the vehicle may be armed on the ground by someone else). A vehicle that names
    /// another autopilot than configured gets no flight command at all (its mode numbers mean other
    /// modes) and the configuration fails, so the core does not take off.
    mutating func connect(_ heartbeat: Heartbeat, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let wasFlying = vehicle.isArmed
        if wasFlying, !vehicle.isEmergency { (desired.flying, flyingAdopted) = (true, true) }
        output.events.append(.connected(droneWasFlying: wasFlying, desiredFlying: desired.flying, at: now))
        // Armed in another mode than ours: someone else flies it (a pilot, a mission, a failsafe). It is
        // never commanded, not even landed, while it stays armed (docs/mavlink.md §7.6).
        if wasFlying, !vehicle.isEmergency, !isIn(profile.control), heartbeat.autopilot.rawValue == profile.heartbeatAutopilot.rawValue {
            flight.released = true
            let mode = profile.modeName(heartbeat.customMode)
            output.events.append(.released(
                mode: mode, reason: "found armed in \(mode), not \(profile.control): someone else flies it; FollowMe commands nothing",
                at: now))
        }
        if heartbeat.autopilot.rawValue != profile.heartbeatAutopilot.rawValue {
            autopilotMismatch = true
            let reason = "the vehicle's HEARTBEAT says autopilot \(heartbeat.autopilot.rawValue), not \(configuration.autopilot.rawValue)"
            output.events.append(.configurationFailed(key: "autopilot", value: configuration.autopilot.rawValue,
                                                      reason: reason, at: now))
        }
    }

    /// Mode and arming changes as notices; an EMERGENCY clears flying (`.flyingCleared`), after
    /// which only LAND is asked for.
    mutating func heartbeatChanged(from previous: VehicleState, _ heartbeat: Heartbeat, now: MonotonicTime,
                                   output: inout MAVLinkSessionOutput) {
        if let before = previous.customMode, before != heartbeat.customMode {
            output.events.append(notice("mode \(profile.modeName(before)) → \(profile.modeName(heartbeat.customMode))",
                                        .info, now: now))
        }
        if previous.heartbeat != nil, previous.isArmed != vehicle.isArmed {
            output.events.append(notice(vehicle.isArmed ? "armed" : "disarmed", .info, now: now))
        }
        if vehicle.isEmergency, desired.flying {
            desired.flying = false
            output.events.append(.flyingCleared(
                reason: "the vehicle reports \(heartbeat.systemStatus.known.map { "\($0)" } ?? "state \(heartbeat.systemStatus.rawValue)")",
                at: now))
        }
    }

    /// Keeps `flight` in step with the vehicle: reset when disarmed; in control once airborne in
    /// our mode; released when, airborne, it leaves our mode (or, PX4, the take-off modes) other
    /// than for the LAND we asked.
    mutating func updateFlightProgress(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard vehicle.isArmed else {
            if flight != FlightProgress() { flight = FlightProgress() }
            return
        }
        guard vehicle.mightBeAirborne, !flight.released, vehicle.customMode != nil else { return }
        if isIn(profile.control) {
            flight.inControl = true
            return
        }
        let ours = flight.landAccepted && isIn(profile.land)
        let px4TakingOff = profile.autopilot == .px4 && (isIn(AutopilotProfile.px4Takeoff) || isIn(AutopilotProfile.px4Loiter))
        let leftUs = flight.inControl || (flight.takeoffAccepted && profile.autopilot == .px4 && !px4TakingOff)
        guard leftUs, !ours else { return }
        flight.released = true
        let mode = profile.modeName(vehicle.customMode ?? 0)
        output.events.append(.released(
            mode: mode,
            reason: "the vehicle left \(profile.control) for \(mode) (a pilot or its own failsafe); FollowMe does not take it back",
            at: now))
    }

    /// A requested stream's message arrived: seen twice at its rate, it counts as configured.
    mutating func noteSeen(_ messageID: UInt32, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let index = streams.firstIndex(where: { $0.messageID == messageID }) else { return }
        let previous = streams[index].lastSeenAt
        streams[index].lastSeenAt = now
        guard streams[index].status != .configured, let previous, streams[index].showsRate(previous: previous, now: now) else { return }
        streams[index].status = .configured
        output.events.append(.configurationAcknowledged(key: streams[index].key, value: streams[index].value, attempts: 0, at: now))
        reportConfigurationIfResolved(now: now, output: &output)
    }

    /// `.configurationComplete` once no stream is pending (again whenever the failed set changes).
    mutating func reportConfigurationIfResolved(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard !streams.contains(where: { $0.status == .pending }) else { return }
        var failed = streams.compactMap { if case .failed = $0.status { $0.key } else { nil } }
        if autopilotMismatch { failed.insert("autopilot", at: 0) }
        guard failed != reportedFailedKeys else { return }
        reportedFailedKeys = failed
        output.events.append(.configurationComplete(failedKeys: failed, at: now))
    }
}
