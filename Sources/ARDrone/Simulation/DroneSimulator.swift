import ARDrone
import FollowCore

/// A deterministic AR.Drone 2.0 simulator: the tum_ardrone prediction model with SDK command
/// semantics (docs/dynamics-and-follow.md §1.4) plus the firmware behaviours a follow-me
/// client depends on (takeoff, landing, emergency, auto-hover, com watchdog, battery, config).
///
/// Pure: time is an argument. Feed AT commands decoded by ARDroneProtocol (`ATCommand`) with
/// `apply(_:at:)` and move time with `advance(to:)`; read what the drone would send as ARDroneProtocol's
/// navdata values (`droneState`, `demoOption`, `navdata`); the state sits on a fixed step grid (`DroneDynamics.stepSeconds`) at the last
/// step boundary ≤ the latest `now`, so results do not depend on how often you call `advance`.
///
/// Frames: the plane is east/north metres (`LocalPlane`), headings are compass degrees
/// (clockwise from true north), altitude is metres above the ground.
///
/// Model per step (docs/dynamics-and-follow.md §1.4):
/// - tilt_ref_body = (−u_pitch, u_roll)·euler_angle_max, rotated to the world by the heading;
///   world tilt follows it first-order with c3;
/// - v̇ = c1·(c2·sin|tilt|·(tilt/|tilt|) − (v − wind)), ṗ = v;
/// - ψ̈ = c5·(u_yaw·control_yaw − ψ̇);
/// - z̈ = c7·(u_gaz·control_vz_max·(u_gaz < 0 ? 2 : 1) − ż), softly limited to
///   [altitude_min, altitude_max];
/// - hover (PCMD flag 0, lost com, takeoff, landing) brakes: tilt that makes v̇ = −k·v.
/// First-order lags are updated exactly (x += (ref − x)·(1 − e^{−c·dt})), positions by
/// semi-implicit Euler.
public struct DroneSimulator: Sendable {
    /// What the drone is doing (the firmware's phase; FollowCore's `FlightState` is the follower's).
    public enum FlightPhase: Sendable, Hashable {
        /// On the ground, motors off.
        case landed
        /// Automatic takeoff (spin-up, then climb to `takeoffAltitudeMeters`).
        case takingOff
        /// Airborne under client control (progressive commands or auto-hover).
        case flying
        /// Automatic landing; `landingReason` says why.
        case landing
        /// Motors cut by the emergency toggle; falls if airborne.
        case emergency

        /// Short lower-case name, as `followme sim` and `followme bench` print it.
        public var name: String {
            switch self {
            case .landed: "landed"
            case .takingOff: "taking-off"
            case .flying: "flying"
            case .landing: "landing"
            case .emergency: "emergency"
            }
        }
    }

    /// Why the drone is landing (or last landed).
    public enum LandingReason: Sendable, Hashable {
        /// REF bit 9 cleared by the client.
        case commanded
        /// No AT command for `comLossLandingSeconds`.
        case comLost
        /// Battery at or below `forcedLandingBatteryPercent`.
        case lowBattery
        /// The firmware landed on its own for a cause the model does not simulate (a motor or
        /// sensor fault, the pilot's phone): `beginAutomaticLanding(at:)`, a fault-injection hook.
        case automatic
    }

    /// A PCMD waiting out the command latency.
    struct PendingCommand: Sendable {
        var effectiveAt: MonotonicTime
        var command: ProgressiveCommand
    }

    /// Standard gravity, m/s² (free fall after an emergency motor cut).
    static let gravityMetersPerSecondSquared = 9.80665

    // MARK: Parameters

    public let dynamics: DroneDynamics
    public private(set) var configuration: DroneConfiguration

    // MARK: State

    /// Simulated time of the state (a step boundary).
    public internal(set) var time: MonotonicTime
    public internal(set) var flightPhase: FlightPhase = .landed
    /// Set when a landing starts; kept after touchdown until the next takeoff.
    public internal(set) var landingReason: LandingReason?
    /// Battery charge, percent 0–100.
    public internal(set) var batteryPercent: Double
    /// The PCMD in force (after latency); a PCMD with flag bit 0 clear (`isHover`) hovers.
    public internal(set) var activeCommand: ProgressiveCommand = .hover
    /// How many FTRIM commands were accepted (landed only).
    public private(set) var flatTrimCount = 0

    // MARK: Ground truth

