import FollowCore

/// The link's decisions for one MAVLink vehicle, as a value (docs/style.md habit 4; the MAVLink
/// counterpart of `ARDroneSession`): every input — a datagram, the owner's `LinkCommand`, a tick —
/// comes in with `now`; the output is the messages to send and the `LinkEvent`s to publish. No
/// sockets, no clock: the shell (`MAVLinkLink`) owns both.
///
/// Rules (docs/mavlink.md §7):
/// * HEARTBEAT out every second from the start (type GCS, autopilot INVALID), so a vehicle that
///   answers whoever talks first (the simulator, a router) hears us. The vehicle is the first
///   HEARTBEAT from a multirotor's autopilot (component 1) with the configured system id (0: any,
///   but a second vehicle fails the configuration); everything else is ignored (§7.7).
/// * Message rates asked with SET_MESSAGE_INTERVAL: GLOBAL_POSITION_INT and ATTITUDE 10 Hz,
///   SYS_STATUS and EXTENDED_SYS_STATE 2 Hz; each is done when acknowledged or seen at its rate.
///   The GCS-failsafe parameters read with PARAM_REQUEST_READ (§7.8). `.configurationComplete`
///   when all are resolved (the core takes off only after it, and only with none failed). A
///   reboot asks them again (§7.9).
/// * One COMMAND_LONG in flight at a time, answered only by a COMMAND_ACK addressed to us; re-sent
///   after `commandAckTimeoutSeconds` without an ACK (not while IN_PROGRESS), `commandMaxAttempts`
///   sends at most; refused or unanswered: a `.notice`, and asked again after `refusedRetrySeconds`
///   (ARM: doubling to 30 s) only while the rules still want it.
/// * Take-off only while the owner's `flying` is true, the vehicle is connected, its telemetry
///   fresh, no EMERGENCY, and its HEARTBEAT says it runs the configured autopilot (the mode numbers
///   differ: PX4's OFFBOARD main mode 6 is ArduPilot's RTL). ArduPilot: GUIDED → ARM → NAV_TAKEOFF,
///   set-points once IN_AIR. PX4: set-points streamed first (hold, 1 s), ARM → NAV_TAKEOFF, OFFBOARD
///   once the take-off finished (AUTO.LOITER, IN_AIR).
/// * Set-points every tick while in control: the owner's `motion` in MAV_FRAME_LOCAL_NED, never
///   converted; hold (zero velocity) when the owner says `motion` nil or telemetry is lost. `flying`
///   false while airborne, for our flight only (`FlightOwner`: armed or taken off by this run, or found
///   armed in our mode at connect and then flown), or on an explicit `requestLanding`: DO_SET_MODE LAND until the
///   HEARTBEAT shows it, then never forced again (a pilot may take over).
/// * Someone else's flight (armed by a pilot or another station, or found armed in another mode) is
///   watched, never commanded: no set-point, no mode change, no LAND (docs/mavlink.md §7.14).
/// * A vehicle that leaves our mode while airborne (RC pilot, the autopilot's own failsafe) is not
///   taken back: `.released`, no more set-points and no LAND (docs/mavlink.md §7.11).
public struct MAVLinkSession: Sendable {
    public let configuration: MAVLinkLinkConfiguration
    let profile: AutopilotProfile
    public internal(set) var statistics = LinkStatistics()
    /// The vehicle's system and component; nil until its first HEARTBEAT.
    public internal(set) var vehicleTarget: MAVLinkTarget?
    /// What the vehicle last said.
    public internal(set) var vehicle = VehicleState()
    public internal(set) var isTelemetryLost = false
    var parser = MAVLinkParser()
    var desired = LinkCommand.landed
    /// `desired.flying` was adopted from an armed vehicle at connect, not asked by the owner: it
    /// keeps the vehicle from being landed, and never starts a take-off.
    var flyingAdopted = false
    /// Whose flight the vehicle's is (`FlightOwner`, docs/mavlink.md §7.14): only ours is commanded.
    public internal(set) var owner = FlightOwner.none
    var startedAt = MonotonicTime.zero
    /// When our next HEARTBEAT is due (a fixed 1 Hz grid, not "1 s after the last one": at a 1/30 s tick
    /// the latter drifts to one per 31 ticks).
    var nextHeartbeatAt: MonotonicTime?
    var lastReceivedAt: MonotonicTime?
    var streams: [StreamState]
    /// The `failedKeys` last reported with `.configurationComplete`; nil before the first report.
    var reportedFailedKeys: [String]?
    var pending: PendingRequest?
    /// `[mavlink] point_camera`'s progress (MAVLinkSession+Camera.swift).
    var camera = CameraPointing()
    /// The vehicle's camera recording our flight (MAVLinkSession+Recording.swift, docs/mavlink.md §7.15).
    var recording = CameraRecording()
    /// Earliest time each request may be sent again (after an acceptance, a refusal, a give-up).
    var notBefore: [VehicleRequest: MonotonicTime] = [:]
    var flight = FlightProgress()
    /// The flight frame a FollowMe before this one kept (`FlightFrameRecord`): used once, for the flight
    /// adopted at start if it is that flight.
    let previousFlight: FlightFrameRecord?
    /// The previous run's frame, resumed: to hand the flight once (`LinkEvent.flightResumed`).
    var resumedFrame: FlightFrame?
    /// This flight's frame for the record (`flightFrameRecord`): the resumed one, then the flight's own,
    /// field by field (a rise the flight does not know yet keeps the last known); forgotten at disarm.
    var flightFrame: FlightFrame?
    /// The vehicle's HEARTBEAT names another autopilot than configured: no flight command is sent.
    var autopilotMismatch = false
    /// LANDs sent while telemetry was lost (reset when it returns): bounded by `maxBlindLandSends`.
    var blindLandSends = 0
    /// Since when set-points have gone out on every tick; nil while they do not.
    var setpointsStreamingSince: MonotonicTime?
    var lastStatisticsAt = MonotonicTime.zero
    var receivedAtLastStatistics = 0
    /// Other vehicles' system ids heard while `targetSystem` is 0 (docs/mavlink.md §7.7): with any,
    /// the vehicle is ambiguous — `.configurationFailed(key: "target_system")`, no flight command.
    var otherVehicleSystems: Set<UInt8> = []
    /// When the vehicle's first HEARTBEAT arrived; with `targetSystem` 0 the configuration is not
    /// complete before `vehicleDiscoverySeconds` have passed since (another vehicle may yet speak).
    var connectedAt: MonotonicTime?
    /// Systems whose HEARTBEAT was refused as "not a multirotor autopilot" (one notice each).
    var refusedSystems: Set<UInt8> = []
    /// The owner asked explicitly to land (`requestLanding`): LAND whoever flies it, until it is disarmed.
    var ownerAskedToLand = false
    /// ArduPilot's take-off sequence on the ground (`noteGroundModeChange`): the HEARTBEAT showed our GUIDED
    /// while the owner wants to fly; then someone else's mode on the ground stopped the sequence, and
    /// nothing is asked again until the owner stops wanting to fly and asks anew.
    var controlModeSeenOnGround = false
    var takeoffOverruled = false
    /// When our GUIDED was last accepted on the ground: ArduPilot changes mode before it answers, so a
    /// HEARTBEAT heard later that shows another mode shows someone else's.
    var controlModeAcceptedAt: MonotonicTime?
    /// When our ARM was last accepted, and the mode the vehicle was in then (PX4 takes off from it);
    /// forgotten at disarm and at a new ask to fly.
    var armAcceptedAt: MonotonicTime?
    var modeAtArm: UInt32?
    /// The GCS-failsafe parameters read before take-off (docs/mavlink.md §7.8).
    var parameters: [ParameterState]
    /// In control or not (`MAVLinkSession+Control.swift`, docs/mavlink.md §7.12): since when the vehicle, ours and airborne, has been
    /// out of our mode; whether in control was last reported (true until told otherwise); refusals.
    var notInControlSince: MonotonicTime?
    var reportedInControl = true
    var controlRefusals = 0
    var landRefusals = 0
    /// The braking limits last reported (`.vehicleBraking`); nil before.
    var reportedBraking: (accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?)?
    /// Failures already reported as `.configurationFailed`, by key: value (each reported once per value).
    var reportedParameterFailures: [String: String] = [:]
    /// When the parameters' verdict first failed, then when each re-read round began; nil while it passes.
    var parameterRereadAt: MonotonicTime?
    /// The vehicle's last HEARTBEAT and GLOBAL_POSITION_INT `time_boot_ms`: a long gap or a boot time
    /// going back means it rebooted (docs/mavlink.md §7.9).
    var lastVehicleHeartbeatAt: MonotonicTime?
    var lastBootMilliseconds: UInt32?
    /// The autopilot's last "PreArm…"/"Arm…" STATUSTEXT: the reason shown when ARM is refused.
    var lastArmingText: String?
    /// When an ARM was refused before any arming STATUSTEXT had come (its reason follows the ACK).
    var armRefusedWithoutReasonAt: MonotonicTime?
    /// How long after a refused ARM the autopilot's reason is still taken as its reason, seconds (our
    /// choice: a real ArduCopter SITL sent it milliseconds after the ACK).
    static let armingReasonLagSeconds = 1.0
    /// ARM refusals in a row (the back-off doubles with each, docs/mavlink.md §7.3).
    var armRefusals = 0

