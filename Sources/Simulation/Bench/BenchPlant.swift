/// Which simulated AR.Drone flies in a bench run.
public enum BenchPlant: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `DroneDynamics.standard`: the tum_ardrone constants the controller's own model assumes.
    case nominal
    /// `DroneDynamics.offModel`: c1 ×0.8, c2 ×1.15, 180 ms command latency — not the controller's
    /// model, so the bench does not check the controller against itself. On the MAVLink link the
    /// Copter's autopilot is off-model too (`MAVLinkCopterParameters.offModel`).
    case offModel = "off-model"

    public var description: String { rawValue }

    /// The simulator's dynamics for this plant.
    public var dynamics: DroneDynamics {
        switch self {
        case .nominal: .standard
        case .offModel: .offModel
        }
    }

    /// The simulated MAVLink Copter's autopilot for this plant: ArduCopter's defaults, or the
    /// off-model preset (docs/mavlink.md §8.4).
    public var copterParameters: MAVLinkCopterParameters {
        switch self {
        case .nominal: .standard
        case .offModel: .offModel
        }
    }
}
