/// Where the drone's nose points while following (`[follow] yaw`, issue 26). ArduPilot's `FOLL_YAW_BEHAVE`
/// (1: face the lead vehicle, 3: direction of flight); PX4's follow-target always faces the target.
public enum YawMode: String, Sendable, Hashable, CaseIterable {
    /// At the person (the camera films them). The only behaviour before issue 26, and the default.
    case facePerson = "face-person"
    /// Along the drone's direction of flight once it moves at `ControllerTuning.travelDirectionMinSpeedMetersPerSecond`
    /// or faster (the camera looks where the drone goes), until it slows below `FollowController.travelYawOffFraction`
    /// of that (hysteresis: 0.5 on, 0.35 m/s off by default); at the person otherwise, so a drone keeping station
    /// by a standing person still looks at them.
    case travel
}
