/// What `FollowParameters.altitudeMeters` is measured from (`[follow] altitude_mode`; PX4 `FLW_TGT_ALT_M`).
public enum AltitudeMode: String, Sendable, Hashable, CaseIterable {
    /// Above take-off (the AR.Drone: above the ground under it). The default.
    case takeoff
    /// Above the person: the height above take-off follows their filtered 3-D fix altitude
    /// (`PersonAltitudeFilter`), between `altitudeFloorMeters` and `altitudeCeilingMeters`. Needs
    /// `Prerequisites.targetAltitude` to take off; holds on `HoldReason.targetAltitudeStale`. No effect on
    /// the AR.Drone, whose ultrasound already measures height above the ground.
    case person
}
