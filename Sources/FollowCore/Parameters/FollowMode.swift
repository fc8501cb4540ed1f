/// Where round the person the drone keeps its standoff (`[follow] mode`, issue 26). Every mode keeps
/// every separation rule (`StoppingModel`, the pushed-out aim, the keep-off points): a mode only
/// chooses the *standoff direction* the controller turns towards, round the circle, never across it.
public enum FollowMode: String, Sendable, Hashable, CaseIterable {
    /// Swing round behind the person while they walk, at `ControllerTuning.standoffRotationDegreesPerSecond`;
    /// frozen while they stand. The only behaviour before issue 26, and the default: a file without
    /// `mode` flies exactly as before.
    case leash
    /// Keep `FollowParameters.angleDegrees` from the person's direction of travel (PX4's `FLW_TGT_FA`
    /// convention: 0 in front, 90 on their right, 180 behind, −90 on their left), moving round the
    /// circle at most at `orbitSpeedMetersPerSecond`. Below `ControllerTuning.travelDirectionMinSpeedMetersPerSecond`
    /// (or while the estimator says they stand) their direction is unknown: the drone holds its bearing.
    case angle
    /// Circle the person at the standoff at `orbitSpeedMetersPerSecond`, in `orbitDirection`, facing
    /// them, whether they stand or walk.
    case orbit
}

/// Which way `FollowMode.orbit` circles the person, seen from above.
public enum OrbitDirection: String, Sendable, Hashable, CaseIterable {
    /// Clockwise seen from above: the compass sense (north → east → south), the sense in which
    /// `angle_deg` counts.
    case clockwise
    /// Counter-clockwise seen from above (north → west → south).
    case counterclockwise
}