    /// What happened in the current flight (reset whenever the vehicle is disarmed).
    struct FlightProgress: Sendable, Equatable {
        /// NAV_TAKEOFF was accepted.
        var takeoffAccepted = false
        /// The vehicle was airborne in our mode (GUIDED / OFFBOARD).
        var inControl = false
        /// Airborne, it left our mode on its own: not taken back.
        var released = false
        /// Our LAND was acknowledged ACCEPTED; not yet seen in the HEARTBEAT.
        var landRequested = false
        /// The HEARTBEAT showed LAND after our LAND was acknowledged (or sent: its ACK may be lost): not asked again.
        var landAccepted = false
        /// Our LAND (DO_SET_MODE LAND or NAV_LAND) went out at least once in this flight.
        var landSent = false
        /// The height frame, latched when the flight became ours (`AltitudeReference`).
        var altitudeReference: AltitudeReference?
        /// When our NAV_TAKEOFF was accepted, and (PX4) the AMSL altitude it asked for, metres.
        var takeoffAcceptedAt: MonotonicTime?
        var takeoffTargetMSLMeters: Double?
        /// PX4: the HEARTBEAT showed AUTO.TAKEOFF after our NAV_TAKEOFF; then AUTO.LOITER at the take-off
        /// height (`px4TakeoffFinished`): PX4's own end of the take-off, after which OFFBOARD is asked.
        var px4TakeoffSeen = false
        var px4TakeoffFinished = false
    }

