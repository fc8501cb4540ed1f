/// One tick of the follower's output plus what it was aiming at (for the flight log).
public struct FollowOutput: Sendable, Hashable {
    /// The motion the core asks for (`MotionCommand`): what an autopilot receives as is, and what the
    /// AR.Drone link's tilt loop turns into PCMD (with `motion.context`).
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
    /// The velocity loop's wind (disturbance) estimate, plane m/s: the air mass's velocity that
    /// explains the tilt needed to hold the commanded velocity.
    public var windEstimate: PlaneVector = .zero
    /// Whether the geofence pulled the aim point in (the person is further out than the drone may
    /// go): the state machine turns this into a named `holding(.geofence)`.
    public var aimLimitedByGeofence: Bool = false
}

/// Turns estimates of the person and the drone into a motion command (and, for the AR.Drone, the
/// context its link's tilt loop needs), every tick.
///
/// **Where it aims (our choice).** At the person plus `standoffMeters` along a *standoff
/// direction* u, a unit vector from the person. u starts as the person→drone direction, so
/// following begins without a sideways lunge. `FollowParameters.mode` says where u turns to
/// (`FollowMode`: the angle mode towards `angleDegrees` from the direction of travel at most at
/// `orbitSpeedMetersPerSecond`, the orbit round and round at that speed; `FollowController+Standoff.swift`);
/// the leash, the default, is this. While the person walks (`TargetMotion.moving`)
/// u swings towards "behind the person" (−their velocity), first order with
/// `standoffRotationTimeConstantSeconds` and at most `standoffRotationDegreesPerSecond`, and
/// only with room to spare (not within a metre or two of `minSeparationMeters`): the drone
/// moves round the circle, never across it, so someone walking straight at it makes it back
/// off first and drift round behind them later. While they stand, u is frozen (PX4 freezes
/// its follow orientation below 1 m/s for the same reason: GPS jitter must not make the drone
/// circle a standing person). The aim point is pulled inside 90 % of the geofence and pushed
/// out to at least `minSeparationMeters` + `separationMarginMeters` from the person.
///
/// **How it gets there.** The person's estimate steps at every fix, so it first goes through
/// a critically damped second-order reference (ω = `targetSmoothingRadiansPerSecond`, fed the
/// estimated velocity too, so a steady walk is tracked without lag). The person's velocity is
/// faded in between `feedForwardStart…Full` m/s, so a standing person's jitter is not fed
/// forward. Commanded velocity = reference velocity + motion of the aim point round the circle
/// + whatever part of the person's speed *towards the drone* the reference has not caught up
/// with (safety is not smoothed away) + a position term (linear near the aim point,
/// √(2·a·e) far from it).
///
/// **Separation.** The closing speed towards the person is capped by `StoppingModel`: the
/// drone, braking as hard as its tilt allows (less any wind pushing it towards them) after its
/// reaction time, must stop outside `minSeparationMeters` (the protected radius) even if the
/// person stops as hard as a person can; inside it the drone must back off at
/// `separationGainPerSecond` per metre. This holds against two points: the estimate (kept
/// further off by its 1σ; its velocity counts — someone walking at the drone closes the gap at
/// their speed plus the drone's) and the *stop point*, the last raw fix itself (the nearest place
/// the person can be: they may have stopped dead right when it was taken). Inside
/// `minSeparationMeters` any tilt towards either is also removed from the final PCMD,
/// bypassing the slew limiter.
///
/// **Wind.** A disturbance observer compares the drone's velocity with what the tilt model
/// predicts from the tilts commanded; what the model cannot explain (wind, or c1/c2 being off)
/// becomes a wind estimate that the tilt feed-forward cancels, so a steady wind leaves no
/// standing offset and the approach limits count on less braking when it blows towards the
/// person. It is kept across hovers and used while following, climbing and holding.
///
/// **Into motion.** The output is a `MotionCommand`: the velocity above, a climb rate holding
/// `altitudeMeters` and a yaw rate pointing the nose at the person. An autopilot
/// (`VehicleDynamics.velocityLoop`) flies it with its own velocity loop; the stopping model then
/// counts on the autopilot's acceleration limit, and the latency prediction on its response.
///
/// **Into a PCMD (AR.Drone only, `VehicleDynamics.tiltLoop`: `TiltLoop`, fed the motion and its
/// `MotionContext`).** A velocity loop inverts the AR.Drone's tilt→velocity model
/// v̇ = c1·(c2·sin(tilt) − v) (tum_ardrone, docs/dynamics-and-follow.md §1.2):
/// sin(tilt) = (v_cmd + Kv·(v_cmd − v)/c1)/c2, so a steady speed v holds asin(v/c2) as its
/// feed-forward. The tilt vector is rotated into the body frame (PCMD: negative pitch =
/// forward, positive roll = right, fractions of `maxTiltDegrees`), so the drone moves sideways
/// without turning first. Yaw points the nose at the person (proportional + the bearing's own
/// rate, fraction of `maxYawRateDegreesPerSecond`, positive = clockwise); gaz holds
/// `altitudeMeters` (fraction of `maxClimbMetersPerSecond`). Every output is clamped to
/// [−1, 1] and slew-rate limited. The drone state is predicted `commandLatencySeconds` ahead
/// with the last command, since a PCMD takes about that long to act (tum_ardrone
/// `delayControl`).
public struct FollowController: Sendable {
    /// As built, but for the mode, angle and orbit direction (`changeFollowMode`).
    public private(set) var parameters: FollowParameters
    public let tuning: ControllerTuning
    public let minSeparationMeters: Double
    public let geofenceMeters: Double
    /// Who closes the velocity loop: FollowMe's tilt loop (AR.Drone) or an autopilot.
    public private(set) var vehicle: VehicleDynamics

