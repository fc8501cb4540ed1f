/// One tick of the follower's output plus what it was aiming at (for the flight log).
public struct FollowOutput: Sendable, Hashable {
    /// The motion the core asks for; for the AR.Drone it carries the `MotionContext` its link's tilt loop needs.
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
    /// The slow wind observer's estimate, plane m/s (the air mass's velocity in the tilt model).
    public var windEstimate: PlaneVector = .zero
    /// The geofence pulled the aim point in: the state machine turns this into `holding(.geofence)`.
    public var aimLimitedByGeofence: Bool = false
}

/// Turns estimates of the person and the drone into a `MotionCommand` every tick: a velocity towards an
/// aim point on the standoff circle within `StoppingModel`'s approach limits, a climb rate and a yaw
/// rate; for the AR.Drone also the wind observers and the `MotionContext` its link's `TiltLoop` needs.
/// The law: docs/dynamics-and-follow.md §2.8; separation docs/stopping-model.md §3; wind §5.
public struct FollowController: Sendable {
    /// As built, but for the mode, angle and orbit direction (`changeFollowMode`).
    public private(set) var parameters: FollowParameters
    public let tuning: ControllerTuning
    public let minSeparationMeters: Double
    public let geofenceMeters: Double
    /// Who closes the velocity loop: FollowMe's tilt loop (AR.Drone) or an autopilot.
    public private(set) var vehicle: VehicleDynamics

    // Controller state, internal for the +Commands/+Separation/+Standoff extensions.
    let sinMaxTilt: Double
    let maxTiltRadians: Double
    var smoothedPosition: PlaneVector?
    var smoothedVelocity: PlaneVector = .zero
    var standoffDirection: PlaneVector?
    /// Changed to the leash and still swinging behind at the orbit speed (`turnedStandoffDirection`).
    var swingingIntoLeash = false
    /// The tilt the AR.Drone link last commanded: the latency prediction's and wind observers' input.
    var commandedTilt: CommandedTilt = .level
    /// The last motion commanded (the latency prediction's input for an autopilot).
    var lastMotion: MotionCommand = .stop
    var lastTickAt: MonotonicTime?
    /// `YawMode.travel`: the nose is along the flight (with hysteresis).
    var facingTravel = false
    /// The velocity loop's (slow) and the wind failsafe's (fast, not clamped at the tilt) `WindObserver`.
    var windObserver = WindObserver()
    var fastWindObserver = WindObserver()
    /// Braking, reaction and the person's stopping ability.
    public private(set) var stopping: StoppingModel

    /// Follows in another mode from the next tick; only the standoff direction's goal changes.
    public mutating func changeFollowMode(_ change: FollowModeChange) {
        if change.mode == .leash, parameters.mode != .leash { swingingIntoLeash = true }
        parameters = change.applied(to: parameters)
    }

    /// An autopilot's limits read from the vehicle replace the defaults; ignored for the tilt loop.
    public mutating func useAutopilotResponse(_ response: AutopilotResponse) {
        guard case .velocityLoop = vehicle else { return }
        vehicle = .velocityLoop(response)
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
        tuning: ControllerTuning = ControllerTuning(), vehicle: VehicleDynamics = .tiltLoop
    ) {
        self.parameters = parameters
        self.vehicle = vehicle
        self.tuning = tuning
        self.minSeparationMeters = minSeparationMeters
        self.geofenceMeters = geofenceMeters
        self.maxTiltRadians = radians(fromDegrees: parameters.maxTiltDegrees)
        self.sinMaxTilt = _sin(maxTiltRadians)
        self.stopping = StoppingModel(parameters: parameters, tuning: tuning, vehicle: vehicle)
    }

    /// The velocity loop's wind estimate, plane m/s.
    public var windEstimate: PlaneVector { windObserver.wind }

    /// The wind failsafe's estimate, plane m/s (fast, not clamped at the tilt authority).
    public var fastWindEstimate: PlaneVector { fastWindObserver.wind }

    /// Learns the wind from the attitude while the firmware holds the drone still (take-off; tilt loop only)
    /// and seeds the tilt last commanded from it. Degrees: pitch + = nose up, roll + = right down.
    public mutating func observeHover(pitchDegrees: Double, rollDegrees: Double, drone: PlaneState,
                                      noseHeadingDegrees: Double, now: MonotonicTime) {
        guard vehicle == .tiltLoop, pitchDegrees.isFinite, rollDegrees.isFinite, drone.velocity.isFinite, noseHeadingDegrees.isFinite else { return }
        let dt = tickSeconds(now: now)
        let forward = _sin(radians(fromDegrees: -pitchDegrees)), right = _sin(radians(fromDegrees: rollDegrees))
        let tilt = PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forward
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * right
        let wind = drone.velocity - tilt * tuning.tiltSpeedMetersPerSecond
        let gain = min(dt * tuning.climbWindObserverRadiansPerSecond, 1)
        let authority = tuning.tiltSpeedMetersPerSecond * sinMaxTilt
        fastWindObserver.seed(towards: wind, gain: min(dt * tuning.failsafeWindSeedRatePerSecond, 1),
                              limit: tuning.failsafeWindLimitFactor * authority)
        guard tuning.windObserverRadiansPerSecond > 0 else { return }
        windObserver.seed(towards: wind, gain: gain, limit: authority)
        let pitchFraction = min(max(radians(fromDegrees: pitchDegrees) / maxTiltRadians, -1), 1)
        let rollFraction = min(max(radians(fromDegrees: rollDegrees) / maxTiltRadians, -1), 1)
        commandedTilt = CommandedTilt(forwardSine: _sin(-pitchFraction * maxTiltRadians),
                                      rightSine: _sin(rollFraction * maxTiltRadians), pilot: nil)
    }