    /// Position, velocity, height, nose and tilt (`AirframeTruth`), read as this type's own through
    /// `SimulatedAirframe` (`positionPlane`, `velocityENU`, …).
    public internal(set) var truth: AirframeTruth
    /// Wind in force, m/s ENU: starts as `dynamics.windENU`; a caller may change it between
    /// `advance` calls (gusts, `WindModel`). Drag acts on air-relative velocity.
    public var windENU: PlaneVector
    /// The ground's height at a point of the plane above the take-off point's, metres (nil: flat
    /// ground). The airframe keeps its height above take-off while it moves; its altitude — the
    /// ultrasound's, which navdata reports and the firmware's floor and ceiling act on — is measured down
    /// to the ground under it, so rising ground brings the ground nearer (`SlopeWalkScenario`).
    public var groundAltitudeMeters: (@Sendable (PlaneVector) -> Double)?

    // MARK: Private bookkeeping

    var pending: [PendingCommand] = []
    var lastInputAt: MonotonicTime?
    var lastEmergencyBit = false
    /// Takeoff needs REF bit 9 = 0 to have been seen since the last automatic landing or emergency.
    var takeoffArmed = true
    var phaseStartedAt: MonotonicTime
    var configAckPending = false

    // Step constants.
    let physicsStep: PhysicsStep
    let verticalAlpha: Double

    /// A drone at `positionPlane`, nose at `noseHeadingDegrees`, at time `start`.
    ///
    /// `startAirborne` puts it in `.flying` at `takeoffAltitudeMeters`, hovering, as if a client
    /// had just taken off at `start` (its com watchdog counts from `start`).
    public init(
        dynamics: DroneDynamics = .standard,
        configuration: DroneConfiguration = DroneConfiguration(),
        start: MonotonicTime = .zero,
        positionPlane: PlaneVector = .zero,
        noseHeadingDegrees: Double = 0,
        startAirborne: Bool = false
    ) {
        self.dynamics = dynamics
        self.configuration = configuration
        self.time = start
        self.phaseStartedAt = start
        self.batteryPercent = min(max(dynamics.initialBatteryPercent, 0), 100)
        truth = AirframeTruth(positionPlane: positionPlane, noseHeadingDegrees: noseHeadingDegrees)
        self.windENU = dynamics.windENU
        physicsStep = PhysicsStep(dynamics)
        verticalAlpha = PhysicsStep.alpha(ratePerSecond: dynamics.verticalRateResponsePerSecond, seconds: physicsStep.seconds)
        pending.reserveCapacity(32)
        if startAirborne {
            flightPhase = .flying
            truth.altitudeMeters = dynamics.takeoffAltitudeMeters
            lastInputAt = start
        }
    }

    // MARK: Inputs

    /// Applies one AT command that arrived at `now` (advancing the simulation to `now` first).
    /// A command stamped before the current state time counts as arriving now. Every command resets
    /// the com watchdog (docs/ardrone-protocol.md §2.2); what each one does (§2.3):
    /// - `REF`: bit 9 takes off / stays flying (0 = land); bit 8 toggles the emergency state on its
    ///   *rising edge* (a client repeating REF every tick with bit 8 held toggles once, which is what
    ///   node-ar-drone's recovery relies on).
    /// - `PCMD` and `PCMD_MAG` (its heading ignored): flag bit 0 clear = hover on the spot, else roll and
    ///   pitch are fractions of `euler_angle_max` (negative pitch = nose down = forward, positive roll =
    ///   right), gaz of `control_vz_max` (positive = up), yaw of `control_yaw` (positive = clockwise seen
    ///   from above); acts after the command latency.
    /// - `CONFIG`: sets the key (`DroneConfiguration`) and state bit 6; `CTRL=…,5,0` clears bit 6.
    /// - `FTRIM`: counted while landed only (no effect on the model).
    /// - `COMWDG`, `CONFIG_IDS`, `CALIB`, other `CTRL` modes: traffic only.
    public mutating func apply(_ command: ATCommand, at now: MonotonicTime) {
        advance(to: now)
        let arrival = now < time ? time : now
        lastInputAt = arrival
        switch command {
        case .ref(let input):
            handleRef(takeoff: input.requestsFlight, emergencyBit: input.togglesEmergency, at: arrival)
        case .pcmd(let p), .pcmdMag(let p, _):
            pending.append(PendingCommand(effectiveAt: arrival.adding(seconds: dynamics.commandLatencySeconds), command: p))
        case let .config(key, value):
            configuration.apply(key: key, value: value)
            configAckPending = true
        case .ftrim:
            if flightPhase == .landed { flatTrimCount += 1 }
        case .ctrl(.acknowledgeCommand):
            configAckPending = false
        case .comwdg, .configIDs, .calib, .ctrl:
            break // traffic for the watchdog; nothing else in the model
        }
    }

