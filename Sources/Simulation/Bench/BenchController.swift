/// Which follow logic flies the simulated drone in a bench run.
public enum BenchController: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// FollowCore's `FlightStateMachine`: takes off by itself, climbs, follows, fails safe.
    case followMe = "followme"
    /// The objc.io "quadcopter navigator" logic (`NaiveBaselineController`,
    /// docs/dynamics-and-follow.md §2.5): 4 Hz, raw-degree bearing, fixed forward pitch, hovers inside
    /// the standoff.
    case naive

    public var description: String { rawValue }
}
