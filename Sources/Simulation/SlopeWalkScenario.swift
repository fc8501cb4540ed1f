import FollowCore

/// A straight walk (`walk`) over ground that climbs: flat for `flatMeters`, then rising at `grade`
/// (rise ÷ run) for `slopeMeters` of horizontal walk, then flat again at the top. The bench's
/// `uphill-walk` (10 % for 100 m, docs/bench.md §5) is one: what `[follow] altitude_mode = "person"` is for.
public struct SlopeWalkScenario: PersonScenario {
    /// Where, which way and how fast the person walks (on the plane).
    public var walk = StraightWalkScenario()
    /// Flat ground walked before the slope, metres (the drone settles behind the walker first); the
    /// slope's horizontal length, metres; its rise over run (negative walks downhill).
    public var flatMeters = 20.0, slopeMeters = 100.0, grade = 0.1

    public init() {}

    /// Height of the ground `alongMeters` from the start along the walk, metres above the start's.
    public func groundAltitudeMeters(alongMeters: Double) -> Double {
        grade * min(max(alongMeters - flatMeters, 0), slopeMeters)
    }

    /// The ground at a point: the slope's height at its distance along the walk's line (level across it).
    public func groundAltitudeMeters(atPlane point: PlaneVector) -> Double {
        groundAltitudeMeters(alongMeters: (point - walk.startPlane).dot(PlaneVector.unit(bearingDegrees: walk.bearingDegrees)))
    }

    public var hasTerrain: Bool { grade != 0 }

    public func state(atSeconds t: Double) -> PersonState {
        var state = walk.state(atSeconds: t)
        state.groundAltitudeMeters = groundAltitudeMeters(alongMeters: walk.speedMetersPerSecond * max(t, 0))
        return state
    }
}
