/// The follow core: inputs in, one `DroneCommand` per tick out.
///
/// Owns the `Navigator`, both estimators and the `FollowController`, and decides the flight
/// state. Pure: it never reads a clock — `now` is an argument everywhere — and `tick` does not
/// allocate.
///
/// States (`FlightState`): `preflight(waitingFor:)` → `takingOff` (REF take-off until navdata
/// reports flying/hovering) → `climbing` (until navdata altitude is within tolerance) →
/// `following` ⇄ `holding(reason)` → `landing(reason)` → `landed` (when navdata says landed);
/// `emergency` whenever navdata raises the emergency bit. A drone airborne when first heard is adopted
/// (held or followed), never landed for it; an autopilot seen on the ground and airborne without our
/// take-off is someone else's flight: `released(watching)`, never commanded (docs/mavlink.md §7.14).
///
/// Take-off: REF take-off is sent only while every preflight prerequisite still holds (except
/// `droneReady`, which the lift-off itself ends, and the take-off battery margin, which sags as
/// the motors start): losing one aborts → `landing(.takeOffAborted(missing))`. Navdata must
/// confirm lift-off (TRANS_TAKEOFF, flying or hovering) within `takeOffTimeoutSeconds`, else the
/// attempt is abandoned → `landed` (`.takeOffNotConfirmed`) — for an autopilot still on the ground
/// (it refused to arm, or its take-off was aborted on the ground), back to `preflight`. Once airborne,
/// it is never told to take off again in this run.
///
/// Failsafes, in order of precedence, in every airborne state:
/// emergency bit → `emergency`; shutdown → land; battery under `criticalBatteryPercent` → land at
/// once; battery under `minBatteryPercent` for `lowBatteryConfirmSeconds` → land; navdata
/// says the drone is landing by itself → `landing(.droneInitiated)`; navdata says landed for
/// `landedConfirmSeconds` (while holding: at once) → `landed`; navdata, onboard fix, heading or
/// target fix stale, heading reports rejected for `headingTimeoutSeconds`, outside the geofence,
/// or a climb longer than `climbTimeoutSeconds` → `holding(reason)`, and still holding
/// `landAfterSeconds` after holding began → land. Fresh data (and, for the geofence, being back more than
/// `geofenceResumeMarginMeters` inside it) before that deadline → back to following (via
/// climbing if the altitude is off). A source counts as fresh only once its estimator has
/// converged (`EstimatorTuning.fixesToConverge` fixes since it (re)started) and its last used
/// input is younger than its timeout; a rejected outlier does not refresh it.
public struct FlightStateMachine: Sendable {
    /// As configured, but for the mode, angle and orbit direction the operator changed (`FollowModeChange`).
    public internal(set) var followParameters: FollowParameters
    public let failsafeParameters: FailsafeParameters

    public private(set) var state: FlightState = .preflight(waitingFor: .all)
    public private(set) var navigator: Navigator
    public private(set) var target: TargetEstimator
    public private(set) var drone: DroneEstimator
    public internal(set) var controller: FollowController
    /// When the wind ends the flight (`WindMonitor`): fed the controller's wind estimate every
    /// airborne tick and navdata's wind bit every packet.
    public private(set) var wind: WindMonitor
    /// The latest navdata.
    public private(set) var telemetry: DroneTelemetry?
    /// The take-off (or adoption) point on the plane: the geofence centre.
    public internal(set) var home: PlaneVector?
    public private(set) var shutdownRequested = false
    /// An operator's HOLD is in force (until RESUME); an operator's LAND was accepted; an operator's
    /// START was accepted (`FailsafeParameters.takeOffOnStart`; the take-off consumes it).
    public internal(set) var operatorHold = false, operatorLand = false, operatorStarted = false
    /// Someone else stopped our take-off before it left the ground (a pilot's mode switch): only an
    /// operator's START flies again, whatever the take-off rule (`FailsafeParameters.takeOffOnStart`).
    public internal(set) var startRequired = false
    /// The person's altitude from their 3-D fixes (`PersonAltitudeFilter`: rate-gated, filtered), and its
    /// filtered value when home was set, metres. Their difference is how far the ground under the person
    /// has risen since take-off (`personAltitudeMeters`, `HoldReason.personAboveDrone`).
    public internal(set) var personAltitude = PersonAltitudeFilter()
    public internal(set) var personAltitudeAtHomeMeters: Double?
    /// A resumed flight's frame (`FollowInput.flightResumed`) not yet applied: its home waits for the
    /// local plane, its person's rise for the person's altitude (`applyResumedFrame`).
    var resumedFrame: FlightFrame?
    /// Since when the person has stood within `terrainMarginMeters` of the drone's height above home.
    var personAboveDroneSince: MonotonicTime?
    /// The shortest standoff the vehicle's braking defends, metres (`Prerequisites.braking`); set when
    /// an autopilot's limits are read, nil before (the configured standoff was checked at init).
    public internal(set) var shortestDefensibleStandoffMeters: Double?
    /// Whether the link says it controls the vehicle (`FollowInput.vehicleControl`); true until told otherwise.
    public internal(set) var linkInControl = true
    /// Why the vehicle is released (the link's verdict), until it is down again.
    public internal(set) var releasedBecause: ReleaseReason?
    /// The latest configuration status from the link; `.done` until told otherwise.
    public private(set) var droneConfiguration: DroneConfigurationStatus = .done