    /// `previousFlight`: the frame record a FollowMe before this one kept (a restart in flight), if any.
    public init(configuration: MAVLinkLinkConfiguration, previousFlight: FlightFrameRecord? = nil) {
        self.configuration = configuration
        self.previousFlight = previousFlight
        profile = AutopilotProfile(configuration.autopilot)
        streams = StreamState.requested
        parameters = ParameterState.checked(for: configuration.autopilot, pointCamera: configuration.pointCamera)
    }

    /// Sends the first HEARTBEAT; ticks may follow.
    public mutating func start(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        startedAt = now
        lastStatisticsAt = now
        sendHeartbeat(now: now, output: &output)
    }

    /// The owner's latest command; it stays in force until the next one.
    public mutating func setDesired(_ command: LinkCommand) {
        // A new ask to fly starts the take-off sequence's watch over (`noteGroundModeChange`).
        if command.flying, !desired.flying {
            (controlModeSeenOnGround, takeoffOverruled, controlModeAcceptedAt) = (false, false, nil)
            (armAcceptedAt, modeAtArm) = (nil, nil)
        }
        if let frame = command.frame { keepFrame(frame) }
        desired = command
        flyingAdopted = false
        claimIfFound(command)
    }

    /// Takes the flight's frame into `flightFrame`, keeping the last known rise while the flight has none.
    mutating func keepFrame(_ frame: FlightFrame) {
        var kept = frame
        if kept.personRiseMeters == nil { kept.personRiseMeters = flightFrame?.personRiseMeters }
        flightFrame = kept
    }

