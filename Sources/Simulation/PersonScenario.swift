import FollowCore

/// Where the followed person is and how fast they move, on the local plane.
public struct PersonState: Sendable, Hashable {
    /// Metres east/north of the plane origin.
    public var positionPlane: PlaneVector
    /// Ground velocity, m/s east/north.
    public var velocityENU: PlaneVector
    /// Height of the ground the person stands on above the plane's ground (the take-off point's),
    /// metres: 0 on flat ground; `SlopeWalkScenario` raises it.
    public var groundAltitudeMeters: Double = 0

    /// The GPS truth for a person's receiver (on the ground, no heading output).
    public var gpsTruth: GPSTruthSample {
        GPSTruthSample(positionPlane: positionPlane, velocityENU: velocityENU, altitudeMeters: groundAltitudeMeters)
    }
}

/// A person's motion as a pure function of time. `t` is seconds since the scenario start; before
/// the start the person stands at the starting point.
public protocol PersonScenario: Sendable {
    func state(atSeconds t: Double) -> PersonState
    /// Height of the ground at a point of the plane above the take-off point's, metres: what lies under
    /// the drone (`DroneSimulator.groundAltitudeMeters`). Flat (0) unless the scenario climbs.
    func groundAltitudeMeters(atPlane point: PlaneVector) -> Double
    /// Whether the ground is anything but flat (the bench gives the AR.Drone terrain only then).
    var hasTerrain: Bool { get }
}

extension PersonScenario {
    public func groundAltitudeMeters(atPlane point: PlaneVector) -> Double { 0 }
    public var hasTerrain: Bool { false }
}

/// Reference speeds (docs/dynamics-and-follow.md §4.1).
public enum PersonSpeed {
    /// Preferred walking speed ≈1.4 m/s (Wikipedia "Preferred walking speed").
    public static let walkMetersPerSecond = 1.4
    /// Jogging; the benchmark's jog case (docs/dynamics-and-follow.md §4.2) uses 3.0 m/s (recreational running 2.2–2.8 m/s).
    public static let jogMetersPerSecond = 3.0
    /// The hardest stop (or start) a walker or jogger makes, m/s²: the bound the follower's stop point
    /// credits (`ControllerTuning.personDecelerationMetersPerSecondSquared`, docs/stopping-model.md §2).
    public static let hardStopMetersPerSecondSquared = 4.0
}

/// Distance covered in `t` seconds by someone starting from rest who speeds up at `acceleration` (nil:
/// at once) to `speed` and holds it, metres.
func rampedDistance(_ t: Double, speed: Double, acceleration: Double?) -> Double {
    guard t > 0 else { return 0 }
    guard let acceleration, acceleration > 0, speed > 0 else { return speed * t }
    let ramp = speed / acceleration
    return t < ramp ? acceleration * t * t / 2 : speed * ramp / 2 + speed * (t - ramp)
}

/// Speed after `t` seconds of `rampedDistance`'s start, m/s. Starting at once, the person moves from the
/// start's instant on (t = 0 included), as a receiver's Doppler taken at that instant reports.
func rampedSpeed(_ t: Double, speed: Double, acceleration: Double?) -> Double {
    guard let acceleration, acceleration > 0 else { return t >= 0 ? speed : 0 }
    guard t > 0 else { return 0 }
    return min(speed, acceleration * t)
}

/// Walks in a straight line at constant speed.
public struct StraightWalkScenario: PersonScenario {
    public var startPlane: PlaneVector = .zero
    /// Direction of travel, compass degrees.
    public var bearingDegrees: Double = 0
    public var speedMetersPerSecond: Double = PersonSpeed.walkMetersPerSecond
    /// How hard they speed up from standing at the start, m/s² (nil: at once).
    public var accelerationMetersPerSecondSquared: Double? = PersonSpeed.hardStopMetersPerSecondSquared

    public func state(atSeconds t: Double) -> PersonState {
        guard t > 0 else { return PersonState(positionPlane: startPlane, velocityENU: .zero) }
        let direction = PlaneVector.unit(bearingDegrees: bearingDegrees)
        let a = accelerationMetersPerSecondSquared
        return PersonState(
            positionPlane: startPlane + direction * rampedDistance(t, speed: speedMetersPerSecond, acceleration: a),
            velocityENU: direction * rampedSpeed(t, speed: speedMetersPerSecond, acceleration: a))
    }
}

/// Walks round a square, turning 90° on the spot at each corner, forever.
public struct SquareWalkScenario: PersonScenario {
    /// The first corner.
    public var startPlane: PlaneVector = .zero
    /// Direction of the first side, compass degrees.
    public var initialBearingDegrees: Double = 0
    public var sideMeters: Double = 40
    public var speedMetersPerSecond: Double = PersonSpeed.walkMetersPerSecond
    /// Turn right (clockwise seen from above) at corners; false = left.
    public var turnsClockwise: Bool = true

