import FollowCore
import Simulation

// Flight-state names come from FollowCore (`FlightState+Names.swift`, the flight log's vocabulary).

extension DroneSimulator.FlightState {
    var benchLabel: String {
        switch self {
        case .landed: "landed"
        case .takingOff: "taking-off"
        case .flying: "flying"
        case .landing: "landing"
        case .emergency: "emergency"
        }
    }
}
