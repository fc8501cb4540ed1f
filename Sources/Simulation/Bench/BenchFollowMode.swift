import FlightRecords
import FollowCore

/// The follow mode a bench scenario flies (docs/bench.md §5): `[follow] mode`, `angle_deg`,
/// `orbit_speed_mps`, `orbit_direction` and `altitude_mode` as the config maps them onto `FollowParameters`.
public struct BenchFollowMode: Sendable, Hashable {
    public var mode: FollowMode
    public var angleDegrees: Double = FollowParameters.Spec.angleDegrees.defaultValue
    public var orbitSpeedMetersPerSecond: Double = FollowParameters.Spec.orbitSpeedMetersPerSecond.defaultValue
    public var orbitDirection: OrbitDirection = .clockwise
    public var altitudeMode: AltitudeMode = .takeoff
    /// `drone.altitude_max_m` for this scenario, metres above take-off; nil = the bench's.
    public var altitudeCeilingMeters: Double?
    /// `follow.altitude_m` for this scenario, metres; nil = the bench's (the product default).
    public var altitudeMeters: Double?
    /// The operator's changes of mode in flight (`followme mode`, the cockpit), in time order.
    public var changes: [Change] = []

    /// One change of follow mode, `atSeconds` after the person starts moving.
    public struct Change: Sendable, Hashable {
        public var atSeconds: Double
        public var change: FollowModeChange

        public init(atSeconds: Double, _ change: FollowModeChange) { (self.atSeconds, self.change) = (atSeconds, change) }
    }

    /// Sets the mode's fields of `follow`.
    public func apply(to follow: inout FollowParameters) {
        follow.mode = mode
        follow.angleDegrees = angleDegrees
        follow.orbitSpeedMetersPerSecond = orbitSpeedMetersPerSecond
        follow.orbitDirection = orbitDirection
        follow.altitudeMode = altitudeMode
        if let altitudeCeilingMeters { follow.altitudeCeilingMeters = altitudeCeilingMeters }
        if let altitudeMeters { follow.altitudeMeters = altitudeMeters }
    }
}

extension BenchScenario {
    /// A walk at 1.4 m/s in 60 s legs (84 m) with 90° right turns on the spot (north, east, south, west):
    /// the angle mode's scenarios. Legs longer than the square's 40 m so each turn's swing round the
    /// person (≈ 9 s for 90° at 2 m/s round 11 m) is a part of the leg, not all of it.
    static func rightTurnsWalk() -> LegsScenario {
        LegsScenario(legs: [0.0, 90, 180, 270].map {
            PersonLeg(bearingDegrees: $0, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond, seconds: 60)
        })
    }

    /// `mode = "angle"` at `angleDegrees` (orbit speed `orbitSpeed`) on `rightTurnsWalk`.
    static func angleTurns(_ name: String, _ summary: String, angleDegrees: Double, orbitSpeed: Double = 2,
                           origin: GeoCoordinate) -> BenchScenario {
        BenchScenario(name: name, summary: summary, kind: .synthetic, person: rightTurnsWalk(), origin: origin,
                      followMode: BenchFollowMode(mode: .angle, angleDegrees: angleDegrees, orbitSpeedMetersPerSecond: orbitSpeed))
    }

    /// `mode = "angle"`, `angle_deg = 180` behind a walker with 90° right turns.
    public static func angleBehind(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        angleTurns("angle-behind-turns", "angle 180: walk 1.4 m/s, 60 s legs, 90° right turns", angleDegrees: 180, origin: origin)
    }

    /// The same at `orbit_speed_mps = 3`: how much of the angle error is the swing's speed limit.
    public static func angleBehindFast(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        angleTurns("angle-behind-3mps", "angle 180 at orbit_speed_mps 3: the same walk", angleDegrees: 180, orbitSpeed: 3,
                   origin: origin)
    }

    /// The same at `orbit_speed_mps = 4` (PX4's `FLW_TGT_MAX_VEL` defaults to 5): the swing fast enough for
    /// the angle goal of 15°, whose geometric floor at 2 m/s is ≈ 17.6° (docs/bench.md §5).
    public static func angleBehindFaster(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        angleTurns("angle-behind-4mps", "angle 180 at orbit_speed_mps 4: the same walk", angleDegrees: 180, orbitSpeed: 4,
                   origin: origin)
    }