    /// The owner explicitly asks to land whatever vehicle flies (`followme drone land`): unlike
    /// `setDesired(.landed)`, which lands only a flight this run took off or adopted, this also
    /// lands a vehicle someone else took off (docs/mavlink.md §7.3).
    public mutating func requestLanding() {
        setDesired(.landed)
        ownerAskedToLand = true
    }

    /// One tick: our HEARTBEAT when due, the silence check, statistics, the next command or a
    /// re-send, and the set-point.
    public mutating func tick(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        if let due = nextHeartbeatAt, now >= due, !gaveUpBlind { sendHeartbeat(now: now, output: &output) }
        checkSilence(now: now, output: &output)
        emitStatisticsIfDue(now: now, output: &output)
        advanceRequests(now: now, output: &output)
        advanceParameterReads(now: now, output: &output)
        checkControl(now: now, output: &output)
        if !configuration.dryRun { pointCamera(now: now, output: &output) }
        driveRecording(now: now, output: &output)
        // Not yet reported (the vehicle-discovery window, §7.7, may have held it back).
        if reportedFailedKeys == nil, connectedAt != nil, !isDiscovering(now: now) {
            reportConfigurationIfResolved(now: now, output: &output)
        }
        // A dry run sends no set-point either (`MAVLinkLink` skips its immediate ones too).
        guard !configuration.dryRun else { return }
        sendSetpoint(now: now, output: &output)
        if currentSetpoint == nil { setpointsStreamingSince = nil }
    }

    /// PX4 switches to OFFBOARD only after set-points have arrived for more than a second (PX4 user
    /// guide, "Offboard Mode"); the link streams them this long before it even arms (docs/mavlink.md §7.3).
    static let px4SetpointLeadSeconds = 1.0

    /// LANDs sent blind (no telemetry) before the link stops asking (our choice: two rounds of
    /// `commandMaxAttempts`; a vehicle that hears us lands on the first, and one that does not is in
    /// the hands of its own GCS-loss failsafe — docs/mavlink.md §7.5).
    static let maxBlindLandSends = 10

    /// Telemetry lost and every blind LAND sent: the vehicle is left to its own GCS-loss failsafe, so
    /// neither HEARTBEAT nor set-point goes out (either would keep that failsafe quiet) until telemetry returns.
    var gaveUpBlind: Bool { isTelemetryLost && blindLandSends >= Self.maxBlindLandSends }

    /// The set-point now, outside the tick cadence (a new GPS fix must not wait for the tick).
    public mutating func sendSetpoint(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard !gaveUpBlind, let setpoint = currentSetpoint, let target = vehicleTarget else { return }
        if setpointsStreamingSince == nil { setpointsStreamingSince = now }
        let milliseconds = UInt32(clamping: max(0, now.nanoseconds &- startedAt.nanoseconds) / 1_000_000)
        emit(.setpoint(SetPositionTargetLocalNED(setpoint, target: target, timeBootMilliseconds: milliseconds)),
             into: &output)
    }

    // MARK: - Shell bookkeeping

    public mutating func recordTickLateness(seconds: Double) {
        statistics.maxTickLatenessSeconds = max(statistics.maxTickLatenessSeconds, seconds)
        if seconds > configuration.timing.tickIntervalSeconds { statistics.counts[.ticksLate] += 1 }
    }
    public mutating func countSendFailure() { statistics.counts[.sendFailures] += 1 }
    public mutating func countDroppedEvent() { statistics.counts[.eventsDropped] += 1 }
    public mutating func socketClosed(error: String?, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        statistics.counts[.socketsClosed] += 1
        output.events.append(.socketClosed(socket: "mavlink", error: error, at: now))
    }
    public mutating func socketReopened(localPort: Int, samePort: Bool, attempts: Int, downSeconds: Double, now: MonotonicTime,
                                        output: inout MAVLinkSessionOutput) {
        statistics.counts[.socketsReopened] += 1
        output.events.append(.socketReopened(socket: "mavlink", localPort: localPort, samePort: samePort, attempts: attempts,
                                             downSeconds: downSeconds, at: now))
    }

    // MARK: - Set-points

    /// Whether the vehicle's HEARTBEAT shows `mode`.
    func isIn(_ mode: AutopilotMode) -> Bool { vehicle.customMode == mode.customMode }

