/// One tick of the follower's output plus what it was aiming at (for the flight log).
public struct FollowOutput: Sendable, Hashable {
    /// The motion the core asks for, with its `MotionContext` when the vehicle model needs one.
    public var motion: MotionCommand
    /// Where the drone is trying to be, plane metres.
    public var aimPoint: PlaneVector
    /// The horizontal velocity the controller asked for, plane m/s (after every limit).
    public var commandedVelocity: PlaneVector
    /// Estimated horizontal distance drone → person, metres.
    public var distanceToTargetMeters: Double
    /// Estimated bearing of the person relative to the nose, degrees [−180, 180), + = right.
    public var relativeBearingDegrees: Double
    /// Whether the standoff direction is frozen (person standing).
    public var standoffDirectionFrozen: Bool
    /// The vehicle model's wind estimate, plane m/s (`VehicleModel.windEstimate`).
    public var windEstimate: PlaneVector = .zero
    /// The geofence pulled the aim point in: the state machine turns this into `holding(.geofence)`.
    public var aimLimitedByGeofence: Bool = false
}

/// Turns estimates of the person and the drone into a `MotionCommand` every tick: a velocity towards an
/// aim point on the standoff circle within `StoppingModel`'s approach limits, a climb rate and a yaw
/// rate, stepping the family's `VehicleModel` (prediction, braking, wind) on the way.
/// The law: docs/dynamics-and-follow.md §2.8; separation docs/stopping-model.md §3; wind §5.
public struct FollowController: Sendable {
    /// As built, but for the mode, angle and orbit direction (`changeFollowMode`).
    public private(set) var parameters: FollowParameters
    public let tuning: ControllerTuning
    public let minSeparationMeters: Double
    public let geofenceMeters: Double
    /// The family's model of the vehicle (`VehicleModel`).
    public internal(set) var vehicle: any VehicleModel

    // Controller state, internal for the +Commands/+Separation/+Standoff extensions.
    var smoothedPosition: PlaneVector?
    var smoothedVelocity: PlaneVector = .zero
    var standoffDirection: PlaneVector?
    /// Changed to the leash and still swinging behind at the orbit speed (`turnedStandoffDirection`).
    var swingingIntoLeash = false
    /// The last motion commanded (the vehicle model's latency prediction may use it).
    var lastMotion: MotionCommand = .stop
    var lastTickAt: MonotonicTime?
    /// `YawMode.travel`: the nose is along the flight (with hysteresis).
    var facingTravel = false
    /// Braking, reaction and the person's stopping ability.
    public private(set) var stopping: StoppingModel

    /// Follows in another mode from the next tick; only the standoff direction's goal changes.
    public mutating func changeFollowMode(_ change: FollowModeChange) {
        if change.mode == .leash, parameters.mode != .leash { swingingIntoLeash = true }
        parameters = change.applied(to: parameters)
    }