    /// `mode = "angle"`, `angle_deg = 180` behind a 3 m/s jogger on the S-curve (90° arcs of 20 m radius,
    /// right and left in turn): the direction of travel turns at 8.6°/s, under the 2 m/s swing's 10.4°/s.
    public static func angleBehindJog(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "angle-behind-jog", summary: "angle 180: jog 3 m/s on the S-curve (arcs r 20 m)",
                      kind: .synthetic, person: CurveJogScenario(initialBearingDegrees: 0, turns: .alternating), origin: origin,
                      followMode: BenchFollowMode(mode: .angle, angleDegrees: 180))
    }

    /// `mode = "angle"`, `angle_deg = 90` (the person's right) with the same walk.
    public static func angleRight(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        angleTurns("angle-right-turns", "angle 90 (right): walk 1.4 m/s, 60 s legs, 90° right turns", angleDegrees: 90,
                   origin: origin)
    }

    /// `mode = "orbit"` at 2 m/s clockwise round a person standing for 120 s.
    public static func orbitStand(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "orbit-stand", summary: "orbit 2 m/s clockwise round a standing person",
                      kind: .synthetic, person: LegsScenario(legs: [.stand(1)]), origin: origin,
                      durationSeconds: 120, followMode: BenchFollowMode(mode: .orbit, orbitSpeedMetersPerSecond: 2))
    }

    /// `mode = "orbit"` at 2 m/s counter-clockwise round a person walking north at 1 m/s.
    public static func orbitWalk(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "orbit-walk", summary: "orbit 2 m/s counter-clockwise round a 1 m/s walker heading 000°",
                      kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 0, speedMetersPerSecond: 1), origin: origin,
                      durationSeconds: 120,
                      followMode: BenchFollowMode(mode: .orbit, orbitSpeedMetersPerSecond: 2, orbitDirection: .counterclockwise))
    }

    /// The leash behind a 1.4 m/s walker heading north up a 10 % grade for 100 m (after 20 m of flat), with
    /// `altitude_mode = "person"`, `altitude_m` 8 (the least the config accepts with "person" on an autopilot:
    /// the puck's altitude drifts by metres) and `drone.altitude_max_m = 20` (the 10 m climb + 8 m is above
    /// the shipped 10 m ceiling, where the drone would hold for person-above-drone): the height above the
    /// person is the figure (autopilot links; the AR.Drone has the slope under its ultrasound, and climbs it).
    public static func uphillWalk(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "uphill-walk", summary: "altitude_mode person: walk 1.4 m/s up a 10 % grade for 100 m",
                      kind: .synthetic, person: SlopeWalkScenario(), origin: origin, durationSeconds: 110,
                      followMode: BenchFollowMode(mode: .leash, altitudeMode: .person, altitudeCeilingMeters: 20,
                                                  altitudeMeters: FollowParameters.personAltitudeMinimumMeters))
    }

    /// The follow-mode scenarios (`followme bench --mode-scenarios`, or `--scenario NAME`).
    public static func followModes(origin: GeoCoordinate = defaultOrigin) -> [BenchScenario] {
        [angleBehind(origin: origin), angleBehindFast(origin: origin), angleBehindFaster(origin: origin),
         angleBehindJog(origin: origin), angleRight(origin: origin), orbitStand(origin: origin), orbitWalk(origin: origin),
         uphillWalk(origin: origin)]
    }
}