    /// The set-point this tick, nil when none is streamed (docs/mavlink.md §7.4).
    ///
    /// Streamed while flying is wanted and — ArduPilot — the vehicle is IN_AIR in GUIDED (a
    /// set-point during GUIDED's own take-off would end the climb), or — PX4 — from before arming
    /// on (OFFBOARD is only accepted after set-points have streamed), until the vehicle is released.
    /// While landing is wanted: hold, until the vehicle leaves our mode. The value is the owner's
    /// motion command only in our mode, airborne, with fresh telemetry; otherwise hold.
    var currentSetpoint: LocalVelocitySetpoint? {
        guard vehicleTarget != nil, !autopilotMismatch, !flight.released, !desired.released else { return nil }
        let inControlMode = isIn(profile.control)
        let flyingInControl = inControlMode && vehicle.flightState == .flying
        let streaming: Bool
        if desired.flying {
            switch profile.autopilot {
            case .ardupilot: streaming = owner.isOurs && flyingInControl
            // Before arming too (OFFBOARD needs them first), but never to someone else's airborne vehicle.
            case .px4: streaming = owner.isOurs || !vehicle.mightBeAirborne
            }
        } else {
            // Landing ours: hold until the mode changes. Someone else's vehicle (preflight, a dry run,
            // after our flight) gets nothing, not even a hold.
            streaming = (owner.isOurs || ownerAskedToLand) && inControlMode && vehicle.mightBeAirborne
        }
        guard streaming else { return nil }
        guard desired.flying, flyingInControl, !isTelemetryLost else { return .hold }
        var setpoint = configuration.setpoints.setpoint(for: desired.motion)
        // An adopted flight before its height frame is latched (the first GLOBAL_POSITION_INT after it
        // became ours): the core's height may still be the autopilot's moving `relative_alt`, so it never
        // descends below where it was adopted until then (docs/mavlink.md §7.2).
        if owner == .adopted, flight.altitudeReference == nil { setpoint = setpoint.withoutDescent }
        return setpoint
    }

    // MARK: - Output

    /// Appends `outgoing` and counts it (one datagram, one MAVLink message).
    mutating func emit(_ outgoing: MAVLinkOutgoing, into output: inout MAVLinkSessionOutput) {
        output.messages.append(outgoing)
        statistics.counts[.datagramsSent] += 1
        statistics.counts[.commandsSent] += 1
    }

    /// HEARTBEAT as a ground station: type GCS (6), autopilot INVALID (8), state ACTIVE, version 3
    /// (docs/mavlink.md §4.4, §5.2).
    mutating func sendHeartbeat(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let interval = configuration.timing.heartbeatIntervalSeconds
        let next = (nextHeartbeatAt ?? now).adding(seconds: interval)
        nextHeartbeatAt = next > now ? next : now.adding(seconds: interval)
        emit(.heartbeat(Self.groundStationHeartbeat), into: &output)
    }

    static let groundStationHeartbeat = Heartbeat {
        $0.customMode = 0
        $0.type = .init(.gcs)
        $0.autopilot = .init(.invalid)
        $0.baseMode = []
        $0.systemStatus = .init(.active)
        $0.mavlinkVersion = 3
    }

    /// A line for the operator, severity on MAVLink's scale (`MAVSeverity`).
    func notice(_ text: String, _ severity: MAVSeverity, now: MonotonicTime) -> LinkEvent {
        .notice(text: text, severity: Int(severity.rawValue), at: now)
    }

    mutating func checkSilence(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let last = lastReceivedAt, !isTelemetryLost,
              now.seconds(since: last) >= configuration.timing.telemetrySilenceSeconds else { return }
        isTelemetryLost = true
        statistics.counts[.telemetryLosses] += 1
        output.events.append(.telemetryLost(lastReceivedAt: last, at: now))
    }

    mutating func emitStatisticsIfDue(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let elapsed = now.seconds(since: lastStatisticsAt)
        guard elapsed >= configuration.timing.statisticsIntervalSeconds else { return }
        statistics.telemetryRateHz = Double(statistics.counts[.telemetryReceived] - receivedAtLastStatistics) / elapsed
        receivedAtLastStatistics = statistics.counts[.telemetryReceived]
        lastStatisticsAt = now
        output.events.append(.statistics(statistics))
    }
}
