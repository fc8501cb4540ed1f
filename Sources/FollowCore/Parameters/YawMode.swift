/// Where the drone's nose points while following (`[follow] yaw`; ArduPilot's `FOLL_YAW_BEHAVE` 1 and 3).
public enum YawMode: String, Sendable, Hashable, CaseIterable {
    /// At the person. The default.
    case facePerson = "face-person"
    /// Along the drone's flight from `travelDirectionMinSpeedMetersPerSecond` until below
    /// `FollowController.travelYawOffFraction` of it; at the person otherwise.
    case travel
}