extension BenchMetrics {
    /// What a follow mode promises, measured on true positions over the settled airborne samples.
    public struct FollowModeFigures: Sendable, Hashable {
        public var mode: FollowMode
        /// The asked angle (angle mode), degrees.
        public var angleDegrees: Double?
        /// RMS of (the drone's bearing from the person − their direction of travel − the angle), while
        /// the person moves at ≥ 0.5 m/s (angle mode), degrees.
        public var angleErrorRMSDegrees: Double?
        /// The part of `angleErrorRMSDegrees` no controller can remove: RMS of (an ideal swing's bearing −
        /// the asked bearing), where the ideal swing turns round the person at exactly the bound
        /// (`orbit_speed_mps` ÷ standoff), from the drone's own bearing at the first sample, holding while
        /// the person stands. After a 90° turn on the spot it is ≈ 17.6° on the walk with turns at 2 m/s.
        public var angleFloorRMSDegrees: Double?
        /// What the controller owns: RMS of (the drone's bearing − the ideal swing's bearing), degrees,
        /// over the same samples (its lag behind the bounded swing, its steady error, the receivers' bias).
        public var angleErrorBeyondBoundRMSDegrees: Double?
        /// `angleErrorBeyondBoundRMSDegrees` on the positions as the receivers' slow error shows them (the
        /// truth + that error): the controller's own share, without the bias between the receivers.
        public var angleErrorBeyondBoundSeenRMSDegrees: Double?
        /// RMS of (distance − standoff), metres: the orbit's radius error (the range RMS, airborne only).
        public var radiusErrorRMSMeters: Double?
        /// `radiusErrorRMSMeters` on the positions as the receivers' slow error shows them: the standoff the
        /// controller can hold; the difference is the bias between the receivers, which it cannot see.
        public var radiusErrorSeenRMSMeters: Double?
        /// Mean speed of the drone round the person in the asked direction (orbit), m/s: the tangential
        /// part of the drone's velocity relative to the person.
        public var orbitSpeedMeanMetersPerSecond: Double?
        /// RMS of (the drone's height above the person's ground − `altitude_m`) while following, metres;
        /// on the AR.Drone link only on a scenario with terrain (its ultrasound height is above the ground under it).
        public var heightErrorRMSMeters: Double?
        /// RMS of the jerk of the drone's true horizontal motion (the change of its acceleration), m/s³, over
        /// the settled airborne ticks: how smoothly a mode flies (a swing that starts and stops hard shows).
        public var jerkRMSMetersPerSecondCubed: Double?
    }
}

/// Sums for `BenchMetrics.FollowModeFigures`.
struct ModeFigures {
    private var angleSquareSum = 0.0, angleCount = 0
    private var floorSquareSum = 0.0, beyondSquareSum = 0.0, seenBeyondSquareSum = 0.0
    /// The ideal bounded swing on true positions, and on the positions the receivers' slow error shows.
    private var ideal = IdealSwing(), seenIdeal = IdealSwing()
    private var radiusSquareSum = 0.0, seenRadiusSquareSum = 0.0, radiusCount = 0
    private var orbitSpeedSum = 0.0
    private var heightSquareSum = 0.0, heightCount = 0
    private var jerkSquareSum = 0.0, jerkCount = 0
    private var previous: (timeSeconds: Double, velocity: PlaneVector, acceleration: PlaneVector?)?

    /// `receiversSlowErrorMeters`: the slow part of the error of the drone's position relative to the
    /// person's as FollowMe reads it (the onboard receiver's bias − the person's receiver's; the autopilot's
    /// position has none in the bench), which no controller can see: the "seen" figures add it to the truth.
    mutating func add(_ mode: BenchFollowMode, timeSeconds: Double, person: PlaneVector, drone: PlaneVector,
                      personVelocity: PlaneVector, droneVelocity: PlaneVector, standoffMeters: Double, heightErrorMeters: Double?,
                      receiversSlowErrorMeters: PlaneVector = .zero) {
        addJerk(timeSeconds: timeSeconds, droneVelocity: droneVelocity)
        if let heightErrorMeters {
            heightSquareSum += heightErrorMeters * heightErrorMeters
            heightCount += 1
        }
        let offset = drone - person, seenOffset = offset + receiversSlowErrorMeters
        let distance = offset.length
        guard distance > 1, seenOffset.length > 1 else { return }
        radiusSquareSum += (distance - standoffMeters) * (distance - standoffMeters)
        seenRadiusSquareSum += (seenOffset.length - standoffMeters) * (seenOffset.length - standoffMeters)
        radiusCount += 1
        let relative = droneVelocity - personVelocity
        let counterClockwise = (offset.east * relative.north - offset.north * relative.east) / distance
        orbitSpeedSum += mode.orbitDirection == .clockwise ? -counterClockwise : counterClockwise
        guard mode.mode == .angle else { return }
        let moving = personVelocity.length >= MetricsAccumulator.movingSpeedMetersPerSecond
        let asked = personVelocity.bearingDegrees + mode.angleDegrees
        let rate = standoffMeters > 0 ? degrees(fromRadians: mode.orbitSpeedMetersPerSecond / standoffMeters) : 0
        let idealBearing = ideal.step(toward: moving ? asked : nil, from: offset.bearingDegrees,
                                      timeSeconds: timeSeconds, degreesPerSecond: rate)
        let seenIdealBearing = seenIdeal.step(toward: moving ? asked : nil, from: seenOffset.bearingDegrees,
                                              timeSeconds: timeSeconds, degreesPerSecond: rate)
        guard moving else { return }
        let error = wrappedDegrees180(offset.bearingDegrees - asked)
        let floor = wrappedDegrees180(idealBearing - asked), beyond = wrappedDegrees180(offset.bearingDegrees - idealBearing)
        let seenBeyond = wrappedDegrees180(seenOffset.bearingDegrees - seenIdealBearing)
        angleSquareSum += error * error
        floorSquareSum += floor * floor
        beyondSquareSum += beyond * beyond
        seenBeyondSquareSum += seenBeyond * seenBeyond
        angleCount += 1
    }

