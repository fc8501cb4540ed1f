/// A drone family as the flight sees it: the name `[drone] protocol` selects it by, and the model the
/// core flies its vehicles with (docs/architecture.md §4). The family's own folder holds the rest (its
/// codec, session, link, simulated vehicle); this is what plugs it in.
public protocol DroneFamily: Sendable {
    /// The `[drone] protocol` value, e.g. `ardrone`, `mavlink`.
    static var name: String { get }
    /// The core's model of this family's vehicle: `variant` names a kind within the family (e.g. the
    /// MAVLink autopilot, `ardupilot` or `px4`), nil for its default; nil when the variant is unknown.
    static func vehicleModel(variant: String?) -> VehicleModelBuilder?
}

/// The families a build knows, by name: the one list the shell looks a family up in.
public struct DroneFamilyRegistry: Sendable {
    public private(set) var families: [any DroneFamily.Type]

    public init(_ families: [any DroneFamily.Type]) {
        self.families = []
        for family in families { register(family) }
    }

    /// Adds `family`; a family of the same name is replaced.
    public mutating func register(_ family: any DroneFamily.Type) {
        families.removeAll { $0.name == family.name }
        families.append(family)
    }

    /// The family called `name`, if registered.
    public func family(named name: String) -> (any DroneFamily.Type)? {
        families.first { $0.name == name }
    }

    /// Every registered name, in registration order.
    public var names: [String] { families.map { $0.name } }
}
