/// What has to be true before the drone may take off. Each member is one thing still missing.
public struct Prerequisites: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A fresh fix from the person's receiver.
    public static let targetFix = Prerequisites(rawValue: 1 << 0)
    /// A fresh fix from the drone's receiver.
    public static let onboardFix = Prerequisites(rawValue: 1 << 1)
    /// A fresh heading report from the drone's receiver, and none currently rejected for
    /// disagreeing with navdata yaw (`Navigator.headingRejectedSince`).
    public static let heading = Prerequisites(rawValue: 1 << 2)
    /// Fresh navdata.
    public static let navdata = Prerequisites(rawValue: 1 << 3)
    /// Battery at or above `minTakeoffBatteryPercent` (and `minBatteryPercent`).
    public static let battery = Prerequisites(rawValue: 1 << 4)
    /// Navdata says the drone is landed and not in emergency, nor critical, and — when the autopilot
    /// reports it (`DroneTelemetry.readyToArm`) — its arming checks pass.
    public static let droneReady = Prerequisites(rawValue: 1 << 5)
    /// The person stands at least `protectedRadiusMeters` (min separation + GPS relative error)
    /// from the drone (by both fixes), so the take-off does not start next to someone.
    public static let targetClear = Prerequisites(rawValue: 1 << 6)

    /// The drone's configuration writes are acknowledged (`FollowInput.droneConfiguration(.done)`).
    public static let droneConfigured = Prerequisites(rawValue: 1 << 7)
    /// The person's receiver delivers the fix rate the standoff was sized for
    /// (`FollowParameters.targetFixRateHz`, when above 1 Hz): the shortest accepted standoff counted
    /// on seeing someone walk at the drone one fix period late, so a puck slower than configured
    /// must not fly on it.
    public static let targetRate = Prerequisites(rawValue: 1 << 8)

    /// Navdata does not say "too much wind" (AR.Drone state bit 20): no take-off into a wind the
    /// drone itself reports (`WindMonitor`).
    public static let calmWind = Prerequisites(rawValue: 1 << 9)

    /// The autopilot's own braking (its acceleration and jerk limits, read from the vehicle) defends the
    /// configured standoff (`StoppingModel.shortestDefensibleStandoffMeters`): a vehicle tuned softer
    /// than its defaults needs a longer `standoff_m`.
    public static let braking = Prerequisites(rawValue: 1 << 10)

    /// No operator's HOLD (or LAND given before take-off) is in force: the person said "not now";
    /// RESUME lifts it (`OperatorCommand`).
    public static let operatorResume = Prerequisites(rawValue: 1 << 11)

    /// The operator's START (`FailsafeParameters.takeOffOnStart`, `[follow] takeoff = "start"`): the
    /// person said "go". Only START gives it, and only with every other prerequisite met.
    public static let operatorStart = Prerequisites(rawValue: 1 << 12)

    /// With `AltitudeMode.person` on an autopilot: the person's altitude is known (`PersonAltitudeFilter`
    /// seeded from agreeing 3-D fixes and fresh), so the rise since take-off can be measured; without it the
    /// flight would only climb out to hold (`HoldReason.targetAltitudeStale`).
    public static let targetAltitude = Prerequisites(rawValue: 1 << 13)

    public static let all: Prerequisites = [.targetFix, .onboardFix, .heading, .navdata, .battery, .droneReady, .targetClear,
                                            .droneConfigured, .targetRate, .calmWind, .braking, .operatorResume,
                                            .operatorStart, .targetAltitude]
}

/// Why the drone is hovering in place instead of following. In order of precedence.
public enum HoldReason: Sendable, Hashable {
    /// No navdata for `navdataTimeoutSeconds`.
    case navdataLost
    /// No onboard fix for `onboardTimeoutSeconds`.
    case onboardFixStale
    /// No onboard heading for `headingTimeoutSeconds`.
    case headingStale
    /// No target fix for `targetTimeoutSeconds`.
    case targetStale
    /// At the home fence: the drone is further than `geofenceMeters` from the take-off point, or
    /// following would take it beyond 90 % of that (the aim point had to be pulled in). Holds a
    /// point inside the fence (flying back in first if it is outside).
    case geofence
    /// The person is further than `maxTargetDistanceMeters` from the drone (ArduPilot's
    /// `FOLL_DIST_MAX` idea): too far to follow safely or stay in Wi-Fi range of the ground unit.
    case targetTooFar
    /// Onboard heading reports keep disagreeing with the navdata-propagated heading (a re-mounted
    /// receiver, a compass gone wrong): `Navigator.headingRejected`, for `headingTimeoutSeconds`.
    case headingRejected
    /// Climbing did not reach `altitudeMeters` within `climbTimeoutSeconds`; hovering where it got to.
    case altitudeNotReached
    /// An autopilot flies at a height above *home*, not above the ground (MAVLink `relative_alt`):
    /// the person's 3-D fixes say they have climbed to within `FlightStateMachine.terrainMarginMeters`
    /// of the drone's height above home — the ground ahead rises towards the drone. Holds where it
    /// is (never for the AR.Drone, whose ultrasound altitude is height above the ground).
    case personAboveDrone
    /// `AltitudeMode.person` on an autopilot: the person's receiver has given no 3-D fix the altitude filter
    /// used for `FlightStateMachine.personAltitudeTimeoutSeconds`, or none by the end of the climb, so the height
    /// above them is unknown. Holds where it is, at the last altitude aimed for, until a 3-D fix returns.
    case targetAltitudeStale
    /// The link says it does not control the vehicle although it is airborne and ours (e.g. the
    /// autopilot refused GUIDED/OFFBOARD after its take-off): set-points would not be flown. Holds
    /// (the vehicle's own mode holds it), then lands with the usual hold clock.
    case notInControl
    /// The autopilot stopped saying how much battery is left (`DroneTelemetry.batteryUnknown`): no
    /// low-battery landing could trigger, so hold, and land after `landAfterSeconds` unless it returns.
    case batteryUnknown
    /// The autopilot reports a failure (`DroneTelemetry.critical`, MAVLink MAV_STATE_CRITICAL): hold,
    /// and land after `landAfterSeconds` unless it clears.
    case vehicleCritical
    /// The operator said HOLD: hover at the point, until RESUME. Never expires into a landing by
    /// itself (the battery and wind failsafes still land); lowest precedence, so an automatic reason
    /// shows (and starts its own clock) while it lasts.
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
    /// Navdata reports the drone landing of its own accord (e.g. its own battery cut-off).
    case droneInitiated
    /// Battery under `criticalBatteryPercent`: landed at once, without `lowBatteryConfirmSeconds`.
    case criticalBattery
    /// A preflight prerequisite (other than the drone being on the ground, and the take-off
    /// battery margin, which sags as the motors start) stopped holding during take-off.
    case takeOffAborted(Prerequisites)
    /// The wind is more than the drone can fight or than it may fly in (`WindMonitor`): during
    /// take-off and the climb this aborts the flight before any following.
    case windTooStrong(WindCause)
    /// The operator said LAND.
    case operatorCommand
}

