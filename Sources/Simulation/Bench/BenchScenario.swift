import FollowCore

/// What the person does in a bench run, and where on Earth.
///
/// The person's motion is a `PersonScenario` on a `LocalPlane` whose origin is `origin`; the
/// naive baseline's raw-degree bearing error depends on that latitude
/// (docs/dynamics-and-follow.md §6.2), so replays keep their real place.
public struct BenchScenario: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// A generated path (`Simulation` person scenarios).
        case synthetic
        /// A recorded track replayed as the truth.
        case replay
    }

    /// Short identifier, also used in file names (`straight-walk`, `track-jog-sf`).
    public let name: String
    /// One line for people.
    public let summary: String
    public let kind: Kind
    public let person: any PersonScenario
    /// The plane's origin: where the person starts.
    public let origin: GeoCoordinate
    /// Scenario seconds after which the recorded track ends (the person stands), or nil.
    public let endSeconds: Double?
    /// Wind this scenario is about, overriding `BenchConfiguration.wind`; nil = the configuration's.
    public let wind: WindModel.Parameters?
    /// Geofence radius for this scenario, metres, overriding the bench's 1000 m (e.g. the product
    /// default, to show what a user gets); nil = the configuration's.
    public let geofenceMeters: Double?
    /// How long the person moves, seconds, overriding `BenchConfiguration.durationSeconds`; nil =
    /// the configuration's.
    public let durationSeconds: Double?
    /// Compass bearing of the person's first movement as the drone's start sees it: the drone
    /// starts the standoff behind the person along it. nil = `initialBearingDegrees()`. Set it to
    /// make the person walk *at* the drone.
    public let startBearingDegrees: Double?
    /// Fly with `BenchConfiguration.shippedFailsafe` (the product's defaults: fences, timeouts)
    /// instead of the bench's 1000 m-fence failsafe; the bench's separation settings still apply.
    public let usesShippedFailsafe: Bool
    /// The follow mode FollowMe flies in this scenario (docs/bench.md §5); nil = the leash, `[follow] mode`'s default.
    public let followMode: BenchFollowMode?

    public init(name: String, summary: String, kind: Kind, person: any PersonScenario, origin: GeoCoordinate,
                endSeconds: Double? = nil, wind: WindModel.Parameters? = nil, geofenceMeters: Double? = nil,
                durationSeconds: Double? = nil, startBearingDegrees: Double? = nil, usesShippedFailsafe: Bool = false,
                followMode: BenchFollowMode? = nil) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.person = person
        self.origin = origin
        self.endSeconds = endSeconds
        self.wind = wind
        self.geofenceMeters = geofenceMeters
        self.durationSeconds = durationSeconds
        self.startBearingDegrees = startBearingDegrees
        self.usesShippedFailsafe = usesShippedFailsafe
        self.followMode = followMode
    }

    /// The bearing the drone starts behind the person along: `startBearingDegrees`, else
    /// `initialBearingDegrees()`.
    public var droneStartBearingDegrees: Double { startBearingDegrees ?? initialBearingDegrees() }

    /// The compass bearing the person first moves off in: towards the first position more than
    /// 5 m from the start within 600 s (1 s steps); 0 (north) if they never get that far.
    /// The drone starts the standoff behind the person along it, nose towards them.
    public func initialBearingDegrees() -> Double {
        let start = person.state(atSeconds: 0).positionPlane
        var t = 1.0
        while t <= 600 {
            let offset = person.state(atSeconds: t).positionPlane - start
            if offset.length > 5 { return offset.bearingDegrees }
            t += 1
        }
        return 0
    }

    // MARK: Synthetic scenarios

    /// Where the synthetic scenarios take place: the Champ de Mars in Paris (48.8584 N 2.2945 E),
    /// the `followme sim` default home. At 48.9° the naive bearing is up to ≈11° off (docs/dynamics-and-follow.md §6.2).
    public static let defaultOrigin = GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!

    /// A straight walk at 1.4 m/s (preferred walking speed, docs/dynamics-and-follow.md §4.1) heading north-east,
    /// the direction where the raw-degree bearing is most wrong.
    public static func straightWalk(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "straight-walk", summary: "straight walk, 1.4 m/s, heading 045°", kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 45, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond),
                      origin: origin)
    }

    /// A 40 m square at 1.4 m/s with 90° right turns on the spot.
    public static func square(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "square", summary: "40 m square, 1.4 m/s, 90° right turns", kind: .synthetic,
                      person: SquareWalkScenario(initialBearingDegrees: 0, sideMeters: 40), origin: origin)
    }

    /// 10 s walking at 1.4 m/s, 5 s standing, repeated, heading east.
    public static func stopAndGo(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "stop-and-go", summary: "walk 10 s at 1.4 m/s, stand 5 s, repeat, heading 090°",
                      kind: .synthetic,
                      person: StopAndGoScenario(bearingDegrees: 90, walkSeconds: 10, stopSeconds: 5), origin: origin)
    }

    /// A 3 m/s jog: 30 m north, a 90° right arc of 20 m radius, then east.
    public static func jogCurve(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-curve", summary: "jog 3 m/s: 30 m lead-in, 90° right arc r 20 m, straight on",
                      kind: .synthetic, person: CurveJogScenario(initialBearingDegrees: 0), origin: origin)
    }

    /// The four synthetic scenarios of the benchmark, in table order.
    public static func standard(origin: GeoCoordinate = defaultOrigin) -> [BenchScenario] {
        [straightWalk(origin: origin), square(origin: origin), stopAndGo(origin: origin), jogCurve(origin: origin)]
    }

    // MARK: Extra scenarios (jogging, wind, closing on the drone; docs/bench.md §6); not in `standard`

    /// Steady wind of the wind scenarios: 5 m/s towards the east (from the west), across the
    /// standoff line of a person standing or walking north-east: the wind goals' speed (docs/bench.md §6).
    public static let issueWindMeanENU = PlaneVector(east: 5, north: 0)

    /// A 3 m/s jog in a straight line heading 045°.
    public static func jogStraight(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-straight", summary: "jog 3 m/s straight, heading 045°", kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 45, speedMetersPerSecond: PersonSpeed.jogMetersPerSecond),
                      origin: origin)
    }

    /// A 3 m/s jog on an S-curve: 30 m north, then 90° arcs of 20 m radius, right and left in turn.
    public static func jogSCurve(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-s-curve", summary: "jog 3 m/s: 30 m lead-in, then 90° arcs r 20 m right/left in turn",
                      kind: .synthetic, person: CurveJogScenario(initialBearingDegrees: 0, turns: .alternating), origin: origin)
    }

    /// A 5-minute straight 3 m/s jog (900 m) with the product's default failsafe (geofence and any
    /// other distance limit, `BenchConfiguration.shippedFailsafe`), as a user with the shipped
    /// defaults gets it.
    public static func jogFiveMinutesDefaults(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-5min-defaults",
                      summary: "jog 3 m/s straight 5 min, heading 045°, the product's default failsafe (fences)",
                      kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 45, speedMetersPerSecond: PersonSpeed.jogMetersPerSecond),
                      origin: origin, durationSeconds: 300, usesShippedFailsafe: true)
    }

    /// A jogger who stops dead, in zero time (harder than anyone can): 20 s at 3 m/s, 15 s standing,
    /// repeated, heading 090°.
    public static func jogStopDead(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-stop-dead", summary: "jog 3 m/s for 20 s, stop dead (zero time) 15 s, repeat, heading 090°",
                      kind: .synthetic,
                      person: StopAndGoScenario(bearingDegrees: 90, speedMetersPerSecond: PersonSpeed.jogMetersPerSecond,
                                                walkSeconds: 20, stopSeconds: 15, accelerationMetersPerSecondSquared: nil),
                      origin: origin, durationSeconds: 120)
    }

    /// A jogger who stops as hard as the follower assumes anyone can (`PersonSpeed.hardStopMetersPerSecondSquared`,
    /// 4 m/s²), otherwise as `jogStopDead`.
    public static func jogStop(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-stop", summary: "jog 3 m/s for 20 s, stop at 4 m/s² (the bound), stand 15 s, repeat, heading 090°",
                      kind: .synthetic,
                      person: StopAndGoScenario(bearingDegrees: 90, speedMetersPerSecond: PersonSpeed.jogMetersPerSecond,
                                                walkSeconds: 20, stopSeconds: 15),
                      origin: origin, durationSeconds: 120)
    }

    /// A jogger who stops twice as hard as the bound (8 m/s²): how far inside the promise, if at all.
    public static func jogStopHard(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "jog-stop-hard", summary: "jog 3 m/s for 20 s, stop at 8 m/s² (twice the bound), stand 15 s, repeat, heading 090°",
                      kind: .synthetic,
                      person: StopAndGoScenario(bearingDegrees: 90, speedMetersPerSecond: PersonSpeed.jogMetersPerSecond,
                                                walkSeconds: 20, stopSeconds: 15,
                                                accelerationMetersPerSecondSquared: 2 * PersonSpeed.hardStopMetersPerSecondSquared),
                      origin: origin, durationSeconds: 120)
    }

    /// Walks 30 s north at 1.4 m/s, stops dead for 3 s, turns back and walks south past the drone
    /// (which trails on that very line), on for 60 s.
    public static func turnBack(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "turn-back", summary: "walk 1.4 m/s north 30 s, stop 3 s, walk back south past the drone",
                      kind: .synthetic,
                      person: LegsScenario(legs: [
                          PersonLeg(bearingDegrees: 0, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond, seconds: 30),
                          .stand(3),
                          PersonLeg(bearingDegrees: 180, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond, seconds: 60),
                      ]),
                      origin: origin, durationSeconds: 93)
    }

    /// Stands 10 s, then walks straight at the drone (which waits the standoff to the south-west).
    public static func walkAtDrone(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        closingOnDrone(name: "walk-at-drone", summary: "stand 10 s, then walk 1.4 m/s straight at the drone",
                       speed: PersonSpeed.walkMetersPerSecond, origin: origin)
    }

    /// Stands 10 s, then jogs straight at the drone at 3 m/s.
    public static func jogAtDrone(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        closingOnDrone(name: "jog-at-drone", summary: "stand 10 s, then jog 3 m/s straight at the drone",
                       speed: PersonSpeed.jogMetersPerSecond, origin: origin)
    }

    private static func closingOnDrone(name: String, summary: String, speed: Double, origin: GeoCoordinate) -> BenchScenario {
        // The drone starts the standoff south-west of the person (start bearing 045°); they head 225°.
        BenchScenario(name: name, summary: summary, kind: .synthetic,
                      person: LegsScenario(legs: [.stand(10), PersonLeg(bearingDegrees: 225, speedMetersPerSecond: speed, seconds: 50)]),
                      origin: origin, durationSeconds: 60, startBearingDegrees: 45)
    }

    /// A person standing still in a steady 5 m/s wind: the standing offset and the climb drift.
    public static func windStand(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "wind-stand", summary: "person stands; steady wind 5 m/s towards 090°", kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 0, speedMetersPerSecond: 0), origin: origin,
                      wind: WindModel.Parameters(meanENU: issueWindMeanENU), durationSeconds: 90)
    }

    /// A person standing still in 5 m/s wind with Dryden gusts (σ ≈ 1 m/s, τ ≈ 4.6 s at 3 m).
    public static func windGustStand(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "wind-gust-stand", summary: "person stands; wind 5 m/s towards 090° + Dryden gusts", kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 0, speedMetersPerSecond: 0), origin: origin,
                      wind: .dryden(meanENU: issueWindMeanENU), durationSeconds: 90)
    }

    /// The straight walk in a steady 5 m/s crosswind.
    public static func windWalk(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "wind-walk", summary: "straight walk 1.4 m/s heading 045°; steady wind 5 m/s towards 090°",
                      kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 45, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond),
                      origin: origin, wind: WindModel.Parameters(meanENU: issueWindMeanENU))
    }

    /// The straight walk in 5 m/s wind with Dryden gusts.
    public static func windGustWalk(origin: GeoCoordinate = defaultOrigin) -> BenchScenario {
        BenchScenario(name: "wind-gust-walk", summary: "straight walk 1.4 m/s heading 045°; wind 5 m/s towards 090° + Dryden gusts",
                      kind: .synthetic,
                      person: StraightWalkScenario(bearingDegrees: 45, speedMetersPerSecond: PersonSpeed.walkMetersPerSecond),
                      origin: origin, wind: .dryden(meanENU: issueWindMeanENU))
    }

    /// The extra scenarios (docs/bench.md §6), in table order (run with `--scenario NAME` or `--extra-scenarios`).
    public static func extra(origin: GeoCoordinate = defaultOrigin) -> [BenchScenario] {
        [jogStraight(origin: origin), jogSCurve(origin: origin), jogFiveMinutesDefaults(origin: origin),
         jogStopDead(origin: origin), jogStop(origin: origin), jogStopHard(origin: origin),
         turnBack(origin: origin), walkAtDrone(origin: origin), jogAtDrone(origin: origin),
         windStand(origin: origin), windGustStand(origin: origin), windWalk(origin: origin), windGustWalk(origin: origin)]
    }

    // MARK: Replays

    /// A recorded track replayed as the person's true path (linear interpolation between points).
    ///
    /// Points are taken in order; a point not strictly later than the last kept one is dropped
    /// (GPX exports repeat timestamps, reference fixtures README). Times are shifted so the track
    /// starts at 0; the plane's origin is the first point.
    public static func replay(name: String, summary: String, points: [TimedCoordinate]) throws(BenchError) -> BenchScenario {
        var kept: [TimedCoordinate] = []
        kept.reserveCapacity(points.count)
        for p in points where p.timeSeconds.isFinite {
            if let last = kept.last, !(p.timeSeconds > last.timeSeconds) { continue }
            kept.append(p)
        }
        guard kept.count >= 2, let first = kept.first, let last = kept.last else {
            throw .trackTooShort(name: name, usablePoints: kept.count)
        }
        let plane = LocalPlane(origin: first.coordinate)
        let track: TrackScenario
        do {
            track = try TrackScenario(
                coordinates: kept.map { (timeSeconds: $0.timeSeconds - first.timeSeconds, coordinate: $0.coordinate) },
                plane: plane)
        } catch {
            throw .track(name: name, error)
        }
        return BenchScenario(name: name, summary: summary, kind: .replay, person: track, origin: first.coordinate,
                             endSeconds: last.timeSeconds - first.timeSeconds)
    }
}