    var holdingSince: MonotonicTime?
    private var landedReportedSince: MonotonicTime?
    var hasBeenAirborne = false
    /// A battery percentage has arrived (`batteryUnknown` false): only then do its thresholds apply.
    var batteryPercentKnown = false
    /// An autopilot seen on the ground with no flight of ours under way; watching someone else's
    /// flight that began in preflight (`FlightStateMachine+Vehicle.swift`).
    var vehicleSeenOnGround = false, watchingFromPreflight = false
    /// From our take-off until the first `following`: the wind's short clock applies
    /// (`WindMonitor.startUpSaturationSeconds`). Never set for a drone adopted in flight, and not again
    /// when a hold or an altitude error sends a flight back to climbing.
    private var startingUp = false
    /// When REF take-off was first commanded (`takeOffTimeoutSeconds` counts from here).
    private var takeOffStartedAt: MonotonicTime?
    /// Navdata reported TRANS_TAKEOFF, flying or hovering since the take-off was commanded.
    var liftOffConfirmed = false
    /// When the current climb began (lift-off, or entering `climbing`): `climbTimeoutSeconds`.
    var climbStartedAt: MonotonicTime?
    /// Arrival of the first of the current run of navdata battery readings under `minBatteryPercent`.
    private var lowBatterySince: MonotonicTime?

    /// The person's receiver's delivered fix interval (smoothed), seconds; nil before two fixes.
    public private(set) var targetFixIntervalSeconds: Double?
    /// A delivered interval up to this many configured periods still counts as the configured rate
    /// (our choice: jitter and a dropped fix now and then must not ground a good puck).
    static let targetRateTolerance = 1.5

    /// The point the drone holds while `holding` (or climbing: the take-off point), on the plane.
    public internal(set) var holdPoint: PlaneVector?
    /// Whether the last following tick had its aim pulled in by the geofence.
    var aimLimitedByGeofence = false

    /// Closer than `maxTargetDistanceMeters` by this much before a target-too-far hold clears,
    /// metres (our choice: hysteresis against flapping on GPS noise at the limit).
    public static let targetDistanceResumeMarginMeters = 2.0

    /// Back inside the geofence by this much before a geofence hold clears, metres (hysteresis
    /// against flapping on GPS noise at the boundary).
    public static let geofenceResumeMarginMeters = 2.0