/// Why FollowMe let go of the vehicle (`FlightState.released`).
public enum ReleaseReason: Sendable, Hashable {
    /// Airborne, the vehicle left FollowMe's mode for `mode` (e.g. "LOITER", "RTL", "AUTO.RTL"): a
    /// pilot took it over, or the autopilot's own failsafe did. Either way a human or the autopilot
    /// flies it now, and FollowMe never takes it back (docs/mavlink.md §7.11).
    case vehicleLeftControl(mode: String)
    /// An autopilot seen on the ground in this run is airborne without FollowMe's take-off (in
    /// preflight, or after FollowMe's own flight landed): someone else launched it. Watched, never
    /// commanded (docs/mavlink.md §7.14). The link's own verdict, when it came first, names the mode instead.
    case someoneElsesFlight
}

/// The follower's flight state. Every change is confirmed by telemetry, never by a delay.
public enum FlightState: Sendable, Hashable {
    /// On the ground, waiting for everything needed to fly.
    case preflight(waitingFor: Prerequisites)
    /// REF take-off sent; waiting for navdata to report flying or hovering. Left for
    /// `landing(.takeOffAborted)` as soon as a preflight prerequisite stops holding, and for
    /// `landed` if navdata does not confirm lift-off within `takeOffTimeoutSeconds`.
    case takingOff
    /// Airborne; climbing (or descending) to `altitudeMeters` before moving sideways.
    case climbing
    /// Following the person.
    case following
    /// Hovering in place (PCMD flag 0) until the reason clears or `landAfterSeconds` pass.
    case holding(HoldReason)
    /// REF land sent; waiting for navdata to report landed.
    case landing(LandReason)
    /// On the ground after a flight (or a stop before take-off). Terminal.
    case landed
    /// Navdata reports an emergency.
    case emergency
    /// A pilot or the autopilot's own failsafe took the vehicle (MAVLink only): FollowMe sends
    /// nothing — no set-point, no LAND, not even on SIGTERM — runs no hold or wind clock, and stays
    /// here until the vehicle is on the ground (→ `landed`) or the run is stopped.
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
    /// Navdata said the drone was already flying when we started: taken over, not landed.
    case adoptedInFlight
    /// Navdata confirmed the drone is airborne after take-off.
    case airborneConfirmed
    /// Navdata altitude reached `altitudeMeters` within tolerance.
    case altitudeReached
    /// The cause of holding cleared before the land deadline.
    case dataFresh
    /// Started (or changed the reason for) holding.
    case hold(HoldReason)
    /// Started landing.
    case land(LandReason)
    /// Navdata confirmed the drone landed after we asked it to.
    case landedConfirmed
    /// Navdata reported "landed" for `landedConfirmSeconds` while we thought it was flying.
    case landedUnexpectedly
    /// Navdata raised the emergency bit.
    case emergencyReported
    /// Navdata cleared the emergency bit and reports landed.
    case emergencyCleared
    /// Shutdown requested before take-off.
    case shutdownBeforeTakeOff
    /// Navdata did not confirm lift-off within `takeOffTimeoutSeconds`; the take-off is abandoned
    /// for this run.
    case takeOffNotConfirmed
    /// A take-off aborted before an autopilot left the ground (a prerequisite went missing, e.g. a
    /// failsafe parameter changed while the take-off began): it is on the ground again and waits in
    /// preflight for the prerequisites, then takes off.
    case takeOffAbortedOnGround
    /// The vehicle left FollowMe's control (a pilot or the autopilot's own failsafe took it).
    case vehicleReleased
    /// Released, the vehicle is on the ground (whoever landed it).
    case landedWhileReleased
    /// An autopilot seen on the ground is airborne without our take-off: someone else's flight, watched.
    case someoneElsesFlight
}

/// One state change, for the flight log.
public struct FlightTransition: Sendable, Hashable {
    public var from: FlightState
    public var to: FlightState
    public var reason: TransitionReason
    public var at: MonotonicTime
}