    // Controller state, internal (not private) only so the command and separation extensions in
    // FollowController+Commands.swift / +Separation.swift can use it; nothing else in the module does.
    let sinMaxTilt: Double
    let maxTiltRadians: Double
    var smoothedPosition: PlaneVector?
    var smoothedVelocity: PlaneVector = .zero
    var standoffDirection: PlaneVector?
    /// The operator changed to the leash and its swing behind the person is still bound by the orbit
    /// speed (`turnedStandoffDirection`).
    var swingingIntoLeash = false
    /// The tilt the AR.Drone link last commanded (`CommandedTilt`, reported back by the link after
    /// every send; seeded here from the hover attitude, level after a hover): the latency prediction's
    /// and the wind observers' input. Unused for an autopilot.
    var commandedTilt: CommandedTilt = .level
    /// The last motion commanded (the latency prediction's input for an autopilot).
    var lastMotion: MotionCommand = .stop
    var lastTickAt: MonotonicTime?
    /// `YawMode.travel`: the nose is along the flight (`facesTravel(speedMetersPerSecond:)`, with hysteresis).
    var facingTravel = false
    /// The velocity loop's wind observer (slow: GPS jitter must not shake the drone) and the wind
    /// failsafe's (fast, not limited to the tilt authority): `WindObserver`.
    var windObserver = WindObserver()
    var fastWindObserver = WindObserver()
    /// Braking, reaction and the person's stopping ability.
    public private(set) var stopping: StoppingModel

    /// Follows in another mode from the next tick (`FollowModeChange`): only the standoff direction's
    /// goal changes; the direction itself turns there round the circle at a bounded rate
    /// (`turnedStandoffDirection`), and no separation rule reads the mode.
    public mutating func changeFollowMode(_ change: FollowModeChange) {
        if change.mode == .leash, parameters.mode != .leash { swingingIntoLeash = true }
        parameters = change.applied(to: parameters)
    }

    /// An autopilot's own limits, read from the vehicle (`FollowInput.vehicleBraking`), replace the
    /// defaults the flight started with; the AR.Drone's tilt loop is left as it is.
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

    /// The wind failsafe's estimate, plane m/s: the same model at `ControllerTuning.failsafeWindObserverRadiansPerSecond`,
    /// and not clamped at the tilt authority (a value past it means the drone is being blown).
    public var fastWindEstimate: PlaneVector { fastWindObserver.wind }