    /// Compass bearing of side `index` (0-based, wraps every four sides).
    public func bearingDegrees(ofSide index: Int) -> Double {
        normalizedDegrees360(initialBearingDegrees + Double(index % 4) * (turnsClockwise ? 90 : -90))
    }

    public func state(atSeconds t: Double) -> PersonState {
        guard t > 0, sideMeters > 0 else { return PersonState(positionPlane: startPlane, velocityENU: .zero) }
        let along = (t * speedMetersPerSecond).truncatingRemainder(dividingBy: 4 * sideMeters)
        let side = min(Int(along / sideMeters), 3)
        var corner = startPlane
        for k in 0..<side {
            corner += PlaneVector.unit(bearingDegrees: bearingDegrees(ofSide: k)) * sideMeters
        }
        let direction = PlaneVector.unit(bearingDegrees: bearingDegrees(ofSide: side))
        return PersonState(
            positionPlane: corner + direction * (along - Double(side) * sideMeters),
            velocityENU: direction * speedMetersPerSecond
        )
    }
}

/// Walks a straight line in bursts: speeds up from standing, walks, brakes to a stand, stands
/// `stopSeconds`, repeated. `walkSeconds` runs from setting off to starting to brake; speeding up and
/// braking are at `accelerationMetersPerSecondSquared` (nil: at once, a "stop dead").
public struct StopAndGoScenario: PersonScenario {
    public var startPlane: PlaneVector = .zero
    public var bearingDegrees: Double = 0
    public var speedMetersPerSecond: Double = PersonSpeed.walkMetersPerSecond
    public var walkSeconds: Double = 10
    public var stopSeconds: Double = 5
    /// m/s², speeding up and braking alike; nil = at once.
    public var accelerationMetersPerSecondSquared: Double? = PersonSpeed.hardStopMetersPerSecondSquared

    /// Seconds from full speed to standing.
    var brakingSeconds: Double {
        guard let a = accelerationMetersPerSecondSquared, a > 0 else { return 0 }
        return speedMetersPerSecond / a
    }

    public func state(atSeconds t: Double) -> PersonState {
        let braking = brakingSeconds
        let cycle = walkSeconds + braking + stopSeconds
        guard t > 0, cycle > 0 else { return PersonState(positionPlane: startPlane, velocityENU: .zero) }
        let v = speedMetersPerSecond, a = accelerationMetersPerSecondSquared
        let cycles = (t / cycle).rounded(.down)
        let intoCycle = t - cycles * cycle
        let walked = rampedDistance(min(intoCycle, walkSeconds), speed: v, acceleration: a)
        let endSpeed = rampedSpeed(walkSeconds, speed: v, acceleration: a)
        let perCycle = rampedDistance(walkSeconds, speed: v, acceleration: a) + endSpeed * braking / 2
        var along = cycles * perCycle + walked
        var speed = intoCycle < walkSeconds ? rampedSpeed(intoCycle, speed: v, acceleration: a) : 0
        if intoCycle >= walkSeconds, braking > 0 {
            let b = min(intoCycle - walkSeconds, braking)
            let deceleration = endSpeed / braking
            along += endSpeed * b - deceleration * b * b / 2
            speed = intoCycle - walkSeconds < braking ? endSpeed - deceleration * b : 0
        }
        let direction = PlaneVector.unit(bearingDegrees: bearingDegrees)
        return PersonState(positionPlane: startPlane + direction * along, velocityENU: direction * speed)
    }
}

/// Jogs a straight lead-in, then circular arcs of `arcDegrees` at constant speed: one arc and
/// straight on along the new direction (`.once`), or arcs alternately to the right and to the left
/// forever, a slalom (`.alternating`; the mean direction stays the lead-in's plus half an arc).
public struct CurveJogScenario: PersonScenario {
    /// Which arcs follow the lead-in.
    public enum Turns: Sendable, Hashable {
        /// One arc, clockwise seen from above (to the right) or not, then straight on.
        case once(clockwise: Bool)
        /// Arcs to the right, then the left, and so on, forever (an S-curve).
        case alternating
    }

    public var startPlane: PlaneVector = .zero
    /// Direction of the lead-in, compass degrees.
    public var initialBearingDegrees: Double = 0
    public var speedMetersPerSecond: Double = PersonSpeed.jogMetersPerSecond
    public var leadInMeters: Double = 30
    public var radiusMeters: Double = 20
    /// How far each arc turns, degrees (positive).
    public var arcDegrees: Double = 90
    public var turns: Turns = .once(clockwise: true)
    /// How hard they speed up from standing at the start, m/s² (nil: at once).
    public var accelerationMetersPerSecondSquared: Double? = PersonSpeed.hardStopMetersPerSecondSquared

