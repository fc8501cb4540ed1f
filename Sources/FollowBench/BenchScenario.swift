import Geometry
import Simulation

/// One timestamped position of a recorded track (a GPX point, an NMEA RMC fix).
public struct TimedCoordinate: Sendable, Hashable {
    /// Seconds on any fixed scale (e.g. Unix time); only differences matter.
    public var timeSeconds: Double
    public var coordinate: GeoCoordinate

    public init(timeSeconds: Double, coordinate: GeoCoordinate) {
        self.timeSeconds = timeSeconds
        self.coordinate = coordinate
    }
}

/// What the person does in a bench run, and where on Earth.
///
/// The person's motion is a `PersonScenario` on a `LocalPlane` whose origin is `origin`; the
/// naive baseline's raw-degree bearing error depends on that latitude (reference
/// dynamics-and-follow.md §6.2), so replays keep their real place.
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

    public init(name: String, summary: String, kind: Kind, person: any PersonScenario, origin: GeoCoordinate,
                endSeconds: Double? = nil) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.person = person
        self.origin = origin
        self.endSeconds = endSeconds
    }

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
    /// the `followme sim` default home. At 48.9° the naive bearing is up to ≈11° off (§6.2).
    public static let defaultOrigin = GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!

    /// A straight walk at 1.4 m/s (preferred walking speed, reference §4.1) heading north-east,
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
