
/// Stable, kebab-case names for states and reasons: the flight log's and status line's vocabulary, which
/// users' scripts read (kept as first written: telemetry is `navdata` there, after the first family).
extension HoldReason {
    public var name: String {
        switch self {
        case .telemetryLost: "navdata-lost"
        case .onboardFixStale: "onboard-fix-stale"
        case .headingStale: "heading-stale"
        case .targetStale: "target-stale"
        case .geofence: "geofence"
        case .targetTooFar: "target-too-far"
        case .headingRejected: "heading-rejected"
        case .altitudeNotReached: "altitude-not-reached"
        case .personAboveDrone: "person-above-drone"
        case .targetAltitudeStale: "target-altitude-stale"
        case .notInControl: "not-in-control"
        case .batteryUnknown: "battery-unknown"
        case .vehicleCritical: "vehicle-critical"
        case .operatorHold: "operator-hold"
        }
    }
}

extension LandReason {
    public var name: String {
        switch self {
        case .holdExpired(let r): "hold-expired:\(r.name)"
        case .lowBattery: "low-battery"
        case .shutdown: "shutdown"
        case .droneInitiated: "drone-initiated"
        case .operatorCommand: "operator"
        case .criticalBattery: "critical-battery"
        case .takeOffAborted(let missing): "take-off-aborted:\(missing.names.joined(separator: ","))"
        case .windTooStrong(let cause): "wind-too-strong:\(cause.name)"
        }
    }
}

extension Prerequisites {
    /// Each prerequisite with its name, in the order `names` lists them.
    static let named: [(Prerequisites, String)] = [
        (.targetFix, "target-fix"), (.onboardFix, "onboard-fix"), (.heading, "heading"), (.telemetry, "navdata"),
        (.battery, "battery"), (.droneReady, "drone-ready"), (.targetClear, "person-too-close"),
        (.droneConfigured, "drone-configuration"), (.targetRate, "target-rate"), (.calmWind, "wind"),
        (.braking, "braking"), (.operatorResume, "operator-hold"), (.operatorStart, "start"),
        (.targetAltitude, "target-altitude"),
    ]

    public var names: [String] { Self.named.compactMap { contains($0.0) ? $0.1 : nil } }
}

extension FlightState {
    /// e.g. `following`, `holding(target-stale)`, `preflight(waiting: heading,navdata)`.
    public var name: String {
        switch self {
        case .preflight(let w): w.isEmpty ? "preflight" : "preflight(waiting: \(w.names.joined(separator: ",")))"
        case .takingOff: "taking-off"
        case .climbing: "climbing"
        case .following: "following"
        case .holding(let r): "holding(\(r.name))"
        case .landing(let r): "landing(\(r.name))"
        case .landed: "landed"
        case .emergency: "emergency"
        case .released(let r): "released(\(r.name))"
        }
    }
}

extension ReleaseReason {
    /// e.g. `mode:LOITER`.
    public var name: String {
        switch self {
        case .vehicleLeftControl(let mode): "mode:\(mode)"
        case .someoneElsesFlight: "watching"
        }
    }
}

extension TransitionReason {
    public var name: String {
        switch self {
        case .prerequisitesMet: "prerequisites-met"
        case .adoptedInFlight: "adopted-in-flight"
        case .airborneConfirmed: "airborne-confirmed"
        case .altitudeReached: "altitude-reached"
        case .dataFresh: "data-fresh"
        case .hold(let r): "hold:\(r.name)"
        case .land(let r): "land:\(r.name)"
        case .landedConfirmed: "landed-confirmed"
        case .landedUnexpectedly: "landed-unexpectedly"
        case .emergencyReported: "emergency-reported"
        case .emergencyCleared: "emergency-cleared"
        case .shutdownBeforeTakeOff: "shutdown-before-take-off"
        case .takeOffNotConfirmed: "take-off-not-confirmed"
        case .takeOffAbortedOnGround: "take-off-aborted-on-ground"
        case .vehicleReleased: "vehicle-released"
        case .landedWhileReleased: "landed-while-released"
        case .someoneElsesFlight: "someone-elses-flight"
        }
    }
}

extension FlightIntent {
    public var name: String {
        switch self {
        case .stayLanded: "stay-landed"
        case .takeOff: "take-off"
        case .fly: "fly"
        case .land: "land"
        case .emergency: "emergency"
        case .release: "release"
        }
    }
}

extension FixVerdict {
    /// e.g. `accepted`, `rejected-outlier` (the flight log's `verdict` of a fix).
    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .initialised: "initialised"
        case .rejectedOutlier: "rejected-outlier"
        case .ignoredOutOfOrder: "ignored-out-of-order"
        case .ignoredDuplicate: "ignored-duplicate"
        case .rejectedFutureTime: "rejected-future-time"
        case .ignoredStale: "ignored-stale"
        case .refusedInaccurate: "refused-inaccurate"
        }
    }
}