    /// Length of one arc, metres.
    public var arcLengthMeters: Double { radiusMeters * radians(fromDegrees: arcDegrees) }

    /// The turn direction of arc `index` after the lead-in (1 clockwise, −1 anticlockwise); nil when
    /// the path goes straight on instead.
    func turnSign(ofArc index: Int) -> Double? {
        switch turns {
        case .once(let clockwise): index == 0 ? (clockwise ? 1 : -1) : nil
        case .alternating: index.isMultiple(of: 2) ? 1 : -1
        }
    }

    public func state(atSeconds t: Double) -> PersonState {
        guard t > 0, t.isFinite else { return PersonState(positionPlane: startPlane, velocityENU: .zero) }
        let s = rampedDistance(t, speed: speedMetersPerSecond, acceleration: accelerationMetersPerSecondSquared)
        var heading = initialBearingDegrees
        var position = startPlane + PlaneVector.unit(bearingDegrees: heading) * min(s, leadInMeters)
        var remaining = s - leadInMeters
        let arcLength = arcLengthMeters
        var arc = 0
        // A right and a left arc together restore the heading and move by the same step: skip whole
        // pairs, so the walk costs the same at any t (it looped once per arc before).
        if turns == .alternating, radiusMeters > 0, arcDegrees > 0, remaining > 2 * arcLength, remaining.isFinite {
            let (afterRight, headingRight) = walkArc(from: .zero, headingDegrees: heading, sign: 1, radiusMeters: radiusMeters,
                                                     alongMeters: arcLength)
            let (pair, _) = walkArc(from: afterRight, headingDegrees: headingRight, sign: -1, radiusMeters: radiusMeters,
                                    alongMeters: arcLength)
            let pairs = max((remaining / (2 * arcLength)).rounded(.down) - 1, 0)
            position = position + pair * pairs
            remaining -= pairs * 2 * arcLength
        }
        // No positive radius and arc, no curve to walk: the path is straight.
        while remaining > 0, radiusMeters > 0, arcDegrees > 0, let sign = turnSign(ofArc: arc) {
            (position, heading) = walkArc(from: position, headingDegrees: heading, sign: sign, radiusMeters: radiusMeters,
                                          alongMeters: min(remaining, arcLength))
            remaining -= arcLength
            arc += 1
        }
        let direction = PlaneVector.unit(bearingDegrees: heading)
        return PersonState(positionPlane: position + direction * max(0, remaining),
                           velocityENU: direction * rampedSpeed(t, speed: speedMetersPerSecond,
                                                                acceleration: accelerationMetersPerSecondSquared))
    }
}

/// One timestamped point of a recorded track.
public struct TrackPoint: Sendable, Hashable {
    /// Seconds since the track start.
    public var timeSeconds: Double
    /// Metres east/north on the local plane.
    public var positionPlane: PlaneVector
}

/// Why a track cannot become a scenario.
public enum TrackScenarioError: Error, Sendable, Hashable {
    /// No points at all.
    case empty
    /// Point `index` has a non-finite time or position.
    case nonFinite(index: Int)
    /// Point `index` is not strictly later than point `index − 1`.
    case nonIncreasingTime(index: Int, timeSeconds: Double, previousSeconds: Double)
}

/// A recorded track (e.g. a GPX file parsed by the shell) replayed with linear interpolation.
/// Velocity is the slope of the current segment; before the first point and after the last the
/// person stands still there.
public struct TrackScenario: PersonScenario {
    public let points: [TrackPoint]

    /// Validates the points: non-empty, finite, strictly increasing times.
    public init(points: [TrackPoint]) throws(TrackScenarioError) {
        guard !points.isEmpty else { throw .empty }
        for (i, p) in points.enumerated() {
            guard p.timeSeconds.isFinite, p.positionPlane.isFinite else { throw .nonFinite(index: i) }
            if i > 0, !(p.timeSeconds > points[i - 1].timeSeconds) {
                throw .nonIncreasingTime(index: i, timeSeconds: p.timeSeconds, previousSeconds: points[i - 1].timeSeconds)
            }
        }
        self.points = points
    }

    /// Projects timestamped coordinates onto `plane` (times in seconds since the track start).
    public init(
        coordinates: [(timeSeconds: Double, coordinate: GeoCoordinate)],
        plane: LocalPlane) throws(TrackScenarioError
    ) {
        var projected: [TrackPoint] = []
        projected.reserveCapacity(coordinates.count)
        for c in coordinates {
            projected.append(TrackPoint(timeSeconds: c.timeSeconds, positionPlane: plane.project(c.coordinate)))
        }
        try self.init(points: projected)
    }

