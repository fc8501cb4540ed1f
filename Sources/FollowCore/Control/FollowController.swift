import Geometry
import Observations

/// One tick of the follower's output plus what it was aiming at (for the flight log).
public struct FollowOutput: Sendable, Hashable {
    /// The PCMD to send.
    public var pilot: PilotCommand
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

/// Turns estimates of the person and the drone into a PCMD, every tick.
///
/// **Where it aims (our choice).** At the person plus `standoffMeters` along a *standoff
/// direction* u, a unit vector from the person. u starts as the person→drone direction, so
/// following begins without a sideways lunge. While the person walks (`TargetMotion.moving`)
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
/// their speed plus the drone's) and the *stop point* of the last raw fix (the nearest place
/// the person can be if they began stopping right when that fix was taken). Inside
/// `minSeparationMeters` any tilt towards either is also removed from the final PCMD,
/// bypassing the slew limiter.
///
/// **Wind.** A disturbance observer compares the drone's velocity with what the tilt model
/// predicts from the tilts commanded; what the model cannot explain (wind, or c1/c2 being off)
/// becomes a wind estimate that the tilt feed-forward cancels, so a steady wind leaves no
/// standing offset and the approach limits count on less braking when it blows towards the
/// person. It is kept across hovers and used while following, climbing and holding.
///
/// **Into a PCMD.** A velocity loop inverts the AR.Drone's tilt→velocity model
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
    public let parameters: FollowParameters
    public let tuning: ControllerTuning
    public let minSeparationMeters: Double
    public let geofenceMeters: Double

    private let maxTiltRadians: Double
    private let sinMaxTilt: Double
    private var smoothedPosition: PlaneVector?
    private var smoothedVelocity: PlaneVector = .zero
    private var standoffDirection: PlaneVector?
    private var lastCommand: PilotCommand = .zero
    private var lastTickAt: MonotonicTime?
    /// The wind observer: its estimate (m/s, the air mass's velocity in the tilt model) and its
    /// model of the drone's velocity (nil until the first tick after a hover).
    private var windEstimateENU: PlaneVector = .zero
    private var observedVelocity: PlaneVector?
    /// Braking, reaction and the person's stopping ability.
    public let stopping: StoppingModel

    /// Tick period assumed for the first tick after a reset, seconds (the shell runs at ~30 Hz).
    static let nominalTickSeconds = 1.0 / 30
    /// Longest tick gap integrated at once, seconds.
    static let maxTickSeconds = 0.2
    /// Wind observer bandwidth during the climb, rad/s (our choice: converges in ≈ 3 s, the length
    /// of a climb to 3 m; GPS jitter matters less than drift next to the person there).
    static let climbWindObserverRadiansPerSecond = 1.5
    /// The aim point stays inside this fraction of the geofence.
    static let geofenceAimFraction = 0.9

    public init(
        parameters: FollowParameters, minSeparationMeters: Double, geofenceMeters: Double,
        tuning: ControllerTuning = ControllerTuning()
    ) {
        self.parameters = parameters
        self.tuning = tuning
        self.minSeparationMeters = minSeparationMeters
        self.geofenceMeters = geofenceMeters
        self.maxTiltRadians = radians(fromDegrees: parameters.maxTiltDegrees)
        self.sinMaxTilt = _sin(radians(fromDegrees: parameters.maxTiltDegrees))
        self.stopping = StoppingModel(parameters: parameters, tuning: tuning)
    }

    /// The velocity loop's wind estimate, plane m/s.
    public var windEstimate: PlaneVector { windEstimateENU }