    /// The tilt the link commanded for the last decision; ignored unless valid and a tilt loop's.
    public mutating func noteCommandedTilt(_ tilt: CommandedTilt) {
        guard vehicle == .tiltLoop, tilt.isValid else { return }
        commandedTilt = tilt
    }

    /// Forgets the wind estimate: call on the ground.
    public mutating func resetWindEstimate() {
        windObserver = WindObserver()
        fastWindObserver = WindObserver()
    }

    public var lastCommandedTilt: CommandedTilt { commandedTilt }

    /// Forgets smoothing, geometry and the tilt last commanded after a hover (PCMD flag 0); keeps the wind.
    public mutating func reset() {
        smoothedPosition = nil
        smoothedVelocity = .zero
        standoffDirection = nil
        commandedTilt = .level
        lastMotion = .stop
        lastTickAt = nil
        facingTravel = false
        windObserver.restart()
        fastWindObserver.restart()
    }

    /// Follow the person: `target` is their estimate at `now`, `targetLastFix` their last fix as measured
    /// (the separation rules hold against both, `separationUncertaintyMeters` further off); `targetAltitudeMeters`
    /// in navdata's frame, default `parameters.altitudeMeters`; `home` the geofence centre, if known.
    public mutating func follow(
        target: PlaneState, targetLastFix: PlaneVector? = nil, separationUncertaintyMeters: Double = 0,
        motion: TargetMotion, drone: PlaneState,
        noseHeadingDegrees: Double, altitudeMeters: Double, targetAltitudeMeters: Double? = nil, home: PlaneVector?,
        now: MonotonicTime
    ) -> FollowOutput {
        let dt = tickSeconds(now: now)
        observeWind(drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt, omega: tuning.windObserverRadiansPerSecond)
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
        let stopPointLimit = approachLimit(drone: drone.position, person: stopPoint, personVelocity: .zero, margin: 0)
        velocity = HalfPlane.project(velocity, estimateLimit, stopPointLimit)
        // Moving away from where the person measurably is: an escape, which the tilt slew must not delay.
        let measuredLimit = approachLimit(drone: drone.position, person: target.position,
                                          personVelocity: target.velocity, margin: 0)
        let escaping = (measuredLimit?.limit ?? 0) < 0 || (stopPointLimit?.limit ?? 0) < 0

        // 5. Motion, and for the tilt loop its context.
        let toPerson = person - predicted.position
        var motion = MotionCommand(
            velocity: velocity,
            climbMetersPerSecond: climbRate(altitudeMeters: altitudeMeters, targetMeters: targetAltitudeMeters ?? parameters.altitudeMeters),
            yawRateDegreesPerSecond: facesTravel(speedMetersPerSecond: velocity.length)
                ? yawRate(along: velocity, noseHeadingDegrees: noseHeadingDegrees)
                : yawRate(toPerson: toPerson, relativeVelocity: reference.velocity - predicted.velocity,
                          noseHeadingDegrees: noseHeadingDegrees))
        attachContext(to: &motion, predicted: predicted, drone: drone.position, dt: dt, escaping: escaping,
                      keepOff: (target.position, stopPoint), noseHeadingDegrees: noseHeadingDegrees)

        let rel = target.position - drone.position
        return FollowOutput(
            motion: motion, aimPoint: aim, commandedVelocity: velocity,
            distanceToTargetMeters: rel.length,
            relativeBearingDegrees: Navigator.relativeBearingDegrees(
                from: drone.position, noseHeadingDegrees: noseHeadingDegrees, to: target.position),
            standoffDirectionFrozen: frozen && parameters.mode != .orbit, windEstimate: windEstimate,
            aimLimitedByGeofence: limitedByGeofence)
    }

    /// Hold a point: fly to `holdPoint` (or, without one, to zero velocity), face the person if known,
    /// and hold `holdAltitudeMeters` (default `parameters.altitudeMeters`). Used while climbing and
    /// holding; the approach limits of `follow` apply against the person, if known.
    public mutating func station(
        target: PlaneState?, targetLastFix: PlaneVector? = nil, holdPoint: PlaneVector? = nil,
        drone: PlaneState, noseHeadingDegrees: Double,
        altitudeMeters: Double, holdAltitudeMeters: Double? = nil, climbing: Bool = false, now: MonotonicTime
    ) -> ControlOutput {
        let dt = tickSeconds(now: now)
        // Climbing starts with no wind estimate: a faster observer holds the take-off point.
        observeWind(drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt,
                    omega: climbing ? max(tuning.climbWindObserverRadiansPerSecond, tuning.windObserverRadiansPerSecond)
                        : tuning.windObserverRadiansPerSecond)
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
                approachLimit(drone: drone.position, person: point, personVelocity: .zero, margin: 0))
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
