import Geometry
import Telemetry

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
}

/// Turns estimates of the person and the drone into a PCMD, every tick.
///
/// **Where it aims.** At the person plus `standoffMeters` along a *standoff direction* u
/// (a unit vector from the person). u starts as the person→drone direction, so following
/// begins without any sideways lunge. While the person walks (`TargetMotion.moving`), u
/// swings towards "behind the person" (−their velocity) at no more than
/// `standoffRotationDegreesPerSecond`, so the drone moves round the circle, never across it:
/// someone walking straight at the drone makes it back off and then drift round behind them.
/// While they stand, u is frozen (PX4 freezes its follow orientation below 1 m/s for the same
/// reason: GPS jitter must not make the drone circle a standing person). The aim point is
/// pulled inside 90 % of the geofence and pushed out to at least `minSeparationMeters` +
/// margin from the person's latest estimate.
///
/// **How it gets there.** The person's estimate steps at every fix, so it is first passed
/// through a critically damped second-order reference (fed the estimated velocity as well,
/// so a steady walk is tracked without lag). Commanded velocity = person velocity
/// (feed-forward, faded in with speed) + motion of the aim point round the circle + a
/// position term (linear near the aim point, √(2·a·e) far from it). Near the person the
/// velocity component towards them is limited to `separationGain·(distance − minSeparation)`,
/// which is negative — back off — inside `minSeparationMeters`. A velocity loop inverts the
/// AR.Drone's tilt→velocity model v̇ = c1·(c2·sin(tilt) − v) (tum_ardrone, §1.2):
/// sin(tilt) = (v_cmd + Kv·(v_cmd − v)/c1)/c2, so a steady speed v needs asin(v/c2). The tilt
/// vector is rotated into the body frame (PCMD: negative pitch = forward, positive roll =
/// right), so the drone moves sideways without turning first. Yaw points the nose at the
/// person (proportional + the bearing's own rate); gaz holds `altitudeMeters`. Every output is
/// limited and slew-rate limited, except that inside `minSeparationMeters` any tilt towards the
/// person is removed at once.
///
/// The drone state is predicted `commandLatencySeconds` ahead with the last command, since
/// a PCMD takes about that long to act (tum_ardrone `delayControl`).
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

    /// Tick period assumed for the first tick after a reset, seconds (the shell runs at ~30 Hz).
    static let nominalTickSeconds = 1.0 / 30
    /// Longest tick gap integrated at once, seconds.
    static let maxTickSeconds = 0.2
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
    }

    /// The last command produced (the slew limiter's memory).
    public var previousCommand: PilotCommand { lastCommand }

    /// Forgets smoothing, geometry and the previous command: call when the drone has been
    /// hovering (PCMD flag 0), so the next command ramps up from level flight.
    public mutating func reset() {
        smoothedPosition = nil
        smoothedVelocity = .zero
        standoffDirection = nil
        lastCommand = .zero
        lastTickAt = nil
    }

    /// Follow the person.
    /// - Parameters:
    ///   - target: the person's estimate at `now` (latency-compensated).
    ///   - motion: whether they walk or stand.
    ///   - drone: the drone's estimate at `now`.
    ///   - noseHeadingDegrees: compass heading of the nose.
    ///   - altitudeMeters: navdata altitude.
    ///   - home: the take-off point on the plane (geofence centre), if known.
    public mutating func follow(
        target: PlaneState, motion: TargetMotion, drone: PlaneState,
        noseHeadingDegrees: Double, altitudeMeters: Double, home: PlaneVector?,
        now: MonotonicTime
    ) -> FollowOutput {
        let dt = tickSeconds(now: now)
        let predicted = predictAcrossLatency(drone, noseHeadingDegrees: noseHeadingDegrees)

        // 1. Smooth reference for the person.
        let reference = smooth(target, dt: dt)

        // 2. Standoff direction.
        let standoff = max(parameters.standoffMeters, minSeparationMeters + tuning.separationMarginMeters)
        var direction = standoffDirection ?? initialDirection(from: reference.position, to: predicted.position,
                                                             noseHeadingDegrees: noseHeadingDegrees)
        var orbitRate = 0.0 // rad/s, counter-clockwise positive
        let referenceSpeed = reference.velocity.length
        let frozen = motion == .stationary || referenceSpeed < 1e-3
        if !frozen {
            let behind = reference.velocity * (-1 / referenceSpeed)
            let angle = _atan2(direction.east * behind.north - direction.north * behind.east, direction.dot(behind))
            let maxStep = radians(fromDegrees: tuning.standoffRotationDegreesPerSecond) * dt
            let step = min(max(angle, -maxStep), maxStep)
            direction = Self.rotated(direction, byRadians: step)
            orbitRate = dt > 0 ? step / dt : 0
        }
        standoffDirection = direction

        // 3. Aim point: on the circle, inside the geofence, outside the separation radius.
        var aim = reference.position + direction * standoff
        if let home {
            let offset = aim - home
            let limit = Self.geofenceAimFraction * geofenceMeters
            if offset.length > limit { aim = home + offset * (limit / offset.length) }
        }
        let keepOut = minSeparationMeters + tuning.separationMarginMeters
        let fromPerson = aim - target.position
        if fromPerson.length < keepOut {
            let away = fromPerson.length > 1e-6 ? fromPerson / fromPerson.length : direction
            aim = target.position + away * keepOut
        }

        // 4. Commanded velocity.
        let error = aim - predicted.position
        let errorLength = error.length
        var velocity = PlaneVector.zero
        if errorLength > 1e-9 {
            let speed = min(tuning.positionGainPerSecond * errorLength,
                            (2 * tuning.brakingAccelerationMetersPerSecondSquared * errorLength).squareRoot())
            velocity = error * (speed / errorLength)
        }
        let fade = min(max((referenceSpeed - tuning.feedForwardStartMetersPerSecond)
                           / (tuning.feedForwardFullMetersPerSecond - tuning.feedForwardStartMetersPerSecond), 0), 1)
        velocity += reference.velocity * fade
        velocity += PlaneVector(east: -direction.north, north: direction.east) * (orbitRate * standoff)
        velocity = velocity.clamped(toLength: parameters.maxHorizontalSpeedMetersPerSecond)
        velocity = limitApproach(velocity, drone: predicted.position, person: target.position)

        // 5. Tilt, yaw, gaz.
        var command = PilotCommand(roll: 0, pitch: 0, gaz: 0, yaw: 0)
        setTilt(&command, velocity: velocity, drone: predicted, noseHeadingDegrees: noseHeadingDegrees)
        let toPerson = reference.position - predicted.position
        command.yaw = yawCommand(toPerson: toPerson, relativeVelocity: reference.velocity - predicted.velocity,
                                 noseHeadingDegrees: noseHeadingDegrees)
        command.gaz = gazCommand(altitudeMeters: altitudeMeters)
        command = slewLimited(command, dt: dt)
        command = withoutTiltTowards(target.position, from: drone.position, command, noseHeadingDegrees: noseHeadingDegrees)
        lastCommand = command

        let rel = target.position - drone.position
        return FollowOutput(
            pilot: command, aimPoint: aim, commandedVelocity: velocity,
            distanceToTargetMeters: rel.length,
            relativeBearingDegrees: Navigator.relativeBearingDegrees(
                from: drone.position, noseHeadingDegrees: noseHeadingDegrees, to: target.position),
            standoffDirectionFrozen: frozen)
    }

    /// Stay put horizontally (velocity brought to zero), face the person if known, and climb or
    /// descend to `altitudeMeters`. Used while climbing after take-off.
    public mutating func station(
        target: PlaneState?, drone: PlaneState, noseHeadingDegrees: Double,
        altitudeMeters: Double, now: MonotonicTime
    ) -> PilotCommand {
        let dt = tickSeconds(now: now)
        let predicted = predictAcrossLatency(drone, noseHeadingDegrees: noseHeadingDegrees)
        var command = PilotCommand.zero
        setTilt(&command, velocity: .zero, drone: predicted, noseHeadingDegrees: noseHeadingDegrees)
        if let target {
            command.yaw = yawCommand(toPerson: target.position - predicted.position,
                                     relativeVelocity: .zero, noseHeadingDegrees: noseHeadingDegrees)
        }
        command.gaz = gazCommand(altitudeMeters: altitudeMeters)
        command = slewLimited(command, dt: dt)
        if let target {
            command = withoutTiltTowards(target.position, from: drone.position, command,
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

    /// Second-order reference: ẍ = ω²(p − x) + 2ω(v − ẋ), semi-implicit Euler.
    private mutating func smooth(_ target: PlaneState, dt: Double) -> PlaneState {
        guard var position = smoothedPosition else {
            smoothedPosition = target.position
            smoothedVelocity = target.velocity
            return target
        }
        let w = tuning.targetSmoothingRadiansPerSecond
        let acceleration = (target.position - position) * (w * w) + (target.velocity - smoothedVelocity) * (2 * w)
        smoothedVelocity += acceleration * dt
        position += smoothedVelocity * dt
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
        let acceleration = (tilt * tuning.tiltSpeedMetersPerSecond - drone.velocity) * tuning.dragRatePerSecond
        return PlaneState(
            position: drone.position + drone.velocity * latency + acceleration * (0.5 * latency * latency),
            velocity: drone.velocity + acceleration * latency)
    }

    /// Caps the velocity component towards the person at separationGain·(distance − minSeparation).
    private func limitApproach(_ velocity: PlaneVector, drone: PlaneVector, person: PlaneVector) -> PlaneVector {
        let rel = person - drone
        let distance = rel.length
        guard distance > 1e-6 else { return velocity }
        let towards = rel / distance
        let allowed = tuning.separationGainPerSecond * (distance - minSeparationMeters)
        let component = velocity.dot(towards)
        return component > allowed ? velocity + towards * (allowed - component) : velocity
    }

    /// Velocity loop through the inverted tilt model, into body-frame roll/pitch fractions.
    private func setTilt(_ command: inout PilotCommand, velocity: PlaneVector, drone: PlaneState, noseHeadingDegrees: Double) {
        let acceleration = (velocity - drone.velocity) * tuning.velocityGainPerSecond
        let sinTilt = (velocity + acceleration / tuning.dragRatePerSecond) / tuning.tiltSpeedMetersPerSecond
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

    private func gazCommand(altitudeMeters: Double) -> Double {
        guard altitudeMeters.isFinite else { return 0 }
        let climb = tuning.altitudeGainPerSecond * (parameters.altitudeMeters - altitudeMeters)
        return Self.clampUnit(climb / parameters.maxClimbMetersPerSecond)
    }

    private func slewLimited(_ command: PilotCommand, dt: Double) -> PilotCommand {
        PilotCommand(
            roll: Self.step(lastCommand.roll, towards: command.roll, limit: tuning.tiltSlewPerSecond * dt),
            pitch: Self.step(lastCommand.pitch, towards: command.pitch, limit: tuning.tiltSlewPerSecond * dt),
            gaz: Self.step(lastCommand.gaz, towards: command.gaz, limit: tuning.gazSlewPerSecond * dt),
            yaw: Self.step(lastCommand.yaw, towards: command.yaw, limit: tuning.yawSlewPerSecond * dt))
    }

    @inline(__always)
    private static func step(_ from: Double, towards to: Double, limit: Double) -> Double {
        from + min(max(to - from, -limit), limit)
    }

    /// Inside `minSeparationMeters`: removes any tilt towards the person (bypassing the slew limit).
    private func withoutTiltTowards(
        _ person: PlaneVector, from drone: PlaneVector, _ command: PilotCommand, noseHeadingDegrees: Double
    ) -> PilotCommand {
        let rel = person - drone
        let distance = rel.length
        guard distance < minSeparationMeters, distance > 1e-6 else { return command }
        let towards = rel / distance
        let tilt = worldTilt(of: command, noseHeadingDegrees: noseHeadingDegrees)
        let component = tilt.dot(towards)
        guard component > 0 else { return command }
        let body = (tilt - towards * component).bodyFrame(headingDegrees: noseHeadingDegrees)
        var safe = command
        safe.pitch = Self.clampUnit(-_asin(Self.clampUnit(body.forward)) / maxTiltRadians)
        safe.roll = Self.clampUnit(_asin(Self.clampUnit(body.right)) / maxTiltRadians)
        return safe
    }

    @inline(__always)
    private static func clampUnit(_ x: Double) -> Double { min(max(x, -1), 1) }
}
