/// What `FollowParameters.altitudeMeters` is measured from (`[follow] altitude_mode`, issue 26).
///
/// An autopilot flies a height above its *take-off point* (MAVLink `relative_alt`); the AR.Drone's
/// navdata altitude is its ultrasound's height above the ground under it. PX4 calls the same choice
/// `FLW_TGT_ALT_M` (0: 2D, 2: track the target's altitude); ArduPilot's `FOLL_OFS_Z` is an offset from
/// the target's altitude.
public enum AltitudeMode: String, Sendable, Hashable, CaseIterable {
    /// `altitudeMeters` above take-off (above the ground under the AR.Drone). The only behaviour
    /// before issue 26, and the default.
    case takeoff
    /// `altitudeMeters` above the person: the height above take-off rises and falls with the
    /// person's filtered 3-D fix altitude (`FlightStateMachine.followAltitudeMeters()`; fixes jumping faster
    /// than a person climbs are ignored, `PersonAltitudeFilter`), kept between `FollowParameters.altitudeFloorMeters`
    /// and `FollowParameters.altitudeCeilingMeters` above take-off. It takes off only once the person's altitude
    /// is known (`Prerequisites.targetAltitude`); without a used 3-D fix for
    /// `FlightStateMachine.personAltitudeTimeoutSeconds` the drone holds (`HoldReason.targetAltitudeStale`).
    /// On the AR.Drone the ultrasound already measures height above the ground, which is the person's
    /// ground a standoff away: the mode changes nothing there (and needs no 3-D fix).
    case person
}