    /// Sets the battery charge at `now` (advancing to `now` first), percent, clamped to 0…100;
    /// a non-finite value is ignored. A fault-injection hook (`followme sim` control channel):
    /// the drain, the VBAT_LOW bit and the forced landing carry on from the new value.
    public mutating func setBatteryPercent(_ percent: Double, at now: MonotonicTime) {
        advance(to: now)
        guard percent.isFinite else { return }
        batteryPercent = min(max(percent, 0), 100)
    }

    /// Starts a landing the client did not ask for, at `now` (advancing to `now` first): the
    /// drone descends and touches down as after any automatic landing, and, like after a lost-com
    /// or low-battery landing, takes off again only after REF bit 9 = 0 was seen. A
    /// fault-injection hook (`followme sim` control channel); returns false (and does nothing)
    /// unless the drone is taking off or flying.
    @discardableResult
    public mutating func beginAutomaticLanding(at now: MonotonicTime) -> Bool {
        advance(to: now)
        guard flightPhase == .takingOff || flightPhase == .flying else { return false }
        beginLanding(.automatic, at: time)
        return true
    }

    /// What a navdata restart forgets (`forgetConfiguration(_:)`).
    public enum ConfigurationLoss: String, Sendable, Hashable, CaseIterable {
        /// Only `general:navdata_demo` (back to its default FALSE).
        case navdataDemo = "navdata-demo"
        /// Every key, as after a reboot: the indoor/outdoor limits, altitude limits, com watchdog
        /// and navdata_demo return to their defaults.
        case all
    }

    /// Forgets configuration as the firmware does when it restarts (advancing to `now` first);
    /// a pending config ACK (state bit 6) is forgotten too. The flight goes on under the
    /// defaults. A fault-injection hook (`followme sim` control channel, `navdata-bootstrap`).
    public mutating func forgetConfiguration(_ loss: ConfigurationLoss, at now: MonotonicTime) {
        advance(to: now)
        switch loss {
        case .navdataDemo: configuration.forgetNavdataDemo()
        case .all: configuration = DroneConfiguration()
        }
        configAckPending = false
    }

    /// Moves the simulation forward to the last step boundary ≤ `now` (no-op if `now` is earlier).
    public mutating func advance(to now: MonotonicTime) {
        while now.nanoseconds - time.nanoseconds >= physicsStep.nanoseconds {
            step()
        }
    }

    mutating func handleRef(takeoff: Bool, emergencyBit: Bool, at t: MonotonicTime) {
        let risingEmergency = emergencyBit && !lastEmergencyBit
        lastEmergencyBit = emergencyBit
        if risingEmergency {
            if flightPhase == .emergency {
                // Leaving emergency is only possible on the ground.
                if altitudeMeters <= 0 {
                    flightPhase = .landed
                    takeoffArmed = false
                }
            } else {
                flightPhase = .emergency
                takeoffArmed = false
            }
        }
        if !takeoff { takeoffArmed = true }
        switch flightPhase {
        case .landed:
            if takeoff, takeoffArmed, batteryPercent > dynamics.forcedLandingBatteryPercent {
                flightPhase = .takingOff
                landingReason = nil
                phaseStartedAt = t
            }
        case .takingOff, .flying:
            if !takeoff { beginLanding(.commanded, at: t) }
        case .landing, .emergency:
            break // a landing always completes; an emergency needs the toggle
        }
    }

    mutating func beginLanding(_ reason: LandingReason, at t: MonotonicTime) {
        flightPhase = .landing
        landingReason = reason
        phaseStartedAt = t
        if reason != .commanded { takeoffArmed = false }
    }

    // MARK: Derived state

    /// Seconds since the last AT command, or +∞ if none arrived yet.
    public var secondsSinceLastCommand: Double {
        lastInputAt.map { time.seconds(since: $0) } ?? .infinity
    }

    /// True once no command arrived for `general:com_watchdog` seconds (state bit 30).
    public var isComWatchdogTripped: Bool {
        secondsSinceLastCommand > configuration.comWatchdogSeconds
    }

    /// True while airborne in auto-hover (PCMD flag 0 or lost com).
    public var isHovering: Bool {
        flightPhase == .flying && (isComWatchdogTripped || activeCommand.isHover)
    }
}

extension DroneSimulator: SimulatedAirframe {}
