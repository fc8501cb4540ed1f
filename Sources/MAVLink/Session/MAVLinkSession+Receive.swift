import FollowCore

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
        if let heartbeat = message as? Heartbeat, heartbeat.autopilot.known != .invalid, heartbeat.type.known != .gcs,
           configuration.targetSystem == 0 || frame.systemID == configuration.targetSystem,
           !Self.isVehicle(heartbeat, component: frame.componentID), frame.componentID == Self.autopilotComponent,
           refusedSystems.insert(frame.systemID).inserted {
            // An autopilot, but not a multirotor's (Plane, Rover, antenna tracker: other mode numbers).
            output.events.append(notice(
                "system \(frame.systemID) is MAV_TYPE \(heartbeat.type.rawValue), not a multirotor: FollowMe does not fly it",
                .warning, now: now))
        }
        if isFirstHeartbeat {
            let fromTheVehicle = frame.componentID == Self.autopilotComponent
                && (configuration.targetSystem == 0 || frame.systemID == configuration.targetSystem)
            guard let heartbeat = message as? Heartbeat, Self.isVehicle(heartbeat, component: frame.componentID), fromTheVehicle else {
                // The vehicle's own streams may be heard before its first HEARTBEAT (an autopilot sends
                // its position at 10 Hz, its HEARTBEAT at 1 Hz): not yet attributable, and not "unexpected".
                if !fromTheVehicle || message is Heartbeat { statistics.counts[.droppedUnexpectedSource] += 1 }
                return
            }
            vehicleTarget = MAVLinkTarget(system: frame.systemID, component: frame.componentID)
        } else if configuration.targetSystem == 0, let heartbeat = message as? Heartbeat,
                  Self.isVehicle(heartbeat, component: frame.componentID), let target = vehicleTarget,
                  frame.systemID != target.system {
            noteOtherVehicle(frame.systemID, now: now, output: &output)
        }
        // A camera of the vehicle's own system that speaks MAVLink itself (docs/mavlink.md §7.15): its camera
        // messages only; it is not the vehicle.
        if let target = vehicleTarget, frame.systemID == target.system, Self.cameraComponents.contains(frame.componentID) {
            receiveFromCamera(message, component: frame.componentID, now: now, output: &output)
            return
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
        detectReboot(message, now: now, output: &output)
        let previous = vehicle
        vehicle.apply(message)
        if isFirstHeartbeat, let heartbeat = message as? Heartbeat { connect(heartbeat, now: now, output: &output) }

        switch message {
        case let heartbeat as Heartbeat:
            heartbeatChanged(from: previous, heartbeat, now: now, output: &output)
        case let ack as CommandAck:
            handle(ack, now: now, output: &output)
            noteRecordingAck(ack, component: frame.componentID, now: now, output: &output)
        case let information as CameraInformation:
            receive(information, component: frame.componentID, now: now, output: &output)
        case let text as StatusText:
            let line = text.text.string
            // ArduPilot's arming refusals start "PreArm:" or "Arm:" (libraries/AP_Arming/AP_Arming.cpp
            // `check_failed`), PX4's "Preflight Fail:" / "Arming denied" (src/modules/commander).
            if ["PreArm", "Arm:", "Preflight", "Arming denied"].contains(where: { line.hasPrefix($0) }) {
                lastArmingText = line
                // ArduPilot sends its reason just after the refusal's ACK: said once more, with the reason.
                if let at = armRefusedWithoutReasonAt, now.seconds(since: at) <= Self.armingReasonLagSeconds {
                    armRefusedWithoutReasonAt = nil
                    output.events.append(notice("ARM refused: \(line)", .warning, now: now))
                }
            }
            output.events.append(.notice(text: line, severity: Int(text.severity.rawValue), at: now))
        case let value as ParamValue:
            receive(value, now: now, output: &output)
        case let position as GlobalPositionInt:
            let heightMeters = height(position, now: now)
            if let frame = resumedFrame {
                resumedFrame = nil
                output.events.append(.flightResumed(frame, at: now))
            }
            if let telemetry = vehicle.telemetry(receivedAt: now, heightMeters: heightMeters) {
                output.events.append(.telemetry(telemetry, sequence: Int(frame.sequence)))
            }
            if configuration.positionSource == .autopilot {
                for event in vehicle.onboardEvents(receivedAt: now) { output.events.append(.onboard(event)) }
            }
            reportSomeoneElsesFlight(now: now, output: &output)
        default:
            break
        }
        updateFlightProgress(positionArrived: message is GlobalPositionInt, now: now, output: &output)
        if message is Heartbeat { noteGroundModeChange(now: now, output: &output) }
        stopRecordingIfDue(now: now, output: &output)
        noteSeen(frame.messageID, now: now, output: &output)
    }

    /// The height the core flies by for a flight of ours: above the reference latched when it became
    /// ours (`AltitudeReference`: never the autopilot's moving home); nil — `relative_alt` — for
    /// anyone else's flight and on the ground.
    mutating func height(_ position: GlobalPositionInt, now: MonotonicTime) -> Double? {
        guard owner.isOurs else { return nil }
        guard var reference = flight.altitudeReference ?? newReference(position, now: now) else { return nil }
        let height = reference.height(position, now: now)
        flight.altitudeReference = reference
        return height
    }

    /// The reference a flight becoming ours starts with: for a flight adopted after a restart, the
    /// one its record kept (`previousFlight`: same vehicle, same boot); otherwise the autopilot's home
    /// of the moment.
    mutating func newReference(_ position: GlobalPositionInt, now: MonotonicTime) -> AltitudeReference? {
        if owner == .adopted, let record = previousFlight, let system = vehicleTarget?.system, record.describes(systemID: system, position) {
            resumedFrame = record.frame
            flightFrame = record.frame
            return AltitudeReference(homeMSLMeters: record.homeMSLMeters, position, now: now)
        }
        return AltitudeReference(position, now: now)
    }

    /// What a restarted FollowMe needs to go on flying this flight in its frame; nil while no flight
    /// of ours is in the air with one (the link keeps it in a file while it is not nil). On the ground
    /// there is nothing to adopt: the autopilot's home of the moment is the frame a take-off latches.
    public var flightFrameRecord: FlightFrameRecord? {
        guard owner.isOurs, !vehicle.isOnGround, let reference = flight.altitudeReference, let system = vehicleTarget?.system else { return nil }
        return FlightFrameRecord(systemID: system, bootMilliseconds: reference.latchedBootMilliseconds,
                                 homeMSLMeters: reference.homeMSLMeters, frame: flightFrame,
                                 seenBootMilliseconds: lastBootMilliseconds)
    }

    /// MAV_COMP_ID_AUTOPILOT1 (common.xml): the flight controller's component; a companion computer,
    /// camera or gimbal of the same system is not the vehicle.
    static let autopilotComponent: UInt8 = 1

    /// A HEARTBEAT from a multirotor's autopilot (docs/mavlink.md §7.7): a multirotor `MAV_TYPE`
    /// (`MAVType.multirotors`: the mode numbers and take-off the session sends are ArduCopter's and PX4
    /// multicopter's — a Plane's GUIDED is 15, its 4 is AUTO), not autopilot INVALID (a ground station
    /// or a non-flight component), from component 1.
    static func isVehicle(_ heartbeat: Heartbeat, component: UInt8) -> Bool {
        guard let type = heartbeat.type.known, MAVType.multirotors.contains(type) else { return false }
        return heartbeat.autopilot.known != .invalid && component == autopilotComponent
    }

    /// A second vehicle while `targetSystem` is 0: which one to fly is the operator's choice, not
    /// whichever spoke first. The configuration fails naming both; no flight command is sent until
    /// `[mavlink] target_system` says which (a LAND of a vehicle this run took off is still sent).
    mutating func noteOtherVehicle(_ system: UInt8, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard otherVehicleSystems.insert(system).inserted, let target = vehicleTarget else { return }
        let others = otherVehicleSystems.sorted().map(String.init).joined(separator: ", ")
        output.events.append(.configurationFailed(
            key: "target_system", value: "0",
            reason: "vehicles \(target.system) and \(others) both send HEARTBEATs; set [mavlink] target_system to the one to fly",
            at: now))
        reportedFailedKeys = nil
        reportConfigurationIfResolved(now: now, output: &output)
    }

    /// With `targetSystem` 0, how long after the vehicle's first HEARTBEAT the configuration stays
    /// incomplete, so that a second vehicle is heard before the core may take off (docs/mavlink.md
    /// §7.7). Two HEARTBEAT periods at MAVLink's 1 Hz.
    static let vehicleDiscoverySeconds = 2.0

    /// Still listening for a second vehicle (`targetSystem` 0, within `vehicleDiscoverySeconds`).
    func isDiscovering(now: MonotonicTime) -> Bool {
        guard configuration.targetSystem == 0, let connectedAt else { return false }
        return now.seconds(since: connectedAt) < Self.vehicleDiscoverySeconds
    }

    /// Seconds without the vehicle's HEARTBEAT after which it is taken to have rebooted (docs/mavlink.md
    /// §7.9). Our choice: 3 s, three HEARTBEAT periods; a flight controller reboots in more than that,
    /// and re-asking the message rates after a mere outage costs nothing.
    static let rebootHeartbeatGapSeconds = 3.0
    /// GLOBAL_POSITION_INT `time_boot_ms` going back by more than this is a reboot (our margin for
    /// reordered datagrams).
    static let rebootBootTimeStepMilliseconds: UInt32 = 1000

    /// A rebooted vehicle forgot its message rates (ArduPilot and PX4 keep SET_MESSAGE_INTERVAL only
    /// in RAM): asked again, parameters read again, `.configurationPending` until they are.
    mutating func detectReboot(_ message: any MAVLinkMessage, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        var reason: String?
        switch message {
        case is Heartbeat:
            if let last = lastVehicleHeartbeatAt, now.seconds(since: last) > Self.rebootHeartbeatGapSeconds {
                reason = "no HEARTBEAT for \(Int(now.seconds(since: last))) s"
            }
            lastVehicleHeartbeatAt = now
        case let position as GlobalPositionInt:
            if let last = lastBootMilliseconds, position.timeBootMilliseconds &+ Self.rebootBootTimeStepMilliseconds < last {
                reason = "time_boot_ms went back from \(last) to \(position.timeBootMilliseconds)"
            }
            lastBootMilliseconds = position.timeBootMilliseconds
        default:
            break
        }
        guard let reason else { return }
        for index in streams.indices { (streams[index].status, streams[index].lastSeenAt) = (.pending, nil) }
        parameters = ParameterState.checked(for: configuration.autopilot, pointCamera: configuration.pointCamera)
        rediscoverCamera()
        reportedParameterFailures = [:]
        parameterRereadAt = nil
        reportedFailedKeys = nil
        if case .messageInterval? = pending?.request { pending = nil }
        notBefore = notBefore.filter { if case .messageInterval = $0.key { false } else { true } }
        output.events.append(.configurationPending(reason: "the vehicle may have rebooted (\(reason)): asking its message rates again",
                                                   at: now))
    }

    /// The vehicle's first HEARTBEAT: `.connected`; an armed vehicle might be flying, so flying is
    /// adopted (no LAND until the owner asks), as the AR.Drone link does — but an adopted "flying"
    /// never starts a take-off (the vehicle may be armed on the ground by someone else). A vehicle that names
    /// another autopilot than configured gets no flight command at all (its mode numbers mean other
    /// modes) and the configuration fails, so the core does not take off.
    mutating func connect(_ heartbeat: Heartbeat, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        connectedAt = now
        adoptAtConnect()
        let wasFlying = vehicle.isArmed
        if wasFlying, !vehicle.isEmergency { (desired.flying, flyingAdopted) = (true, true) }
        output.events.append(.connected(droneWasFlying: wasFlying, desiredFlying: desired.flying, at: now))
        // Armed in another mode than ours: someone else flies it (a pilot, a mission, a failsafe). It is
        // never commanded, not even landed, while it stays armed (docs/mavlink.md §7.11).
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
        // Armed while our ARM is pending: ours, even if its ACK was lost; disarmed: nobody's.
        noteArming(from: previous)
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
    /// `positionArrived`: the message just taken in was GLOBAL_POSITION_INT (the height is fresh).
    mutating func updateFlightProgress(positionArrived: Bool, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard vehicle.isArmed else {
            if flight != FlightProgress() { flight = FlightProgress() }
            return
        }
        // Our LAND counts once the HEARTBEAT shows it: an ACK alone may be another station's, or
        // the mode change may not have happened (docs/mavlink.md §7.3); sent and shown counts too (its ACK lost).
        if flight.landRequested || flight.landSent, isIn(profile.land) { flight.landAccepted = true }
        guard vehicle.mightBeAirborne, !flight.released, vehicle.customMode != nil else { return }
        if isIn(profile.control) {
            flight.inControl = true
            return
        }
        let ours = (flight.landAccepted || flight.landRequested || flight.landSent) && isIn(profile.land)
        let px4TakingOff = profile.autopilot == .px4 && isPX4TakeoffUnderWay(positionArrived: positionArrived)
        let leftUs = flight.inControl || (flight.takeoffAccepted && profile.autopilot == .px4 && !px4TakingOff)
        guard leftUs, !ours else { return }
        flight.released = true
        let mode = profile.modeName(vehicle.customMode ?? 0)
        output.events.append(.released(
            mode: mode,
            reason: "the vehicle left \(profile.control) for \(mode) (a pilot or its own failsafe); FollowMe does not take it back",
            at: now))
    }

    /// PX4's take-off after our NAV_TAKEOFF, as its HEARTBEAT shows it: AUTO.TAKEOFF, then AUTO.LOITER once
    /// within `px4TakeoffEndToleranceMeters` of the take-off height (navigator: the take-off is reached within
    /// `NAV_MC_ALT_RAD`, default 0.8 m) — PX4's own end of the take-off, after which OFFBOARD is asked. Until
    /// a HEARTBEAT newer than the acceptance arrives, the mode shown is the one it armed in. AUTO.LOITER shown
    /// by a later HEARTBEAT further below the take-off height — judged on the next GLOBAL_POSITION_INT
    /// (`positionArrived`: the position the HEARTBEAT came with may be older) — is someone's Hold (a pilot, a
    /// failsafe): not under way, so the flight is released. Heights are `relative_alt`, the frame
    /// NAV_TAKEOFF's AMSL altitude was computed in (PX4 moves its home later, not during the climb).
    mutating func isPX4TakeoffUnderWay(positionArrived: Bool) -> Bool {
        guard flight.takeoffAccepted, !flight.inControl else { return false }
        if isIn(AutopilotProfile.px4Takeoff) {
            flight.px4TakeoffSeen = true
            return true
        }
        // PX4 reports TAKEOFF only while its own take-off climbs (EXTENDED_SYS_STATE): a HEARTBEAT sampled
        // before commander changed mode may still show the Hold it armed in.
        if vehicle.landedState == .takeoff { return true }
        guard isIn(AutopilotProfile.px4Loiter) else { return false }
        if flight.px4TakeoffFinished { return true }
        if takeoffHeightReached() {
            flight.px4TakeoffFinished = true
            return true
        }
        let heardSinceAccepted = (lastVehicleHeartbeatAt ?? .zero) > (flight.takeoffAcceptedAt ?? .zero)
        return !positionArrived || (!flight.px4TakeoffSeen && !heardSinceAccepted)
    }

    /// Within `px4TakeoffEndToleranceMeters` of the take-off altitude, judged as PX4's navigator judges it: the
    /// vehicle's AMSL `alt` against NAV_TAKEOFF's AMSL altitude (not `relative_alt`, which moves whenever PX4
    /// moves its home); `relative_alt` against `altitude_m` only if either is unknown.
    func takeoffHeightReached() -> Bool {
        let tolerance = Self.px4TakeoffEndToleranceMeters
        if let target = flight.takeoffTargetMSLMeters, target.isFinite, let position = vehicle.position {
            return Double(position.altitudeMSLMillimeters) / 1000 >= target - tolerance
        }
        return vehicle.relativeAltitudeMeters >= configuration.takeoffAltitudeMeters - tolerance
    }

    /// How far below the take-off height PX4's AUTO.LOITER still counts as the end of its take-off, metres.
    /// Our margin over PX4's `NAV_MC_ALT_RAD` (0.8 m) for a position up to 0.1 s older than the HEARTBEAT at
    /// PX4's 1.5 m/s take-off climb (`MPC_TKO_SPEED`) and barometer noise: a pilot's Hold in the last 1.2 m of
    /// the climb cannot be told from it (docs/mavlink.md §7.3).
    static let px4TakeoffEndToleranceMeters = 1.2

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

    /// `.configurationComplete` once no stream and no parameter is pending (again whenever the failed set changes).
    mutating func reportConfigurationIfResolved(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard !streams.contains(where: { $0.status == .pending }) else { return }
        // (Another autopilot than configured: its parameters are not read, and it fails anyway.)
        guard autopilotMismatch || parameterVerdict != .pending else { return }
        // The braking limits reach the core before the configuration completes (take-off waits for both).
        let braking = parameters.brakingLimits(autopilot: configuration.autopilot)
        guard autopilotMismatch || braking != nil else { return }
        if let braking, braking.accelerationMetersPerSecondSquared != reportedBraking?.accelerationMetersPerSecondSquared
            || braking.jerkMetersPerSecondCubed != reportedBraking?.jerkMetersPerSecondCubed || reportedBraking == nil {
            reportedBraking = braking
            output.events.append(.vehicleBraking(accelerationMetersPerSecondSquared: braking.accelerationMetersPerSecondSquared,
                                                 jerkMetersPerSecondCubed: braking.jerkMetersPerSecondCubed, at: now))
        }
        // Still listening for a second vehicle: reported by the tick once the window has passed.
        guard !isDiscovering(now: now) || !otherVehicleSystems.isEmpty else { return }
        var failed = streams.compactMap { if case .failed = $0.status { $0.key } else { nil } }
        if case .failed(let key, _, _) = parameterVerdict { failed.append(key) }
        if !otherVehicleSystems.isEmpty { failed.insert("target_system", at: 0) }
        if autopilotMismatch { failed.insert("autopilot", at: 0) }
        guard failed != reportedFailedKeys else { return }
        reportedFailedKeys = failed
        output.events.append(.configurationComplete(failedKeys: failed, at: now))
    }
}