    /// Learns the wind while the firmware flies the drone (take-off, PCMD flag 0): it holds the
    /// drone still, so the tilt it needs is what the wind takes, c1·(c2·sin(tilt) − v + w) ≈ 0, and
    /// the follower's first PCMD starts from that tilt instead of level (which would let the
    /// wind push the drone towards the person while the observer converges). The AR.Drone link seeds
    /// its own tilt loop from the same attitude and reports it (`noteCommandedTilt`).
    /// - Parameters: navdata attitude (pitch positive = nose up, roll positive = right down), degrees.
    public mutating func observeHover(pitchDegrees: Double, rollDegrees: Double, drone: PlaneState,
                                      noseHeadingDegrees: Double, now: MonotonicTime) {
        // An autopilot holds its own position during its take-off: no tilt model to learn from.
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
        // As the link's `TiltLoop.seed` holds it: the attitude in fractions of the maximum tilt, clamped.
        let pitchFraction = min(max(radians(fromDegrees: pitchDegrees) / maxTiltRadians, -1), 1)
        let rollFraction = min(max(radians(fromDegrees: rollDegrees) / maxTiltRadians, -1), 1)
        commandedTilt = CommandedTilt(forwardSine: _sin(-pitchFraction * maxTiltRadians),
                                      rightSine: _sin(rollFraction * maxTiltRadians), pilot: nil)
    }

    /// The tilt the link commanded for the last decision (`LinkEvent.commandSent`): the next tick's
    /// latency prediction and wind observers start from it. Ignored unless finite and a tilt loop's.
    public mutating func noteCommandedTilt(_ tilt: CommandedTilt) {
        guard vehicle == .tiltLoop, tilt.isValid else { return }
        commandedTilt = tilt
    }

    /// Forgets the wind estimate: call on the ground.
    public mutating func resetWindEstimate() {
        windObserver = WindObserver()
        fastWindObserver = WindObserver()
    }

    /// The tilt last commanded, as the link reported it (or seeded from the hover attitude).
    public var lastCommandedTilt: CommandedTilt { commandedTilt }

    /// Forgets smoothing, geometry and the tilt last commanded: call when the drone has been
    /// hovering (PCMD flag 0), so the next command ramps up from level flight. The wind
    /// estimate is kept (the wind did not change because we hovered).
    public mutating func reset() {
        smoothedPosition = nil
        smoothedVelocity = .zero
        standoffDirection = nil
        commandedTilt = .level
        lastMotion = .stop
        lastTickAt = nil
        facingTravel = false
        // The firmware flew the hover with tilts we do not know: restart the observers' velocity.
        windObserver.restart()
        fastWindObserver.restart()
    }