    public init(
        follow: FollowParameters = .defaults,
        failsafe: FailsafeParameters = .defaults,
        estimator: EstimatorTuning = EstimatorTuning(),
        controller: ControllerTuning = ControllerTuning(),
        vehicle: VehicleDynamics = .tiltLoop,
        onboardLatencySeconds: Double? = nil
    ) throws(ParameterError) {
        try follow.validate()
        try failsafe.validate()
        try estimator.validate()
        try controller.validate()
        // The standoff must leave room for a walker heading at the drone to be seen (one target
        // fix period + GPS latency) and backed away from before the protected radius
        // (StoppingModel; FollowMeConfig checks the same rule, FILE:LINE).
        let shortestStandoff = StoppingModel.shortestDefensibleStandoffMeters(
            protectedRadiusMeters: failsafe.protectedRadiusMeters, follow: follow, tuning: controller, vehicle: vehicle)
        guard follow.standoffMeters >= shortestStandoff else {
            throw .inconsistent(parameter: "standoffMeters", value: follow.standoffMeters,
                                requirement: "must be at least minSeparationMeters + gpsRelativeErrorMeters + "
                                    + "separationMarginMeters + the approach reserve for a walker at the configured "
                                    + "target fix rate (\(shortestStandoff))")
        }
        self.followParameters = follow
        self.failsafeParameters = failsafe
        // An autopilot's own estimate (GLOBAL_POSITION_INT) is current when it arrives; a receiver's fix
        // describes `assumedGPSLatencySeconds` ago (issue 22: treating the autopilot's like a receiver's
        // put the drone 0.3 s × its speed ahead of where it was, a 0.42 m standing lag behind a walker).
        let onboardLatency = onboardLatencySeconds.map { max($0, 0) } ?? follow.assumedGPSLatencySeconds
        self.navigator = Navigator(mountOffsetDegrees: follow.mountOffsetDegrees,
                                   headingLatencySeconds: onboardLatency)
        self.target = TargetEstimator(tuning: estimator, latencySeconds: follow.assumedGPSLatencySeconds,
                                      maxFixLagSeconds: failsafe.maxFixLagSeconds, maxEphMeters: failsafe.maxEphMeters)
        self.drone = DroneEstimator(tuning: estimator, latencySeconds: onboardLatency,
                                    maxFixLagSeconds: failsafe.maxFixLagSeconds, maxEphMeters: failsafe.maxEphMeters)
        self.controller = FollowController(
            parameters: follow, minSeparationMeters: failsafe.protectedRadiusMeters,
            geofenceMeters: failsafe.geofenceMeters, tuning: controller, vehicle: vehicle)
        self.wind = WindMonitor(follow: follow, failsafe: failsafe, tuning: controller)
    }

    // MARK: Inputs

    /// Takes one input. Inputs only update knowledge; decisions happen in `tick`.
    @discardableResult
    public mutating func handle(_ input: FollowInput, now: MonotonicTime) -> InputOutcome {
        switch input {
        case .fix(let fix):
            let position = navigator.position(of: fix.coordinate)
            var velocity: PlaneVector?
            if let speed = fix.speedMetersPerSecond, let track = fix.trackDegrees {
                velocity = PlaneVector.unit(bearingDegrees: track) * speed
            }
            switch fix.role {
            case .target:
                let previous = target.lastUsedFixAt
                let verdict = target.ingest(position: position, reportedVelocity: velocity, ephMeters: fix.ephMeters,
                                            fixTime: fix.fixTime, receivedAt: fix.receivedAt)
                if verdict.isUsed, let altitude = fix.altitudeHAEMeters { personAltitude.note(altitude, at: fix.receivedAt) }
                if verdict.isUsed, let previous {
                    // Delivered fix interval, smoothed (0.3 per fix): what the standoff rule's rate is checked against.
                    let interval = max(fix.receivedAt.seconds(since: previous), 0)
                    targetFixIntervalSeconds = targetFixIntervalSeconds.map { 0.7 * $0 + 0.3 * interval } ?? interval
                }
                return .fix(.target, verdict)
            case .onboard:
                return .fix(.onboard, drone.ingest(position: position, reportedVelocity: velocity, ephMeters: fix.ephMeters,
                                                   fixTime: fix.fixTime, receivedAt: fix.receivedAt))
            }
        case .heading(let report):
            switch navigator.ingestHeading(report) {
            case .accepted, .reanchored: return .headingAccepted
            case .rejected: return .headingRejected
            case .ignored: return .headingIgnored
            }
        case .telemetry(let packet):
            if let last = telemetry, packet.receivedAt < last.receivedAt { return .telemetryOutOfOrder }
            telemetry = packet
            wind.observe(firmwareWarning: packet.windWarning, at: packet.receivedAt)
            if !packet.batteryUnknown { batteryPercentKnown = true }
            if batteryPercentKnown, packet.batteryPercent < failsafeParameters.minBatteryPercent {
                if lowBatterySince == nil { lowBatterySince = packet.receivedAt }
            } else {
                lowBatterySince = nil
            }
            if packet.flightState == .landed {
                if landedReportedSince == nil { landedReportedSince = packet.receivedAt }
            } else {
                landedReportedSince = nil
            }
            if let yaw = packet.yawDegrees { navigator.ingest(navdataYawDegrees: yaw, at: packet.receivedAt) }
            if let body = packet.velocityBody, let nose = navigator.noseHeadingDegrees(now: packet.receivedAt) {
                let world = PlaneVector.unit(bearingDegrees: nose) * body.forwardMetersPerSecond
                    + PlaneVector.unit(bearingDegrees: nose + 90) * body.rightMetersPerSecond
                drone.ingest(navdataVelocity: world, at: packet.receivedAt)
            }
            return .telemetryAccepted
        case .shutdownRequested:
            shutdownRequested = true
            return .shutdownNoted
        case .droneConfiguration(let status):
            droneConfiguration = status
            return .droneConfigurationNoted
        case .vehicleBraking, .vehicleControl, .vehicleReleased, .flightResumed:
            return handleVehicle(input)
        case .commandedTilt(let tilt):
            controller.noteCommandedTilt(tilt)
            return .commandedTiltNoted
        case .operatorCommand(let command): return .operatorCommand(command, accept(command, now: now))
        case .followModeChange(let change): return .followModeChange(change, accept(change))
        }
    }

