/// The follow core: inputs in (`handle`), one `DroneCommand` per tick out (`tick`); owns the navigator,
/// estimators, controller and wind monitor, and decides the `FlightState` (at most one transition per
/// tick, each confirmed by telemetry). Pure: `now` is an argument, and `tick` does not allocate. States,
/// failsafes and their precedence: docs/commands.md §4.1; the rules' reasons: docs/flight-safety-faults.md §5.
public struct FlightStateMachine: Sendable {
    /// As configured, but for the mode, angle and orbit direction the operator changed (`FollowModeChange`).
    public internal(set) var followParameters: FollowParameters
    public let failsafeParameters: FailsafeParameters

    public private(set) var state: FlightState = .preflight(waitingFor: .all)
    public private(set) var navigator: Navigator
    public private(set) var target: TargetEstimator
    public private(set) var drone: DroneEstimator
    public internal(set) var controller: FollowController
    /// When the wind ends the flight: fed the vehicle model's fast wind estimate every airborne tick and the vehicle's warning.
    public private(set) var wind: WindMonitor
    /// The latest telemetry.
    public private(set) var telemetry: DroneTelemetry?
    /// The take-off (or adoption) point on the plane: the geofence centre.
    public internal(set) var home: PlaneVector?
    public private(set) var shutdownRequested = false
    /// An operator's HOLD is in force (until RESUME); LAND was accepted; START was accepted (the take-off consumes it).
    public internal(set) var operatorHold = false, operatorLand = false, operatorStarted = false
    /// Someone else stopped our take-off on the ground (a pilot's mode switch): only START flies again.
    public internal(set) var startRequired = false
    /// The person's altitude (3-D fixes), and its value when home was set, metres: the rise is their difference.
    public internal(set) var personAltitude = PersonAltitudeFilter()
    public internal(set) var personAltitudeAtHomeMeters: Double?
    /// A resumed flight's frame not yet applied (`applyResumedFrame`).
    var resumedFrame: FlightFrame?
    /// Since when the person has stood within `terrainMarginMeters` of the drone's height above home.
    var personAboveDroneSince: MonotonicTime?
    /// The shortest standoff the vehicle's braking defends, metres; nil until an autopilot's limits are read.
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
    /// An autopilot seen on the ground with no flight of ours under way; watching a flight begun in preflight.
    var vehicleSeenOnGround = false, watchingFromPreflight = false
    /// From our take-off until the first `following` (the wind's short clock); never for an adopted drone.
    private var startingUp = false
    /// When REF take-off was first commanded (`takeOffTimeoutSeconds` counts from here).
    private var takeOffStartedAt: MonotonicTime?
    /// Telemetry reported TRANS_TAKEOFF, flying or hovering since the take-off was commanded.
    var liftOffConfirmed = false
    /// When the current climb began (lift-off, or entering `climbing`): `climbTimeoutSeconds`.
    var climbStartedAt: MonotonicTime?
    /// Arrival of the first of the current run of telemetry battery readings under `minBatteryPercent`.
    private var lowBatterySince: MonotonicTime?

    /// The person's receiver's delivered fix interval (smoothed), seconds; nil before two fixes.
    public private(set) var targetFixIntervalSeconds: Double?
    /// A delivered interval up to this many configured periods still counts as the configured rate.
    static let targetRateTolerance = 1.5

    /// The point the drone holds while `holding` (or climbing: the take-off point), on the plane.
    public internal(set) var holdPoint: PlaneVector?
    /// Whether the last following tick had its aim pulled in by the geofence.
    var aimLimitedByGeofence = false

    /// Closer than `maxTargetDistanceMeters` by this much before a target-too-far hold clears, metres (hysteresis).
    public static let targetDistanceResumeMarginMeters = 2.0

    /// Back inside the geofence by this much before a geofence hold clears, metres (hysteresis).
    public static let geofenceResumeMarginMeters = 2.0