    /// Follow the person.
    /// - Parameters:
    ///   - target: the person's estimate at `now` (latency-compensated).
    ///   - targetLastFix: the person's last fix as measured (neither filtered nor extrapolated):
    ///     a second opinion for the separation rules, which must hold against both.
    ///   - separationUncertaintyMeters: 1σ of the estimated drone–person offset; the
    ///     separation rules keep this much further away.
    ///   - motion: whether they walk or stand.
    ///   - drone: the drone's estimate at `now`.
    ///   - noseHeadingDegrees: compass heading of the nose.
    ///   - altitudeMeters: navdata altitude.
    ///   - targetAltitudeMeters: the altitude to climb or descend to (navdata's frame); default
    ///     `parameters.altitudeMeters` (`FlightStateMachine.followAltitudeMeters()` moves it with the person).
    ///   - home: the take-off point on the plane (geofence centre), if known.
    public mutating func follow(
        target: PlaneState, targetLastFix: PlaneVector? = nil, separationUncertaintyMeters: Double = 0,
        motion: TargetMotion, drone: PlaneState,
        noseHeadingDegrees: Double, altitudeMeters: Double, targetAltitudeMeters: Double? = nil, home: PlaneVector?,
        now: MonotonicTime
    ) -> FollowOutput {
        let dt = tickSeconds(now: now)
        observeWind(drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt, omega: tuning.windObserverRadiansPerSecond)
        let predicted = predictAcrossLatency(drone, noseHeadingDegrees: noseHeadingDegrees)

        // 1. Smooth reference for the person. Their velocity is faded in with speed, so the
        //    jitter of a standing person is not fed forward but someone setting off (towards the
        //    drone, say) is, whatever `motion` says yet.
        let frozen = motion == .stationary
        let fade = min(max((target.velocity.length - tuning.feedForwardStartMetersPerSecond)
                           / (tuning.feedForwardFullMetersPerSecond - tuning.feedForwardStartMetersPerSecond), 0), 1)
        let reference = smooth(target, velocity: target.velocity * fade, dt: dt)

        // 2. Standoff direction: turned round the circle as the mode asks (FollowController+Standoff.swift).
        let person = reference.position
        let standoff = max(parameters.standoffMeters, minSeparationMeters + tuning.separationMarginMeters)
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let range = (drone.position - target.position).length
        let (direction, orbitRate) = turnedStandoffDirection(
            standoffDirection ?? initialDirection(from: person, to: predicted.position, noseHeadingDegrees: noseHeadingDegrees),
            reference: reference, travelVelocity: target.velocity, frozen: frozen, range: range, keepOut: keepOut, standoff: standoff, dt: dt)
        standoffDirection = direction

        // 3. Aim point: on the circle, inside the geofence, outside the separation radius.
        var aim = person + direction * standoff
        var limitedByGeofence = false
        if let home {
            let clipped = Self.insideFence(aim, home: home, radius: Self.geofenceAimFraction * geofenceMeters)
            limitedByGeofence = clipped != aim
            aim = clipped
        }
        // The person is somewhere between their last fix (if they stopped dead right then) and the
        // extrapolated estimate (if they kept going): the separation rules hold against both.
        let stopPoint = self.stopPoint(lastFix: targetLastFix, target: target)
        aim = pushedOut(aim, from: target.position, fallback: direction)
        aim = pushedOut(aim, from: stopPoint, fallback: direction)
        aim = pushedOut(aim, from: target.position, fallback: direction)
        if let home {
            // Separation first, then the fence: if both cannot hold the approach limits below
            // still keep the drone off the person.
            aim = Self.insideFence(aim, home: home, radius: Self.geofenceAimFraction * geofenceMeters)
        }

        // 4. Commanded velocity: feed-forward of the aim point's own motion, plus position
        //    feedback comparing aim and drone both `commandLatencySeconds` ahead.
        var aimVelocity = reference.velocity
            + PlaneVector(east: -direction.north, north: direction.east) * (orbitRate * standoff)
        if parameters.mode != .leash { aimVelocity += centripetalLead(direction: direction, orbitRate: orbitRate, standoff: standoff) }
        let error = aim + aimVelocity * tuning.commandLatencySeconds - predicted.position
        let errorLength = error.length
        var velocity = aimVelocity
        // Someone walking at the drone is not smoothed away: the part of their approach speed the
        // reference has not caught up with yet is fed forward at once.
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
        // The stopping model says the drone must already be moving away from where the person
        // measurably is (not merely from the estimate's uncertainty): that is an escape, and the
        // tilt slew limit (smoothness) must not delay it.
        let measuredLimit = approachLimit(drone: drone.position, person: target.position,
                                          personVelocity: target.velocity, margin: 0)
        let escaping = (measuredLimit?.limit ?? 0) < 0 || (stopPointLimit?.limit ?? 0) < 0

        // 5. Motion: the velocity, a climb to the altitude, the nose towards the person; then the
        //    context a vehicle closing its own velocity loop needs (the AR.Drone's link makes the PCMD).
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

    /// Hold a point: fly to `holdPoint` (or, without one, bring the velocity to zero), face the
    /// person if known, and climb or descend to `altitudeMeters`. Used while climbing after
    /// take-off (holding the take-off point, so wind cannot drift the drone towards the person)
    /// and while holding. The separation rules of `follow` apply against the person, if known.
    public mutating func station(
        target: PlaneState?, targetLastFix: PlaneVector? = nil, holdPoint: PlaneVector? = nil,
        drone: PlaneState, noseHeadingDegrees: Double,
        altitudeMeters: Double, holdAltitudeMeters: Double? = nil, climbing: Bool = false, now: MonotonicTime
    ) -> ControlOutput {
        let dt = tickSeconds(now: now)
        // The climb starts with no wind estimate (it is reset on the ground) and lasts seconds: the
        // observer runs at `ControllerTuning.climbWindObserverRadiansPerSecond` there, so the take-off point is held.
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
