/// Where round the person the drone keeps its standoff (`[follow] mode`). A mode only chooses the
/// standoff direction the controller turns towards, round the circle; every separation rule holds in all.
public enum FollowMode: String, Sendable, Hashable, CaseIterable {
    /// Swing round behind the person while they walk; frozen while they stand. The default.
    case leash
    /// Keep `FollowParameters.angleDegrees` from the person's direction of travel (PX4 `FLW_TGT_FA` sense),
    /// turning at most at `orbitSpeedMetersPerSecond`; below `travelDirectionMinSpeedMetersPerSecond`, or while
    /// they stand, hold the bearing.
    case angle
    /// Circle the person at the standoff at `orbitSpeedMetersPerSecond`, in `orbitDirection`, stand or walk.
    case orbit
}

/// Which way `FollowMode.orbit` circles the person, seen from above.
public enum OrbitDirection: String, Sendable, Hashable, CaseIterable {
    /// Clockwise seen from above: the compass sense, in which `angle_deg` counts.
    case clockwise
    /// Counter-clockwise seen from above (north → west → south).
    case counterclockwise
}