    /// The fastest swing the bound allows: a bearing from the person that turns towards the asked one at
    /// `orbit_speed_mps` ÷ standoff, starting at the drone's own bearing, holding while the person stands.
    struct IdealSwing {
        private var last: (bearingDegrees: Double, timeSeconds: Double)?

        /// Moves it towards `asked` (nil: hold) and returns its bearing, degrees.
        mutating func step(toward asked: Double?, from bearing: Double, timeSeconds: Double, degreesPerSecond: Double) -> Double {
            guard let last else {
                self.last = (bearing, timeSeconds)
                return bearing
            }
            var next = last.bearingDegrees
            if let asked {
                let maxStep = degreesPerSecond * max(0, timeSeconds - last.timeSeconds)
                next = wrappedDegrees180(next + min(max(wrappedDegrees180(asked - next), -maxStep), maxStep))
            }
            self.last = (next, timeSeconds)
            return next
        }
    }

    /// The jerk from the true velocity's second difference between consecutive ticks (the plant is
    /// integrated at the control tick or finer, so a difference is a derivative, not noise on a measurement).
    private mutating func addJerk(timeSeconds: Double, droneVelocity: PlaneVector) {
        guard let last = previous else {
            previous = (timeSeconds, droneVelocity, nil)
            return
        }
        guard timeSeconds > last.timeSeconds else { return }
        let dt = timeSeconds - last.timeSeconds
        let acceleration = (droneVelocity - last.velocity) / dt
        if let lastAcceleration = last.acceleration {
            let jerk = (acceleration - lastAcceleration) / dt
            jerkSquareSum += jerk.dot(jerk)
            jerkCount += 1
        }
        previous = (timeSeconds, droneVelocity, acceleration)
    }

    func figures(_ mode: BenchFollowMode) -> BenchMetrics.FollowModeFigures {
        BenchMetrics.FollowModeFigures(
            mode: mode.mode, angleDegrees: mode.mode == .angle ? mode.angleDegrees : nil,
            angleErrorRMSDegrees: angleCount > 0 ? (angleSquareSum / Double(angleCount)).squareRoot() : nil,
            angleFloorRMSDegrees: angleCount > 0 ? (floorSquareSum / Double(angleCount)).squareRoot() : nil,
            angleErrorBeyondBoundRMSDegrees: angleCount > 0 ? (beyondSquareSum / Double(angleCount)).squareRoot() : nil,
            angleErrorBeyondBoundSeenRMSDegrees: angleCount > 0 ? (seenBeyondSquareSum / Double(angleCount)).squareRoot() : nil,
            radiusErrorRMSMeters: radiusCount > 0 ? (radiusSquareSum / Double(radiusCount)).squareRoot() : nil,
            radiusErrorSeenRMSMeters: radiusCount > 0 ? (seenRadiusSquareSum / Double(radiusCount)).squareRoot() : nil,
            orbitSpeedMeanMetersPerSecond: mode.mode == .orbit && radiusCount > 0 ? orbitSpeedSum / Double(radiusCount) : nil,
            heightErrorRMSMeters: heightCount > 0 ? (heightSquareSum / Double(heightCount)).squareRoot() : nil,
            jerkRMSMetersPerSecondCubed: jerkCount > 0 ? (jerkSquareSum / Double(jerkCount)).squareRoot() : nil)
    }
}

