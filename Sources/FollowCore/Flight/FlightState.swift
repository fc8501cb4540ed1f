/// What has to be true before the drone may take off. Each member is one thing still missing.
public struct Prerequisites: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A fresh fix from the person's receiver.
    public static let targetFix = Prerequisites(rawValue: 1 << 0)
    /// A fresh fix from the drone's receiver.
    public static let onboardFix = Prerequisites(rawValue: 1 << 1)
    /// A fresh heading report from the drone's receiver, none currently rejected (`Navigator.headingRejectedSince`).
    public static let heading = Prerequisites(rawValue: 1 << 2)
    /// Fresh telemetry.
    public static let telemetry = Prerequisites(rawValue: 1 << 3)
    /// Battery at or above `minTakeoffBatteryPercent` (and `minBatteryPercent`).
    public static let battery = Prerequisites(rawValue: 1 << 4)
    /// The drone is landed, not in emergency nor critical, and its arming checks pass where reported.
    public static let droneReady = Prerequisites(rawValue: 1 << 5)
    /// The person stands at least `protectedRadiusMeters` from the drone (by both fixes).
    public static let targetClear = Prerequisites(rawValue: 1 << 6)

    /// The drone's configuration writes are acknowledged (`FollowInput.droneConfiguration(.done)`).
    public static let droneConfigured = Prerequisites(rawValue: 1 << 7)
    /// The person's receiver delivers the fix rate the standoff was sized for (`targetFixRateHz`, when above 1 Hz).
    public static let targetRate = Prerequisites(rawValue: 1 << 8)

    /// The vehicle does not warn of too much wind.
    public static let calmWind = Prerequisites(rawValue: 1 << 9)

    /// The braking the autopilot reports defends the configured standoff (`StoppingModel`).
    public static let braking = Prerequisites(rawValue: 1 << 10)

    /// No operator's HOLD (or LAND before take-off) is in force; RESUME lifts it.
    public static let operatorResume = Prerequisites(rawValue: 1 << 11)

    /// The operator's START, when `takeOffOnStart`; only START gives it.
    public static let operatorStart = Prerequisites(rawValue: 1 << 12)

    /// With `AltitudeMode.person` on an autopilot: the person's altitude is known and fresh.
    public static let targetAltitude = Prerequisites(rawValue: 1 << 13)

    public static let all: Prerequisites = [.targetFix, .onboardFix, .heading, .telemetry, .battery, .droneReady, .targetClear,
                                            .droneConfigured, .targetRate, .calmWind, .braking, .operatorResume,
                                            .operatorStart, .targetAltitude]
}

/// Why the drone is hovering in place instead of following. In order of precedence.
public enum HoldReason: Sendable, Hashable {
    /// No telemetry for `telemetryTimeoutSeconds`.
    case telemetryLost
    /// No onboard fix for `onboardTimeoutSeconds`.
    case onboardFixStale
    /// No onboard heading for `headingTimeoutSeconds`.
    case headingStale
    /// No target fix for `targetTimeoutSeconds`.
    case targetStale
    /// At the home fence (beyond `geofenceMeters`, or the aim pulled in to 90 % of it): holds inside it.
    case geofence
    /// The person is further than `maxTargetDistanceMeters` from the drone.
    case targetTooFar
    /// Onboard heading reports keep disagreeing with telemetry's heading, for `headingTimeoutSeconds`.
    case headingRejected
    /// Climbing did not reach `altitudeMeters` within `climbTimeoutSeconds`; hovering where it got to.
    case altitudeNotReached
    /// An autopilot (height above home): the person's rise since take-off is within
    /// `FlightStateMachine.terrainMarginMeters` of the drone's height. Never for the AR.Drone.
    case personAboveDrone
    /// `AltitudeMode.person` on an autopilot: no used 3-D fix from the person for
    /// `personAltitudeTimeoutSeconds`, or none by the end of the climb.
    case targetAltitudeStale
    /// The link says it does not control the airborne vehicle (e.g. GUIDED refused): holds, then lands.
    case notInControl
    /// The autopilot stopped reporting battery: hold, and land after `landAfterSeconds` unless it returns.
    case batteryUnknown
    /// The autopilot reports a failure (MAV_STATE_CRITICAL): hold, and land after `landAfterSeconds` unless it clears.
    case vehicleCritical
    /// The operator said HOLD: hover until RESUME. Never expires into a landing (battery and wind still
    /// land); lowest precedence, so an automatic reason shows and starts its own clock.
    case operatorHold
}