    /// Seconds from the first to the last point.
    public var durationSeconds: Double { points[points.count - 1].timeSeconds - points[0].timeSeconds }

    public func state(atSeconds t: Double) -> PersonState {
        let first = points[0], last = points[points.count - 1]
        guard t > first.timeSeconds else { return PersonState(positionPlane: first.positionPlane, velocityENU: .zero) }
        guard t < last.timeSeconds else { return PersonState(positionPlane: last.positionPlane, velocityENU: .zero) }
        // Binary search for the segment [lo, lo + 1] with lo.time ≤ t < (lo + 1).time.
        var lo = 0, hi = points.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if points[mid].timeSeconds <= t { lo = mid } else { hi = mid }
        }
        let a = points[lo], b = points[hi]
        let span = b.timeSeconds - a.timeSeconds
        let velocity = (b.positionPlane - a.positionPlane) / span
        return PersonState(positionPlane: a.positionPlane + velocity * (t - a.timeSeconds), velocityENU: velocity)
    }
}

/// One straight leg of a `LegsScenario`.
public struct PersonLeg: Sendable, Hashable {
    /// Direction of travel, compass degrees (ignored when standing).
    public var bearingDegrees: Double
    /// m/s; 0 = stand.
    public var speedMetersPerSecond: Double
    /// How long the leg lasts, seconds.
    public var seconds: Double

    /// Stands for `seconds`.
    public static func stand(_ seconds: Double) -> PersonLeg {
        PersonLeg(bearingDegrees: 0, speedMetersPerSecond: 0, seconds: seconds)
    }
}

/// Straight legs one after the other; the last leg goes on forever. At the start of each leg the
/// velocity changes from the previous leg's (standing before the first) to the leg's own in a straight
/// line at `accelerationMetersPerSecondSquared` (within the leg's time), or at once when that is nil
/// (a person who "stops dead" or turns on the spot: harder than anyone can).
public struct LegsScenario: PersonScenario {
    public var startPlane: PlaneVector = .zero
    public var legs: [PersonLeg]
    /// m/s², every change of velocity; nil = at once.
    public var accelerationMetersPerSecondSquared: Double? = PersonSpeed.hardStopMetersPerSecondSquared

    public init(startPlane: PlaneVector = .zero, legs: [PersonLeg],
                accelerationMetersPerSecondSquared: Double? = PersonSpeed.hardStopMetersPerSecondSquared) {
        self.startPlane = startPlane
        self.legs = legs
        self.accelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared
    }

    public func state(atSeconds t: Double) -> PersonState {
        guard t > 0, !legs.isEmpty else { return PersonState(positionPlane: startPlane, velocityENU: .zero) }
        var position = startPlane
        var elapsed = 0.0
        var previous = PlaneVector.zero
        for (i, leg) in legs.enumerated() {
            let velocity = PlaneVector.unit(bearingDegrees: leg.bearingDegrees) * leg.speedMetersPerSecond
            let change = velocity - previous
            var blend = 0.0
            if let a = accelerationMetersPerSecondSquared, a > 0 { blend = min(change.length / a, leg.seconds) }
            let isLast = i == legs.count - 1
            let tau = isLast ? t - elapsed : min(t - elapsed, leg.seconds)
            if isLast || t < elapsed + leg.seconds {
                if tau < blend {
                    return PersonState(positionPlane: position + previous * tau + change * (tau * tau / (2 * blend)),
                                       velocityENU: previous + change * (tau / blend))
                }
                return PersonState(positionPlane: position + (previous + velocity) * (blend / 2) + velocity * (tau - blend),
                                   velocityENU: velocity)
            }
            position += (previous + velocity) * (blend / 2) + velocity * (leg.seconds - blend)
            elapsed += leg.seconds
            previous = velocity
        }
        return PersonState(positionPlane: position, velocityENU: .zero) // not reached: the last leg returns
    }
}

/// Where a walk of `alongMeters` on a circle of `radiusMeters` ends, starting at `start` with
/// compass heading `headingDegrees` and turning clockwise (`sign` 1) or anticlockwise (−1): the
/// position and the heading there.
func walkArc(from start: PlaneVector, headingDegrees: Double, sign: Double, radiusMeters: Double,
             alongMeters: Double) -> (PlaneVector, Double) {
    let center = start + PlaneVector.unit(bearingDegrees: headingDegrees + sign * 90) * radiusMeters
    let heading = headingDegrees + sign * (alongMeters / radiusMeters * 180 / .pi)
    return (center + PlaneVector.unit(bearingDegrees: heading - sign * 90) * radiusMeters, heading)
}
