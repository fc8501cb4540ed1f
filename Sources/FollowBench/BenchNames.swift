import FollowCore
import Simulation

// The flight log's kebab-case vocabulary (FollowMeService `FlightState+Names.swift`), repeated
// here because this pure module cannot depend on the shell.

extension HoldReason {
    var benchLabel: String {
        switch self {
        case .navdataLost: "navdata-lost"
        case .onboardFixStale: "onboard-fix-stale"
        case .headingStale: "heading-stale"
        case .targetStale: "target-stale"
        case .geofence: "geofence"
        }
    }
}

extension LandReason {
    var benchLabel: String {
        switch self {
        case .holdExpired(let r): "hold-expired:\(r.benchLabel)"
        case .lowBattery: "low-battery"
        case .shutdown: "shutdown"
        case .droneInitiated: "drone-initiated"
        }
    }
}

extension FlightState {
    /// e.g. `following`, `holding(target-stale)`; preflight without its waiting list.
    var benchLabel: String {
        switch self {
        case .preflight: "preflight"
        case .takingOff: "taking-off"
        case .climbing: "climbing"
        case .following: "following"
        case .holding(let r): "holding(\(r.benchLabel))"
        case .landing(let r): "landing(\(r.benchLabel))"
        case .landed: "landed"
        case .emergency: "emergency"
        }
    }
}

extension TransitionReason {
    var benchLabel: String {
        switch self {
        case .prerequisitesMet: "prerequisites-met"
        case .adoptedInFlight: "adopted-in-flight"
        case .airborneConfirmed: "airborne-confirmed"
        case .altitudeReached: "altitude-reached"
        case .dataFresh: "data-fresh"
        case .hold(let r): "hold:\(r.benchLabel)"
        case .land(let r): "land:\(r.benchLabel)"
        case .landedConfirmed: "landed-confirmed"
        case .landedUnexpectedly: "landed-unexpectedly"
        case .emergencyReported: "emergency-reported"
        case .emergencyCleared: "emergency-cleared"
        case .shutdownBeforeTakeOff: "shutdown-before-take-off"
        }
    }
}

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