    /// Learns the wind while the firmware flies the drone (take-off, PCMD flag 0): it holds the
    /// drone still, so the tilt it needs is what the wind takes, c1·(c2·sin(tilt) − v + w) ≈ 0, and
    /// the follower's first PCMD starts from that tilt instead of level (which would let the
    /// wind push the drone towards the person while the observer converges).
    /// - Parameters: navdata attitude (pitch positive = nose up, roll positive = right down), degrees.
    public mutating func observeHover(pitchDegrees: Double, rollDegrees: Double, drone: PlaneState,
                                      noseHeadingDegrees: Double, now: MonotonicTime) {
        guard pitchDegrees.isFinite, rollDegrees.isFinite, drone.velocity.isFinite,
              tuning.windObserverRadiansPerSecond > 0 else { return }
        let dt = tickSeconds(now: now)
        let forward = _sin(radians(fromDegrees: -pitchDegrees)), right = _sin(radians(fromDegrees: rollDegrees))
        let tilt = PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forward
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * right
        let wind = drone.velocity - tilt * tuning.tiltSpeedMetersPerSecond
        let gain = min(dt * Self.climbWindObserverRadiansPerSecond, 1)
        windEstimateENU = (windEstimateENU + (wind - windEstimateENU) * gain)
            .clamped(toLength: tuning.tiltSpeedMetersPerSecond * sinMaxTilt)
        lastCommand = PilotCommand(roll: Self.clampUnit(radians(fromDegrees: rollDegrees) / maxTiltRadians),
                                   pitch: Self.clampUnit(radians(fromDegrees: pitchDegrees) / maxTiltRadians),
                                   gaz: 0, yaw: 0)
        observedVelocity = nil
    }

    /// Forgets the wind estimate: call on the ground.
    public mutating func resetWindEstimate() {
        windEstimateENU = .zero
        observedVelocity = nil
    }

    /// The last command produced (the slew limiter's memory).
    public var previousCommand: PilotCommand { lastCommand }