/// Why the drone is landing.
public enum LandReason: Sendable, Hashable {
    /// Holding lasted `landAfterSeconds`; carries the reason it was holding at the end.
    case holdExpired(HoldReason)
    /// Battery under `minBatteryPercent`.
    case lowBattery
    /// The service was asked to stop (SIGTERM).
    case shutdown
    /// Telemetry reports the drone landing of its own accord.
    case droneInitiated
    /// Battery under `criticalBatteryPercent`: landed at once, without `lowBatteryConfirmSeconds`.
    case criticalBattery
    /// A preflight prerequisite (not `droneReady` nor the take-off battery margin) stopped holding during take-off.
    case takeOffAborted(Prerequisites)
    /// The wind is more than the drone can fight or may fly in (`WindMonitor`).
    case windTooStrong(WindCause)
    /// The operator said LAND.
    case operatorCommand
}

/// Why FollowMe let go of the vehicle (`FlightState.released`).
public enum ReleaseReason: Sendable, Hashable {
    /// Airborne, the vehicle left FollowMe's mode for `mode` (e.g. "LOITER", "AUTO.RTL"): a pilot or its own
    /// failsafe flies it now; never taken back (docs/mavlink.md §7.11).
    case vehicleLeftControl(mode: String)
    /// An autopilot seen on the ground in this run is airborne without our take-off: watched, never
    /// commanded (docs/mavlink.md §7.14).
    case someoneElsesFlight
}

/// The follower's flight state. Every change is confirmed by telemetry, never by a delay.
public enum FlightState: Sendable, Hashable {
    /// On the ground, waiting for everything needed to fly.
    case preflight(waitingFor: Prerequisites)
    /// Take-off asked; waiting for telemetry to report flying or hovering (or abort, or time out).
    case takingOff
    /// Airborne; climbing (or descending) to `altitudeMeters` before moving sideways.
    case climbing
    /// Following the person.
    case following
    /// Hovering in place  until the reason clears or `landAfterSeconds` pass.
    case holding(HoldReason)
    /// Landing asked; waiting for telemetry to report landed.
    case landing(LandReason)
    /// On the ground after a flight (or a stop before take-off). Terminal.
    case landed
    /// Telemetry reports an emergency.
    case emergency
    /// A pilot or the autopilot's failsafe took the vehicle (MAVLink only): FollowMe sends nothing until it is down.
    case released(ReleaseReason)

    /// Whether the state machine will never fly again from here (the shell may exit).
    @inlinable public var isTerminal: Bool {
        switch self {
        case .landed: return true
        default: return false
        }
    }

    /// The state without its payload, for comparisons where the reason does not matter.
    @inlinable public var kind: FlightStateKind {
        switch self {
        case .preflight: return .preflight
        case .takingOff: return .takingOff
        case .climbing: return .climbing
        case .following: return .following
        case .holding: return .holding
        case .landing: return .landing
        case .landed: return .landed
        case .emergency: return .emergency
        case .released: return .released
        }
    }
}

/// `FlightState` without payloads.
public enum FlightStateKind: Sendable, Hashable, CaseIterable {
    case preflight, takingOff, climbing, following, holding, landing, landed, emergency, released
}

/// Why a transition happened.
public enum TransitionReason: Sendable, Hashable {
    /// Everything needed was fresh; take-off commanded.
    case prerequisitesMet
    /// Telemetry said the drone was already flying when we started: taken over, not landed.
    case adoptedInFlight
    /// Telemetry confirmed the drone is airborne after take-off.
    case airborneConfirmed
    /// Telemetry altitude reached `altitudeMeters` within tolerance.
    case altitudeReached
    /// The cause of holding cleared before the land deadline.
    case dataFresh
    case hold(HoldReason)
    case land(LandReason)
    /// Telemetry confirmed the drone landed after we asked it to.
    case landedConfirmed
    /// Telemetry reported "landed" for `landedConfirmSeconds` while we thought it was flying.
    case landedUnexpectedly
    case emergencyReported
    /// Telemetry cleared the emergency bit and reports landed.
    case emergencyCleared
    case shutdownBeforeTakeOff
    /// Telemetry did not confirm lift-off within `takeOffTimeoutSeconds`.
    case takeOffNotConfirmed
    /// An autopilot's take-off aborted before it left the ground: it waits in preflight again.
    case takeOffAbortedOnGround
    case vehicleReleased
    case landedWhileReleased
    case someoneElsesFlight
}

/// One state change, for the flight log.
public struct FlightTransition: Sendable, Hashable {
    public var from: FlightState
    public var to: FlightState
    public var reason: TransitionReason
    public var at: MonotonicTime
}