extension BenchOutput {
    /// The follow-mode figures per FollowMe run that flew a follow mode other than the leash; "" when
    /// none did (a run of the leash alone prints no such table).
    static func modeTable(_ report: BenchReport) -> String {
        let runs = report.results.filter { $0.controller == .followMe && $0.metrics.followMode != nil }
        guard !runs.isEmpty else { return "" }
        let legacy = report.isARDroneOnly
        let header = [pad("scenario", 22), pad("noise", 10)] + (legacy ? [] : [pad("link", 7)])
            + [pad("mode", 10), lpad("angle err°", 11), lpad("floor°", 7), lpad("beyond°", 8), lpad("seen°", 6), lpad("radius RMS m", 13), lpad("seen m", 7), lpad("orbit m/s", 10),
               lpad("height RMS m", 13), lpad("jerk m/s³", 10), lpad("min sep m", 10), lpad("<lim s", 7)]
        var out = "follow modes:\n" + header.joined(separator: " ") + "\n"
        out += String(repeating: "-", count: header.joined(separator: " ").count) + "\n"
        for r in runs {
            let f = r.metrics.followMode!
            let mode = f.mode.rawValue + (f.angleDegrees.map { " \(num($0, 0))" } ?? "")
            let row = [pad(r.scenario, 22), pad(r.noise.rawValue, 10)] + (legacy ? [] : [pad(r.link.rawValue, 7)])
                + [pad(mode, 10), lpad(opt(f.angleErrorRMSDegrees, 1), 11), lpad(opt(f.angleFloorRMSDegrees, 1), 7),
                   lpad(opt(f.angleErrorBeyondBoundRMSDegrees, 1), 8), lpad(opt(f.angleErrorBeyondBoundSeenRMSDegrees, 1), 6),
                   lpad(opt(f.radiusErrorRMSMeters, 2), 13), lpad(opt(f.radiusErrorSeenRMSMeters, 2), 7),
                   lpad(opt(f.orbitSpeedMeanMetersPerSecond, 2), 10), lpad(opt(f.heightErrorRMSMeters, 2), 13),
                   lpad(opt(f.jerkRMSMetersPerSecondCubed, 2), 10),
                   lpad(num(r.metrics.minSeparationMeters, 2), 10),
                   lpad(num(r.metrics.secondsBelowMinSeparation, 1), 7)]
            out += row.joined(separator: " ") + "\n"
        }
        out += "angle err = RMS of the drone's bearing from the person − their direction of travel − angle_deg while they move "
            + "≥ 0.5 m/s; floor = the part an ideal swing at the bound (orbit_speed_mps ÷ standoff) still has; beyond = the "
            + "drone's bearing − that ideal swing's (what the controller and the receivers add); seen = the same on the positions the receivers' slow error shows "
            + "(truth + the onboard's bias − the person's: what the controller can see); radius RMS = |distance − standoff|; orbit = mean speed round the person in the asked direction "
            + "(settled, airborne, true positions); height RMS = drone's height above the person's ground − altitude_m "
            + "while following (autopilot links; the AR.Drone on a slope); jerk = RMS of the change of the drone's true horizontal acceleration\n"
        return out
    }

    /// A follow mode's figures in a run's JSON object.
    static func addModeFields(_ f: BenchMetrics.FollowModeFigures, to o: inout JSONLine) {
        o.add("follow_mode", f.mode.rawValue)
        o.add("angle_deg", f.angleDegrees)
        o.add("angle_error_rms_deg", f.angleErrorRMSDegrees)
        o.add("angle_floor_rms_deg", f.angleFloorRMSDegrees)
        o.add("angle_error_beyond_bound_rms_deg", f.angleErrorBeyondBoundRMSDegrees)
        o.add("angle_error_beyond_bound_seen_rms_deg", f.angleErrorBeyondBoundSeenRMSDegrees)
        o.add("radius_error_rms_m", f.radiusErrorRMSMeters)
        o.add("radius_error_seen_rms_m", f.radiusErrorSeenRMSMeters)
        o.add("orbit_speed_mean_mps", f.orbitSpeedMeanMetersPerSecond)
        o.add("height_error_rms_m", f.heightErrorRMSMeters)
        o.add("jerk_rms_mps3", f.jerkRMSMetersPerSecondCubed)
    }
}