    public init(
        follow: FollowParameters = .defaults,
        failsafe: FailsafeParameters = .defaults,
        estimator: EstimatorTuning = EstimatorTuning(),
        controller: ControllerTuning = ControllerTuning(),
        vehicle: VehicleModelBuilder,
        onboardLatencySeconds: Double? = nil
    ) throws(ParameterError) {
        try follow.validate()
        try failsafe.validate()
        try estimator.validate()
        try controller.validate()
        let vehicle = vehicle.build(follow)
        // The standoff rule (`StoppingModel`; FollowMeConfig checks the same, FILE:LINE).
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
        // An autopilot's own estimate is current on arrival; a receiver's fix without an age of its own
        // is `assumedOnboardGPSLatencySeconds` old.
        let onboardLatency = onboardLatencySeconds.map { max($0, 0) } ?? follow.assumedOnboardGPSLatencySeconds
        self.navigator = Navigator(mountOffsetDegrees: follow.mountOffsetDegrees,
                                   headingLatencySeconds: onboardLatency)
        self.target = TargetEstimator(tuning: estimator, latencySeconds: follow.assumedGPSLatencySeconds,
                                      maxFixLagSeconds: failsafe.maxFixLagSeconds, maxEphMeters: failsafe.maxEphMeters)
        self.drone = DroneEstimator(tuning: estimator, latencySeconds: onboardLatency,
                                    maxFixLagSeconds: failsafe.maxFixLagSeconds, maxEphMeters: failsafe.maxEphMeters)
        self.controller = FollowController(
            parameters: follow, minSeparationMeters: failsafe.protectedRadiusMeters,
            geofenceMeters: failsafe.geofenceMeters, tuning: controller, model: vehicle)
        self.wind = WindMonitor(failsafe: failsafe, authorityMetersPerSecond: vehicle.windAuthorityMetersPerSecond)
    }


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
                                            fixTime: fix.fixTime, receivedAt: fix.receivedAt, ageSeconds: fix.age?.seconds)
                if verdict.isUsed, let altitude = fix.altitudeHAEMeters { personAltitude.note(altitude, at: fix.receivedAt) }
                if verdict.isUsed, let previous {
                    let interval = max(fix.receivedAt.seconds(since: previous), 0)
                    targetFixIntervalSeconds = targetFixIntervalSeconds.map { 0.7 * $0 + 0.3 * interval } ?? interval
                }
                return .fix(.target, verdict)
            case .onboard:
                return .fix(.onboard, drone.ingest(position: position, reportedVelocity: velocity, ephMeters: fix.ephMeters,
                                                   fixTime: fix.fixTime, receivedAt: fix.receivedAt,
                                                   ageSeconds: fix.age?.seconds))
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
            controller.vehicle.observe(packet)
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
            if let yaw = packet.yawDegrees { navigator.ingest(vehicleYawDegrees: yaw, at: packet.receivedAt) }
            if let body = packet.velocityBody, let nose = navigator.noseHeadingDegrees(now: packet.receivedAt) {
                let world = PlaneVector.unit(bearingDegrees: nose) * body.forwardMetersPerSecond
                    + PlaneVector.unit(bearingDegrees: nose + 90) * body.rightMetersPerSecond
                drone.ingest(telemetryVelocity: world, at: packet.receivedAt)
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
        case .operatorCommand(let command): return .operatorCommand(command, accept(command, now: now))
        case .followModeChange(let change): return .followModeChange(change, accept(change))
        }
    }


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
            if let telemetry, telemetryFresh(now), telemetry.flightState.isAirborne, telemetry.altitudeMeters > 0.2,
               telemetry.pitchDegrees != nil, telemetry.rollDegrees != nil,
               let droneState = drone.estimate(at: now), let nose = navigator.noseHeadingDegrees(now: now) {
                controller.observeTakeOff(telemetry, drone: droneState, noseHeadingDegrees: nose, now: now)
                wind.observe(windEstimate: controller.fastWindEstimate, droneVelocity: droneState.velocity, now: now)
            } else {
                controller.resetWindEstimate()
            }
        case .climbing, .following, .holding:
            // Only while the follower flies a vehicle model that estimates the wind (a hover leaves it stale).
            if decision.command.motion?.context != nil, let droneState = drone.estimate(at: now) {
                wind.observe(windEstimate: controller.fastWindEstimate, droneVelocity: droneState.velocity,
                             commandedVelocity: decision.follow?.commandedVelocity ?? .zero, now: now)
            }
        case .landing:
            break
        }
        return decision
    }


    /// Applies at most one transition and returns it.
    private mutating func advance(now: MonotonicTime) -> FlightTransition? {
        let fresh = telemetryFresh(now)
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
            // Low battery: readings under the threshold across lowBatteryConfirmSeconds (a lone one never).
            if let telemetry, let since = lowBatterySince,
               telemetry.receivedAt.seconds(since: since) >= failsafeParameters.lowBatteryConfirmSeconds {
                return move(to: .landing(.lowBattery), .land(.lowBattery), now)
            }
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
            // A landed drone seen while holding is landed at once: the take-off request is a level (docs/flight-safety-faults.md §1).
            if case .holding = state, hasBeenAirborne, let telemetry, fresh, telemetry.flightState == .landed {
                return move(to: .landed, .landedUnexpectedly, now)
            }
            if state == .takingOff {
                if let telemetry, fresh, telemetry.flightState.isAirborne, !liftOffConfirmed {
                    liftOffConfirmed = true
                    climbStartedAt = now
                }
                // REF take-off only while the prerequisites hold, but for those the take-off itself ends or the
                // wind check and the operator's commands handle.
                let lost = missingPrerequisites(now: now, strictHeading: false)
                    .subtracting([.droneReady, .battery, .calmWind, .operatorResume, .operatorStart])
                if !lost.isEmpty {
                    return move(to: .landing(.takeOffAborted(lost)), .land(.takeOffAborted(lost)), now)
                }
                if !liftOffConfirmed, let started = takeOffStartedAt,
                   now.seconds(since: started) >= failsafeParameters.takeOffTimeoutSeconds {
                    // An autopilot that never left the ground (refused to arm) waits in preflight and tries again;
                    // the AR.Drone, whose motors spun, is given up for this run (docs/flight-safety-faults.md §5).
                    if controller.vehicle.isAutopilot, let telemetry, fresh, telemetry.flightState == .landed {
                        return move(to: .preflight(waitingFor: missingPrerequisites(now: now)), .takeOffNotConfirmed, now)
                    }
                    return move(to: .landed, .takeOffNotConfirmed, now)
                }
            }
            if let reason = holdReason(now: now) ?? climbHoldReason(now: now) {
                if case .holding(let current) = state {
                    // The operator's hold lasts until RESUME; an automatic reason taking over starts its own clock.
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
                    // Held during take-off before ever up: back to taking off. Once airborne, never.
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
        if next == .climbing, state != .takingOff || climbStartedAt == nil { climbStartedAt = now }
        state = next
        return transition
    }
}