    // MARK: Tick

    /// Decides the state and the command for this instant. Call every ~30 ms.
    public mutating func tick(now: MonotonicTime) -> FlightDecision {
        let transition = advance(now: now)
        var decision = FlightDecision(command: DroneCommand(intent: .stayLanded), state: state,
                                      transition: transition, follow: nil)
        switch state {
        case .preflight, .landed:
            decision.command = DroneCommand(intent: .stayLanded)
        case .takingOff:
            decision.command = DroneCommand(intent: .takeOff)
        case .climbing:
            decision.command = DroneCommand(intent: .fly, climbCommand(now: now))
        case .following:
            let output = followCommand(now: now)
            decision.follow = output
            decision.command = DroneCommand(intent: .fly, motion: output?.motion)
        case .holding(let reason):
            decision.command = DroneCommand(intent: .fly, holdCommand(reason: reason, now: now))
        case .landing:
            decision.command = DroneCommand(intent: .land)
        case .emergency:
            decision.command = DroneCommand(intent: .emergency)
        case .released:
            decision.command = DroneCommand(intent: .release)
        }
        if state.kind != .holding { holdPoint = nil }
        if state.kind != .following { aimLimitedByGeofence = false }
        if decision.command.motion == nil { controller.reset() }
        switch state.kind {
        case .preflight, .landed, .emergency, .released:
            controller.resetWindEstimate()
            wind.reset()
        case .takingOff:
            // The firmware holds the drone still as it lifts off: its tilt tells the wind.
            if let telemetry, navdataFresh(now), telemetry.flightState.isAirborne, telemetry.altitudeMeters > 0.2,
               let pitch = telemetry.pitchDegrees, let roll = telemetry.rollDegrees,
               let droneState = drone.estimate(at: now), let nose = navigator.noseHeadingDegrees(now: now) {
                controller.observeHover(pitchDegrees: pitch, rollDegrees: roll, drone: droneState,
                                        noseHeadingDegrees: nose, now: now)
                wind.observe(windEstimate: controller.fastWindEstimate, droneVelocity: droneState.velocity, now: now)
            } else {
                controller.resetWindEstimate()
            }
        case .climbing, .following, .holding:
            // Only while the follower flies the tilt loop (a firmware hover, PCMD flag 0, leaves the
            // estimate stale; an autopilot's motion carries no context).
            if decision.command.motion?.context != nil, let droneState = drone.estimate(at: now) {
                wind.observe(windEstimate: controller.fastWindEstimate, droneVelocity: droneState.velocity,
                             commandedVelocity: decision.follow?.commandedVelocity ?? .zero, now: now)
            }
        case .landing:
            break
        }
        return decision
    }

    // MARK: Transitions