    /// The vehicle's own shaping limits as it reports them (`VehicleModel.useReportedLimits`).
    public mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?) {
        vehicle.useReportedLimits(accelerationMetersPerSecondSquared: accelerationMetersPerSecondSquared,
                                  jerkMetersPerSecondCubed: jerkMetersPerSecondCubed)
        stopping = StoppingModel(parameters: parameters, tuning: tuning, vehicle: vehicle)
    }

    /// Tick period assumed for the first tick after a reset, seconds (the shell runs at ~30 Hz).
    static let nominalTickSeconds = 1.0 / 30
    /// Longest tick gap integrated at once, seconds.
    static let maxTickSeconds = 0.2
    /// The aim point stays inside this fraction of the geofence.
    static let geofenceAimFraction = 0.9

    public init(
        parameters: FollowParameters, minSeparationMeters: Double, geofenceMeters: Double,
        tuning: ControllerTuning = ControllerTuning(), vehicle: VehicleModelBuilder
    ) {
        self.init(parameters: parameters, minSeparationMeters: minSeparationMeters, geofenceMeters: geofenceMeters,
                  tuning: tuning, model: vehicle.build(parameters))
    }

    /// A controller for `model`, which must be built for `parameters` (`VehicleModelBuilder.build`).
    public init(
        parameters: FollowParameters, minSeparationMeters: Double, geofenceMeters: Double,
        tuning: ControllerTuning = ControllerTuning(), model vehicle: any VehicleModel
    ) {
        self.parameters = parameters
        self.vehicle = vehicle
        self.tuning = tuning
        self.minSeparationMeters = minSeparationMeters
        self.geofenceMeters = geofenceMeters
        self.stopping = StoppingModel(parameters: parameters, tuning: tuning, vehicle: vehicle)
    }

    /// The velocity loop's wind estimate, plane m/s.
    public var windEstimate: PlaneVector { vehicle.windEstimate }

    /// The wind failsafe's estimate, plane m/s.
    public var fastWindEstimate: PlaneVector { vehicle.failsafeWindEstimate }

    /// While the firmware flies the take-off: the vehicle model learns from its attitude (`VehicleModel.observeTakeOff`).
    public mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double,
                                        now: MonotonicTime) {
        guard vehicle.closesVelocityLoop, telemetry.pitchDegrees != nil, telemetry.rollDegrees != nil,
              drone.velocity.isFinite, noseHeadingDegrees.isFinite else { return }
        let dt = tickSeconds(now: now)
        vehicle.observeTakeOff(telemetry, drone: drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt)
    }

    /// Forgets the wind estimate: call on the ground.
    public mutating func resetWindEstimate() {
        vehicle.resetWind()
    }

    /// Forgets smoothing, geometry and the vehicle's velocity history after a hover; keeps the wind.
    public mutating func reset() {
        smoothedPosition = nil
        smoothedVelocity = .zero
        standoffDirection = nil
        lastMotion = .stop
        lastTickAt = nil
        facingTravel = false
        vehicle.restart()
    }

    /// Follow the person: `target` is their estimate at `now`, `targetLastFix` their last fix as measured
    /// (the separation rules hold against both, `separationUncertaintyMeters` further off); `targetAltitudeMeters`
    /// in the telemetry's height frame, default `parameters.altitudeMeters`; `home` the geofence centre, if known.
    public mutating func follow(
        target: PlaneState, targetLastFix: PlaneVector? = nil, targetLastFixVelocity: PlaneVector? = nil,
        separationUncertaintyMeters: Double = 0,
        motion: TargetMotion, drone: PlaneState,
        noseHeadingDegrees: Double, altitudeMeters: Double, targetAltitudeMeters: Double? = nil, home: PlaneVector?,
        now: MonotonicTime
    ) -> FollowOutput {
        let dt = tickSeconds(now: now)
        vehicle.observe(drone: drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt, climbing: false)
        let predicted = predictAcrossLatency(drone, noseHeadingDegrees: noseHeadingDegrees)

        // 1. Smoothed reference; the person's velocity faded in with speed.
        let frozen = motion == .stationary
        let fade = min(max((target.velocity.length - tuning.feedForwardStartMetersPerSecond)
                           / (tuning.feedForwardFullMetersPerSecond - tuning.feedForwardStartMetersPerSecond), 0), 1)
        let reference = smooth(target, velocity: target.velocity * fade, dt: dt)

        // 2. Standoff direction (FollowController+Standoff.swift).
        let person = reference.position
        let standoff = max(parameters.standoffMeters, minSeparationMeters + tuning.separationMarginMeters)
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let range = (drone.position - target.position).length
        let (direction, orbitRate) = turnedStandoffDirection(
            standoffDirection ?? initialDirection(from: person, to: predicted.position, noseHeadingDegrees: noseHeadingDegrees),
            reference: reference, travelVelocity: target.velocity, frozen: frozen, range: range, keepOut: keepOut, standoff: standoff, dt: dt)
        standoffDirection = direction

        // 3. Aim point: on the circle, inside the geofence, outside the keep-out of estimate and last fix.
        var aim = person + direction * standoff
        var limitedByGeofence = false
        if let home {
            let clipped = Self.insideFence(aim, home: home, radius: Self.geofenceAimFraction * geofenceMeters)
            limitedByGeofence = clipped != aim
            aim = clipped
        }
        let stopPoint = self.stopPoint(lastFix: targetLastFix, target: target)
        aim = pushedOut(aim, from: target.position, fallback: direction)
        aim = pushedOut(aim, from: stopPoint, fallback: direction)
        aim = pushedOut(aim, from: target.position, fallback: direction)
        if let home {
            // Separation first, then the fence; the approach limits still hold if both cannot.
            aim = Self.insideFence(aim, home: home, radius: Self.geofenceAimFraction * geofenceMeters)
        }

        // 4. Commanded velocity: the aim point's motion, plus position feedback `commandLatencySeconds` ahead.
        var aimVelocity = reference.velocity
            + PlaneVector(east: -direction.north, north: direction.east) * (orbitRate * standoff)
        if parameters.mode != .leash { aimVelocity += centripetalLead(direction: direction, orbitRate: orbitRate, standoff: standoff) }
        let error = aim + aimVelocity * tuning.commandLatencySeconds - predicted.position
        let errorLength = error.length
        var velocity = aimVelocity
        // The part of their approach speed the reference has not caught up with yet, at once.
        if range > 1e-6 {
            let outward = (drone.position - target.position) / range
            let lag = (target.velocity * fade).dot(outward) - reference.velocity.dot(outward)
            if lag > 0 { velocity += outward * lag }
        }
        if errorLength > 1e-9 {
            let speed = min(tuning.positionGainPerSecond * errorLength,
                            (2 * tuning.brakingAccelerationMetersPerSecondSquared * errorLength).squareRoot())
            velocity += error * (speed / errorLength)
        }
        velocity = velocity.clamped(toLength: parameters.maxHorizontalSpeedMetersPerSecond)
        let margin = separationUncertaintyMeters.isFinite ? max(separationUncertaintyMeters, 0) : 0
        let estimateLimit = approachLimit(drone: drone.position, person: target.position,
                                          personVelocity: target.velocity, margin: margin)
        let stopPointMotion = stopPointVelocity(lastFix: targetLastFix, reported: targetLastFixVelocity)
        let stopPointLimit = approachLimit(drone: drone.position, person: stopPoint, personVelocity: stopPointMotion,
                                           margin: 0, awayOnly: true)
        velocity = HalfPlane.project(velocity, estimateLimit, stopPointLimit)
        // Moving away from where the person measurably is: an escape, which the vehicle's slew limits must not delay.
        let measuredLimit = approachLimit(drone: drone.position, person: target.position,
                                          personVelocity: target.velocity, margin: 0)
        let escaping = (measuredLimit?.limit ?? 0) < 0 || (stopPointLimit?.limit ?? 0) < 0

        // 5. Motion, and its context if the vehicle model needs it.
        let toPerson = person - predicted.position
        var motion = MotionCommand(
            velocity: velocity,
            climbMetersPerSecond: climbRate(altitudeMeters: altitudeMeters, targetMeters: targetAltitudeMeters ?? parameters.altitudeMeters),
            yawRateDegreesPerSecond: facesTravel(speedMetersPerSecond: velocity.length)
                ? yawRate(along: velocity, noseHeadingDegrees: noseHeadingDegrees)
                : yawRate(toPerson: toPerson, relativeVelocity: reference.velocity - predicted.velocity,
                          noseHeadingDegrees: noseHeadingDegrees))
        let stopFeedforward = brakingFeedforward(
            drone: drone.position, droneVelocity: predicted.velocity, velocity: velocity, person: stopPoint,
            personVelocity: stopPointMotion, margin: 0, awayOnly: true)
        let estimateFeedforward = brakingFeedforward(
            drone: drone.position, droneVelocity: predicted.velocity, velocity: velocity, person: target.position,
            personVelocity: target.velocity, margin: margin)
        // The harder of the two along their common direction (they point nearly the same way).
        let feedforward = stopFeedforward.length >= estimateFeedforward.length ? stopFeedforward : estimateFeedforward
        // A vehicle that closes its own velocity loop follows the set-point a lag behind: while it brakes (the
        // set-point below its velocity along the cap's line), lead the falling cap by that lag.
        if !vehicle.closesVelocityLoop, feedforward.length > 0 {
            let along = feedforward / -feedforward.length
            if predicted.velocity.dot(along) - motion.velocity.dot(along) > Self.brakingLeadThresholdMetersPerSecond {
                motion.velocity += feedforward * vehicle.velocityLagSeconds
            }
        }
        attachContext(to: &motion, predicted: predicted, drone: drone.position, dt: dt, escaping: escaping,
                      keepOff: (target.position, stopPoint), noseHeadingDegrees: noseHeadingDegrees,
                      brakingFeedforward: feedforward)

        let rel = target.position - drone.position
        return FollowOutput(
            motion: motion, aimPoint: aim, commandedVelocity: velocity,
            distanceToTargetMeters: rel.length,
            relativeBearingDegrees: Navigator.relativeBearingDegrees(
                from: drone.position, noseHeadingDegrees: noseHeadingDegrees, to: target.position),
            standoffDirectionFrozen: frozen && parameters.mode != .orbit, windEstimate: windEstimate,
            aimLimitedByGeofence: limitedByGeofence)
    }

    /// How far a set-point must fall below the vehicle's velocity before it counts as braking, m/s.
    static let brakingLeadThresholdMetersPerSecond = 0.2

    /// Hold a point: fly to `holdPoint` (or, without one, to zero velocity), face the person if known,
    /// and hold `holdAltitudeMeters` (default `parameters.altitudeMeters`). Used while climbing and
    /// holding; the approach limits of `follow` apply against the person, if known.
    public mutating func station(
        target: PlaneState?, targetLastFix: PlaneVector? = nil, targetLastFixVelocity: PlaneVector? = nil,
        holdPoint: PlaneVector? = nil,
        drone: PlaneState, noseHeadingDegrees: Double,
        altitudeMeters: Double, holdAltitudeMeters: Double? = nil, climbing: Bool = false, now: MonotonicTime
    ) -> ControlOutput {
        let dt = tickSeconds(now: now)
        vehicle.observe(drone: drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt, climbing: climbing)
        let predicted = predictAcrossLatency(drone, noseHeadingDegrees: noseHeadingDegrees)
        var velocity = PlaneVector.zero
        if let holdPoint {
            let error = holdPoint - predicted.position
            let errorLength = error.length
            if errorLength > 1e-9 {
                let speed = min(tuning.positionGainPerSecond * errorLength,
                                (2 * tuning.brakingAccelerationMetersPerSecondSquared * errorLength).squareRoot())
                velocity = (error * (speed / errorLength)).clamped(toLength: parameters.maxHorizontalSpeedMetersPerSecond)
            }
        }
        var stopPoint: PlaneVector?
        if let target {
            let point = self.stopPoint(lastFix: targetLastFix, target: target)
            stopPoint = point
            velocity = HalfPlane.project(
                velocity,
                approachLimit(drone: drone.position, person: target.position, personVelocity: target.velocity, margin: 0),
                approachLimit(drone: drone.position, person: point,
                              personVelocity: stopPointVelocity(lastFix: targetLastFix, reported: targetLastFixVelocity),
                              margin: 0, awayOnly: true))
        }
        var yaw = 0.0
        if let target {
            yaw = yawRate(toPerson: target.position - predicted.position, relativeVelocity: .zero,
                          noseHeadingDegrees: noseHeadingDegrees)
        }
        var motion = MotionCommand(
            velocity: velocity,
            climbMetersPerSecond: climbRate(altitudeMeters: altitudeMeters,
                                            targetMeters: holdAltitudeMeters ?? parameters.altitudeMeters),
            yawRateDegreesPerSecond: yaw)
        let keepOff = target.flatMap { target in stopPoint.map { (person: target.position, stopPoint: $0) } }
        attachContext(to: &motion, predicted: predicted, drone: drone.position, dt: dt, escaping: false,
                      keepOff: keepOff, noseHeadingDegrees: noseHeadingDegrees)
        return ControlOutput(motion: motion)
    }
}
