import ARDrone
import FollowCore
import MAVLink

extension DroneFamilyRegistry {
    /// The families this build flies; a new family is one more entry here (docs/architecture.md §4).
    public static let shipped = DroneFamilyRegistry([ARDroneFamily.self, MAVLinkFamily.self])
}