    /// Forgets smoothing, geometry and the previous command: call when the drone has been
    /// hovering (PCMD flag 0), so the next command ramps up from level flight. The wind
    /// estimate is kept (the wind did not change because we hovered).
    public mutating func reset() {
        smoothedPosition = nil
        smoothedVelocity = .zero
        standoffDirection = nil
        lastCommand = .zero
        lastTickAt = nil
        // The firmware flew the hover with tilts we do not know: restart the observer's velocity.
        observedVelocity = nil
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
    ///   - home: the take-off point on the plane (geofence centre), if known.
    public mutating func follow(
        target: PlaneState, targetLastFix: PlaneVector? = nil, separationUncertaintyMeters: Double = 0,
        motion: TargetMotion, drone: PlaneState,
        noseHeadingDegrees: Double, altitudeMeters: Double, home: PlaneVector?,
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

        // 2. Standoff direction.
        let referenceSpeed = reference.velocity.length
        let person = reference.position
        let standoff = max(parameters.standoffMeters, minSeparationMeters + tuning.separationMarginMeters)
        var direction = standoffDirection ?? initialDirection(from: person, to: predicted.position,
                                                             noseHeadingDegrees: noseHeadingDegrees)
        var orbitRate = 0.0 // rad/s, counter-clockwise positive
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let range = (drone.position - target.position).length
        if !frozen, referenceSpeed > 1e-3 {
            let behind = reference.velocity * (-1 / referenceSpeed)
            let angle = _atan2(direction.east * behind.north - direction.north * behind.east, direction.dot(behind))
            // First order towards "behind" (small direction noise → small motion), rate-capped,
            // and only with room to spare: close to the person, backing off comes first.
            let comfort = min(max((range - keepOut) / max(standoff - keepOut, 0.1), 0), 1)
            let maxStep = radians(fromDegrees: tuning.standoffRotationDegreesPerSecond) * dt * comfort
            let step = min(max(angle * min(dt / tuning.standoffRotationTimeConstantSeconds, 1), -maxStep), maxStep)
            direction = Self.rotated(direction, byRadians: step)
            orbitRate = dt > 0 ? step / dt : 0
        }
        standoffDirection = direction

        // 3. Aim point: on the circle, inside the geofence, outside the separation radius.
        var aim = person + direction * standoff
        var limitedByGeofence = false
        if let home {
            let clipped = Self.insideFence(aim, home: home, radius: Self.geofenceAimFraction * geofenceMeters)
            limitedByGeofence = clipped != aim
            aim = clipped
        }
        // The person is somewhere between the stop point of their last fix (if they began
        // stopping right then) and the extrapolated estimate (if they kept going): the
        // separation rules hold against both.
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
        let aimVelocity = reference.velocity
            + PlaneVector(east: -direction.north, north: direction.east) * (orbitRate * standoff)
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

        // 5. Tilt, yaw, gaz.
        var command = PilotCommand(roll: 0, pitch: 0, gaz: 0, yaw: 0)
        setTilt(&command, velocity: velocity, drone: predicted, noseHeadingDegrees: noseHeadingDegrees)
        let toPerson = person - predicted.position
        command.yaw = yawCommand(toPerson: toPerson, relativeVelocity: reference.velocity - predicted.velocity,
                                 noseHeadingDegrees: noseHeadingDegrees)
        command.gaz = gazCommand(altitudeMeters: altitudeMeters, targetMeters: parameters.altitudeMeters)
        command = slewLimited(command, dt: dt, tilt: !escaping)
        command = withoutTiltTowards(target.position, stopPoint, from: drone.position, command,
                                     noseHeadingDegrees: noseHeadingDegrees)
        lastCommand = command

        let rel = target.position - drone.position
        return FollowOutput(
            pilot: command, aimPoint: aim, commandedVelocity: velocity,
            distanceToTargetMeters: rel.length,
            relativeBearingDegrees: Navigator.relativeBearingDegrees(
                from: drone.position, noseHeadingDegrees: noseHeadingDegrees, to: target.position),
            standoffDirectionFrozen: frozen, windEstimate: windEstimate,
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
    ) -> PilotCommand {
        let dt = tickSeconds(now: now)
        // The climb starts with no wind estimate (it is reset on the ground) and lasts seconds: the
        // observer runs at `climbWindObserverRadiansPerSecond` there, so the take-off point is held.
        observeWind(drone, noseHeadingDegrees: noseHeadingDegrees, dt: dt,
                    omega: climbing ? max(Self.climbWindObserverRadiansPerSecond, tuning.windObserverRadiansPerSecond)
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
        var command = PilotCommand.zero
        setTilt(&command, velocity: velocity, drone: predicted, noseHeadingDegrees: noseHeadingDegrees)
        if let target {
            command.yaw = yawCommand(toPerson: target.position - predicted.position,
                                     relativeVelocity: .zero, noseHeadingDegrees: noseHeadingDegrees)
        }
        command.gaz = gazCommand(altitudeMeters: altitudeMeters, targetMeters: holdAltitudeMeters ?? parameters.altitudeMeters)
        command = slewLimited(command, dt: dt)
        if let target, let stopPoint {
            command = withoutTiltTowards(target.position, stopPoint, from: drone.position, command,
                                         noseHeadingDegrees: noseHeadingDegrees)
        }
        lastCommand = command
        return command
    }

    // MARK: Pieces

    private mutating func tickSeconds(now: MonotonicTime) -> Double {
        defer { lastTickAt = now }
        guard let last = lastTickAt else { return Self.nominalTickSeconds }
        return min(max(now.seconds(since: last), 0), Self.maxTickSeconds)
    }

    /// Second-order reference ẍ = ω²(p − x) + 2ω(v − ẋ): first carried to `now` along its
    /// velocity, then pulled towards the estimate for `now` (so a steady walk has no offset).
    private mutating func smooth(_ target: PlaneState, velocity: PlaneVector, dt: Double) -> PlaneState {
        guard var position = smoothedPosition else {
            smoothedPosition = target.position
            smoothedVelocity = velocity
            return PlaneState(position: target.position, velocity: velocity)
        }
        position += smoothedVelocity * dt
        let w = tuning.targetSmoothingRadiansPerSecond
        let acceleration = (target.position - position) * (w * w) + (velocity - smoothedVelocity) * (2 * w)
        smoothedVelocity += acceleration * dt
        smoothedPosition = position
        return PlaneState(position: position, velocity: smoothedVelocity)
    }

    private func initialDirection(from person: PlaneVector, to drone: PlaneVector, noseHeadingDegrees: Double) -> PlaneVector {
        let rel = drone - person
        let length = rel.length
        // Too close to tell: the person is presumably ahead of the nose, so "behind the nose".
        return length > 0.5 ? rel / length : -PlaneVector.unit(bearingDegrees: noseHeadingDegrees)
    }

    /// Counter-clockwise rotation (east = x, north = y).
    private static func rotated(_ v: PlaneVector, byRadians angle: Double) -> PlaneVector {
        let c = _cos(angle), s = _sin(angle)
        return PlaneVector(east: v.east * c - v.north * s, north: v.east * s + v.north * c)
    }

    /// World-frame sin(tilt) vector a PCMD asks for.
    private func worldTilt(of command: PilotCommand, noseHeadingDegrees: Double) -> PlaneVector {
        let forward = _sin(-command.pitch * maxTiltRadians)
        let right = _sin(command.roll * maxTiltRadians)
        return PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forward
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * right
    }

    private func predictAcrossLatency(_ drone: PlaneState, noseHeadingDegrees: Double) -> PlaneState {
        let latency = tuning.commandLatencySeconds
        guard latency > 0 else { return drone }
        let tilt = worldTilt(of: lastCommand, noseHeadingDegrees: noseHeadingDegrees)
        let acceleration = (tilt * tuning.tiltSpeedMetersPerSecond - drone.velocity + windEstimate) * tuning.dragRatePerSecond
        return PlaneState(
            position: drone.position + drone.velocity * latency + acceleration * (0.5 * latency * latency),
            velocity: drone.velocity + acceleration * latency)
    }

    /// Moves `aim` radially away from `person` to at least minSeparation + margin.
    private func pushedOut(_ aim: PlaneVector, from person: PlaneVector, fallback: PlaneVector) -> PlaneVector {
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let offset = aim - person
        let distance = offset.length
        guard distance < keepOut else { return aim }
        let away = distance > 1e-6 ? offset / distance : fallback
        return person + away * keepOut
    }

    /// `point` clipped into the circle of `radius` round `home`.
    static func insideFence(_ point: PlaneVector, home: PlaneVector, radius: Double) -> PlaneVector {
        let offset = point - home
        let length = offset.length
        return length > radius ? home + offset * (radius / length) : point
    }

    /// The nearest place the person can be if they began stopping as hard as a person can when
    /// their last fix was taken: the fix plus their stopping distance along their velocity.
    private func stopPoint(lastFix: PlaneVector?, target: PlaneState) -> PlaneVector {
        guard let lastFix else { return target.position }
        let speed = target.velocity.length
        guard speed > 1e-6 else { return lastFix }
        // v·|v|/(2a): the stopping distance along the direction of travel.
        return lastFix + target.velocity * (speed / (2 * stopping.personDecelerationMetersPerSecondSquared))
    }

    /// The cap on the velocity component towards a person point, as a half-plane v·n ≤ limit
    /// (nil when the drone is on top of the point and no direction exists): the closing speed
    /// `StoppingModel` allows with room = distance − protected radius − margin, the point moving
    /// at `personVelocity`, braking reduced by any wind towards it.
    private func approachLimit(drone: PlaneVector, person: PlaneVector, personVelocity: PlaneVector,
                               margin: Double) -> HalfPlane? {
        let rel = person - drone
        let distance = rel.length
        guard distance > 1e-6 else { return nil }
        let towards = rel / distance
        let room = distance - minSeparationMeters - margin
        let braking = stopping.braking(windTowardsMetersPerSecond: windEstimate.dot(towards))
        let allowed = stopping.allowedApproachSpeed(
            roomMeters: room, pointAwaySpeedMetersPerSecond: personVelocity.dot(towards), braking: braking,
            backOffGainPerSecond: tuning.separationGainPerSecond)
        return HalfPlane(normal: towards, limit: allowed)
    }

    /// Wind observer, once per tick before the command: v̂̇ = c1·(c2·tilt − v̂ + ŵ) + L1·(v − v̂),
    /// ŵ̇ = L2·(v − v̂), with the tilt last commanded; critically damped at ω =
    /// `windObserverRadiansPerSecond` (L1 = 2ω − c1, L2 = ω²/c1). Whatever the model cannot
    /// explain — wind, or c1/c2 being off — ends up in ŵ, so the velocity loop holds the commanded
    /// velocity without a standing error. Bounded by what full tilt can cancel.
    private mutating func observeWind(_ drone: PlaneState, noseHeadingDegrees: Double, dt: Double, omega: Double) {
        guard tuning.windObserverRadiansPerSecond > 0, omega > 0, dt > 0, drone.velocity.isFinite else { return }
        guard let estimate = observedVelocity else {
            observedVelocity = drone.velocity
            return
        }
        let c1 = tuning.dragRatePerSecond
        let tilt = worldTilt(of: lastCommand, noseHeadingDegrees: noseHeadingDegrees)
        let innovation = drone.velocity - estimate
        let l1 = max(2 * omega - c1, 0), l2 = omega * omega / c1
        observedVelocity = estimate + ((tilt * tuning.tiltSpeedMetersPerSecond - estimate + windEstimateENU) * c1
                                       + innovation * l1) * dt
        windEstimateENU = (windEstimateENU + innovation * (l2 * dt))
            .clamped(toLength: tuning.tiltSpeedMetersPerSecond * sinMaxTilt)
    }

    /// Velocity loop through the inverted tilt model (less the wind estimate), into body-frame
    /// roll/pitch fractions.
    private func setTilt(_ command: inout PilotCommand, velocity: PlaneVector, drone: PlaneState,
                         noseHeadingDegrees: Double) {
        let acceleration = (velocity - drone.velocity) * tuning.velocityGainPerSecond
        // v̇ = c1·(c2·sin(tilt) − v + wind): the tilt that holds `velocity` cancels the wind estimate.
        let sinTilt = (velocity + acceleration / tuning.dragRatePerSecond - windEstimateENU) / tuning.tiltSpeedMetersPerSecond
        let limited = sinTilt.clamped(toLength: sinMaxTilt)
        let body = limited.bodyFrame(headingDegrees: noseHeadingDegrees)
        command.pitch = Self.clampUnit(-_asin(Self.clampUnit(body.forward)) / maxTiltRadians)
        command.roll = Self.clampUnit(_asin(Self.clampUnit(body.right)) / maxTiltRadians)
    }

    private func yawCommand(toPerson: PlaneVector, relativeVelocity: PlaneVector, noseHeadingDegrees: Double) -> Double {
        let distanceSquared = toPerson.dot(toPerson)
        guard distanceSquared > tuning.yawDeadZoneMeters * tuning.yawDeadZoneMeters else { return 0 }
        let error = wrappedDegrees180(toPerson.bearingDegrees - noseHeadingDegrees)
        // d/dt atan2(east, north) = (north·ė − east·ṅ)/r², clockwise positive like the bearing.
        let bearingRate = degrees(fromRadians:
            (toPerson.north * relativeVelocity.east - toPerson.east * relativeVelocity.north) / distanceSquared)
        let maxRate = parameters.maxYawRateDegreesPerSecond
        let rate = tuning.yawGainPerSecond * error + min(max(bearingRate, -maxRate), maxRate)
        return Self.clampUnit(rate / maxRate)
    }

    private func gazCommand(altitudeMeters: Double, targetMeters: Double) -> Double {
        guard altitudeMeters.isFinite, targetMeters.isFinite else { return 0 }
        let climb = tuning.altitudeGainPerSecond * (targetMeters - altitudeMeters)
        return Self.clampUnit(climb / parameters.maxClimbMetersPerSecond)
    }

    /// Each output moved at most its slew rate from the last command (`tilt: false` leaves roll and
    /// pitch unlimited, for escapes).
    private func slewLimited(_ command: PilotCommand, dt: Double, tilt: Bool = true) -> PilotCommand {
        let tiltLimit = tilt ? tuning.tiltSlewPerSecond * dt : 2
        return PilotCommand(
            roll: Self.step(lastCommand.roll, towards: command.roll, limit: tiltLimit),
            pitch: Self.step(lastCommand.pitch, towards: command.pitch, limit: tiltLimit),
            gaz: Self.step(lastCommand.gaz, towards: command.gaz, limit: tuning.gazSlewPerSecond * dt),
            yaw: Self.step(lastCommand.yaw, towards: command.yaw, limit: tuning.yawSlewPerSecond * dt))
    }

    @inline(__always)
    private static func step(_ from: Double, towards to: Double, limit: Double) -> Double {
        from + min(max(to - from, -limit), limit)
    }

    /// Inside `minSeparationMeters` of either person point: removes any tilt towards it
    /// (bypassing the slew limit).
    private func withoutTiltTowards(
        _ person: PlaneVector, _ other: PlaneVector, from drone: PlaneVector, _ command: PilotCommand,
        noseHeadingDegrees: Double
    ) -> PilotCommand {
        let a = noTiltTowards(person, from: drone), b = noTiltTowards(other, from: drone)
        guard a != nil || b != nil else { return command }
        let tilt = worldTilt(of: command, noseHeadingDegrees: noseHeadingDegrees)
        let safeTilt = HalfPlane.project(tilt, a, b)
        guard safeTilt != tilt else { return command }
        let body = safeTilt.bodyFrame(headingDegrees: noseHeadingDegrees)
        var safe = command
        safe.pitch = Self.clampUnit(-_asin(Self.clampUnit(body.forward)) / maxTiltRadians)
        safe.roll = Self.clampUnit(_asin(Self.clampUnit(body.right)) / maxTiltRadians)
        return safe
    }

    private func noTiltTowards(_ point: PlaneVector, from drone: PlaneVector) -> HalfPlane? {
        let rel = point - drone
        let distance = rel.length
        guard distance < minSeparationMeters, distance > 1e-6 else { return nil }
        return HalfPlane(normal: rel / distance, limit: 0)
    }

    @inline(__always)
    private static func clampUnit(_ x: Double) -> Double { min(max(x, -1), 1) }
}

/// The constraint v·normal ≤ limit on a plane vector (normal of unit length).
struct HalfPlane: Sendable, Hashable {
    var normal: PlaneVector
    var limit: Double

    func contains(_ v: PlaneVector) -> Bool { v.dot(normal) <= limit + 1e-12 }

    func project(_ v: PlaneVector) -> PlaneVector {
        let excess = v.dot(normal) - limit
        return excess > 0 ? v - normal * excess : v
    }

    /// The point nearest `v` that satisfies both constraints (Euclidean projection onto the
    /// intersection). If they cannot both hold (opposite normals, e.g. two points either side
    /// of the drone that both demand backing off), zero.
    static func project(_ v: PlaneVector, _ a: HalfPlane?, _ b: HalfPlane?) -> PlaneVector {
        guard let a else { return b?.project(v) ?? v }
        guard let b else { return a.project(v) }
        if a.contains(v), b.contains(v) { return v }
        let onA = a.project(v)
        if b.contains(onA) { return onA }
        let onB = b.project(v)
        if a.contains(onB) { return onB }
        // Both active: the vertex where the two boundaries meet.
        let det = a.normal.east * b.normal.north - a.normal.north * b.normal.east
        if abs(det) > 1e-9 {
            return PlaneVector(east: (a.limit * b.normal.north - b.limit * a.normal.north) / det,
                               north: (a.normal.east * b.limit - b.normal.east * a.limit) / det)
        }
        return .zero
    }
}