    /// Applies at most one transition and returns it.
    private mutating func advance(now: MonotonicTime) -> FlightTransition? {
        let fresh = navdataFresh(now)
        updatePersonAboveDroneClock(now: now)
        if let telemetry, fresh, telemetry.flightState.isAirborne, state.kind != .preflight {
            hasBeenAirborne = true
        }
        if home == nil, state.kind != .preflight, state.kind != .landed {
            home = drone.estimate(at: now)?.position
            personAltitudeAtHomeMeters = personAltitudeMeters
        }
        notePersonAltitudeAtHomeDuringClimb()
        applyResumedFrame()
        noteVehicleOnGround(fresh: fresh)

        if let transition = releasedTransition(now: now, fresh: fresh) { return transition }
        if releasedBecause != nil, state.kind == .released { return nil }

        switch state {
        case .preflight:
            if shutdownRequested { return move(to: .landed, .shutdownBeforeTakeOff, now) }
            if let telemetry, fresh, telemetry.flightState.isAirborne, !telemetry.emergency {
                return adoptOrWatch(now: now)
            }
            let missing = missingPrerequisites(now: now)
            if missing.isEmpty {
                home = drone.estimate(at: now)?.position
                personAltitudeAtHomeMeters = personAltitudeMeters
                (operatorStarted, startRequired) = (false, false)   // one START, one take-off (a refused arm waits for the next)
                return move(to: .takingOff, .prerequisitesMet, now)
            }
            state = .preflight(waitingFor: missing)
            return nil

        case .takingOff, .climbing, .following, .holding:
            if let telemetry, telemetry.emergency { return move(to: .emergency, .emergencyReported, now) }
            if shutdownRequested { return move(to: .landing(.shutdown), .land(.shutdown), now) }
            if operatorLand { return move(to: .landing(.operatorCommand), .land(.operatorCommand), now) }
            if let telemetry, batteryPercentKnown, telemetry.batteryPercent
                < min(failsafeParameters.criticalBatteryPercent, failsafeParameters.minBatteryPercent) {
                return move(to: .landing(.criticalBattery), .land(.criticalBattery), now)
            }
            // Low battery counts once readings stayed under the threshold across
            // lowBatteryConfirmSeconds (first to latest packet: a lone reading never does).
            if let telemetry, let since = lowBatterySince,
               telemetry.receivedAt.seconds(since: since) >= failsafeParameters.lowBatteryConfirmSeconds {
                return move(to: .landing(.lowBattery), .land(.lowBattery), now)
            }
            // Wind: more than the tilt can fight, above the configured limit, or the drone's own
            // warning. During take-off and the climb this aborts before any following.
            if let cause = wind.cause(now: now, startingUp: startingUp && (state == .takingOff || state == .climbing)),
               state == .takingOff || hasBeenAirborne {
                return move(to: .landing(.windTooStrong(cause)), .land(.windTooStrong(cause)), now)
            }
            if let telemetry, fresh, hasBeenAirborne, telemetry.flightState == .landing {
                return move(to: .landing(.droneInitiated), .land(.droneInitiated), now)
            }
            if hasBeenAirborne, fresh, let since = landedReportedSince,
               now.seconds(since: since) >= failsafeParameters.landedConfirmSeconds {
                return move(to: .landed, .landedUnexpectedly, now)
            }
            // Holding is where a drone that landed during a navdata gap is found: AT*REF bit 9 is
            // a level ("be flying", docs/flight-safety-faults.md §1), so waiting landedConfirmSeconds here would tell a drone on
            // the ground to take off again. Once airborne, never again: landed, full stop.
            if case .holding = state, hasBeenAirborne, let telemetry, fresh, telemetry.flightState == .landed {
                return move(to: .landed, .landedUnexpectedly, now)
            }
            if state == .takingOff {
                if let telemetry, fresh, telemetry.flightState.isAirborne, !liftOffConfirmed {
                    liftOffConfirmed = true
                    climbStartedAt = now
                }
                // REF take-off only while every preflight prerequisite still holds. Not
                // `droneReady` (the drone leaves "landed" as it lifts) nor the take-off battery
                // margin (the reading sags as the motors start; the landing thresholds above apply).
                // Nor the wind bit: the wind check above confirms it (`WindMonitor.firmwareWarningSeconds`).
                // Nor the operator's HOLD (it holds, below) nor START (the take-off consumed it).
                let lost = missingPrerequisites(now: now, strictHeading: false)
                    .subtracting([.droneReady, .battery, .calmWind, .operatorResume, .operatorStart])
                if !lost.isEmpty {
                    return move(to: .landing(.takeOffAborted(lost)), .land(.takeOffAborted(lost)), now)
                }
                if !liftOffConfirmed, let started = takeOffStartedAt,
                   now.seconds(since: started) >= failsafeParameters.takeOffTimeoutSeconds {
                    // An autopilot that never left the ground (it refused to arm: "PreArm: Need Position
                    // Estimate" while its EKF starts) waits in preflight and tries again when everything
                    // holds, so a start at boot flies once the vehicle is ready (issue 22, defect 0). The
                    // AR.Drone, whose motors did spin, is given up for this run.
                    if case .velocityLoop = controller.vehicle, let telemetry, fresh, telemetry.flightState == .landed {
                        return move(to: .preflight(waitingFor: missingPrerequisites(now: now)), .takeOffNotConfirmed, now)
                    }
                    return move(to: .landed, .takeOffNotConfirmed, now)
                }
            }
            if let reason = holdReason(now: now) ?? climbHoldReason(now: now) {
                if case .holding(let current) = state {
                    // The operator's hold lasts until RESUME (the battery failsafes above still land);
                    // an automatic reason taking over from it starts its own clock.
                    if current == .operatorHold, reason != .operatorHold { holdingSince = now }
                    if reason != .operatorHold, let since = holdingSince,
                       now.seconds(since: since) >= failsafeParameters.landAfterSeconds {
                        return move(to: .landing(.holdExpired(reason)), .land(.holdExpired(reason)), now)
                    }
                    return current == reason ? nil : move(to: .holding(reason), .hold(reason), now)
                }
                holdingSince = now
                return move(to: .holding(reason), .hold(reason), now)
            }
            switch state {
            case .takingOff:
                if let telemetry, telemetry.flightState == .flying || telemetry.flightState == .hovering {
                    return move(to: .climbing, .airborneConfirmed, now)
                }
            case .climbing:
                if altitudeReached() { return move(to: .following, .altitudeReached, now) }
            case .holding:
                holdingSince = nil
                guard let telemetry else { return nil }
                switch telemetry.flightState {
                case .flying, .hovering:
                    return move(to: altitudeReached() ? .following : .climbing, .dataFresh, now)
                case .takingOff, .landed, .landing, .unknown:
                    // Held during take-off before the drone was ever up: back to taking off (which
                    // re-checks every prerequisite and keeps its deadline). Once airborne, never.
                    return hasBeenAirborne ? nil : move(to: .takingOff, .dataFresh, now)
                }
            default:
                break
            }
            return nil

        case .landing(let reason):
            if let transition = takeOffAbortedOnGround(reason, fresh: fresh, now: now) { return transition }
            return downOrEmergency(fresh: fresh, landed: .landedConfirmed, now: now)

        case .landed:
            return watchSomeoneElsesFlight(fresh: fresh, now: now)
        case .released:
            return releasedDown(fresh: fresh, now: now)

        case .emergency:
            if let telemetry, fresh, !telemetry.emergency, telemetry.flightState == .landed {
                return move(to: .landed, .emergencyCleared, now)
            }
            return nil
        }
    }

    /// Landing, or released: the emergency bit → `emergency`; telemetry says landed → `landed` (`reason`).
    mutating func downOrEmergency(fresh: Bool, landed reason: TransitionReason, now: MonotonicTime) -> FlightTransition? {
        if let telemetry, telemetry.emergency { return move(to: .emergency, .emergencyReported, now) }
        if let telemetry, fresh, telemetry.flightState == .landed { return move(to: .landed, reason, now) }
        return nil
    }

    mutating func move(to next: FlightState, _ reason: TransitionReason, _ now: MonotonicTime) -> FlightTransition {
        let transition = FlightTransition(from: state, to: next, reason: reason, at: now)
        if next == .takingOff, state.kind == .preflight {
            (takeOffStartedAt, liftOffConfirmed, startingUp, vehicleSeenOnGround) = (now, false, true, false)
        }
        if next == .following { startingUp = false }
        // A climb entered from take-off keeps its lift-off time; any other entry starts the clock.
        if next == .climbing, state != .takingOff || climbStartedAt == nil { climbStartedAt = now }
        state = next
        return transition
    }
}
