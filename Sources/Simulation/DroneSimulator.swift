import Geometry
import Observations

/// A deterministic AR.Drone 2.0 simulator: the tum_ardrone prediction model with SDK command
/// semantics (docs/dynamics-and-follow.md §1.4) plus the firmware behaviours a follow-me
/// client depends on (takeoff, landing, emergency, auto-hover, com watchdog, battery, config).
///
/// Pure: time is an argument. Feed decoded AT commands with `apply(_:at:)` and move time with
/// `advance(to:)`; the state sits on a fixed step grid (`DroneDynamics.stepSeconds`) at the last
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
    /// What the drone is doing.
    public enum FlightState: Sendable, Hashable {
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

    /// The pilot command in force after the latency.
    public enum PilotCommand: Sendable, Hashable {
        /// PCMD flag bit 0 = 0.
        case hover
        /// PCMD flag bit 0 = 1, values clamped to [−1, 1].
        case progressive(roll: Double, pitch: Double, gaz: Double, yaw: Double)
    }

    private struct PendingCommand: Sendable {
        var effectiveAt: MonotonicTime
        var command: PilotCommand
    }

    /// Standard gravity, m/s² (free fall after an emergency motor cut).
    private static let gravityMetersPerSecondSquared = 9.80665

    // MARK: Parameters

    public let dynamics: DroneDynamics
    public private(set) var configuration: DroneConfiguration

    // MARK: State

    /// Simulated time of the state (a step boundary).
    public private(set) var time: MonotonicTime
    public private(set) var flightState: FlightState = .landed
    /// Set when a landing starts; kept after touchdown until the next takeoff.
    public private(set) var landingReason: LandingReason?
    /// Battery charge, percent 0–100.
    public private(set) var batteryPercent: Double
    /// The command in force (after latency).
    public private(set) var activeCommand: PilotCommand = .hover
    /// How many FTRIM commands were accepted (landed only).
    public private(set) var flatTrimCount = 0

    // MARK: Ground truth

    /// Position on the local plane, metres east/north.
    public private(set) var positionPlane: PlaneVector
    /// Ground velocity, m/s east/north.
    public private(set) var velocityENU: PlaneVector = .zero
    /// Height above ground, metres.
    public private(set) var altitudeMeters: Double = 0
    /// Vertical speed, m/s, positive up.
    public private(set) var climbRateMetersPerSecond: Double = 0
    /// Nose heading, compass degrees [0, 360).
    public private(set) var noseHeadingDegrees: Double
    /// Yaw rate, degrees per second, positive clockwise.
    public private(set) var yawRateDegreesPerSecond: Double = 0
    /// Tilt as a world-frame vector, radians east/north: the direction and angle the thrust leans
    /// (the drone accelerates toward it).
    public private(set) var tiltWorldRadians: PlaneVector = .zero
    /// Wind in force, m/s ENU: starts as `dynamics.windENU`; a caller may change it between
    /// `advance` calls (gusts, `WindModel`). Drag acts on air-relative velocity.
    public var windENU: PlaneVector

    // MARK: Private bookkeeping

    private var pending: [PendingCommand] = []
    private var lastInputAt: MonotonicTime?
    private var lastEmergencyBit = false
    /// Takeoff needs REF bit 9 = 0 to have been seen since the last automatic landing or emergency.
    private var takeoffArmed = true
    private var phaseStartedAt: MonotonicTime
    private var configAckPending = false

    // Step constants.
    private let stepNanoseconds: Int64
    private let stepSeconds: Double
    private let tiltAlpha: Double
    private let velocityAlpha: Double
    private let yawAlpha: Double
    private let verticalAlpha: Double

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
        self.positionPlane = positionPlane
        self.noseHeadingDegrees = normalizedDegrees360(noseHeadingDegrees)
        self.windENU = dynamics.windENU
        let dt = dynamics.stepSeconds > 0 ? dynamics.stepSeconds : 0.005
        self.stepNanoseconds = max(1, Int64((dt * 1e9).rounded()))
        self.stepSeconds = Double(stepNanoseconds) / 1e9
        self.tiltAlpha = 1 - _exp(-dynamics.tiltRatePerSecond * stepSeconds)
        self.velocityAlpha = 1 - _exp(-dynamics.dragRatePerSecond * stepSeconds)
        self.yawAlpha = 1 - _exp(-dynamics.yawRateResponsePerSecond * stepSeconds)
        self.verticalAlpha = 1 - _exp(-dynamics.verticalRateResponsePerSecond * stepSeconds)
        pending.reserveCapacity(32)
        if startAirborne {
            flightState = .flying
            altitudeMeters = dynamics.takeoffAltitudeMeters
            lastInputAt = start
        }
    }

    // MARK: Inputs

    /// Applies one AT command that arrived at `now` (advancing the simulation to `now` first).
    /// An input stamped before the current state time counts as arriving now.
    public mutating func apply(_ input: SimulatorInput, at now: MonotonicTime) {
        advance(to: now)
        let arrival = now < time ? time : now
        lastInputAt = arrival
        switch input {
        case let .ref(takeoff, emergencyToggle):
            handleRef(takeoff: takeoff, emergencyBit: emergencyToggle, at: arrival)
        case let .pcmd(progressive, roll, pitch, gaz, yaw):
            let command: PilotCommand = progressive
                ? .progressive(roll: Self.unit(roll), pitch: Self.unit(pitch), gaz: Self.unit(gaz), yaw: Self.unit(yaw))
                : .hover
            pending.append(PendingCommand(effectiveAt: arrival.adding(seconds: dynamics.commandLatencySeconds), command: command))
        case let .config(key, value):
            configuration.apply(key: key, value: value)
            configAckPending = true
        case .comwdg:
            break // any command resets the watchdog; COMWDG carries nothing else
        case .ftrim:
            if flightState == .landed { flatTrimCount += 1 }
        case .ctrlAck:
            configAckPending = false
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
        guard flightState == .takingOff || flightState == .flying else { return false }
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
        while now.nanoseconds - time.nanoseconds >= stepNanoseconds {
            step()
        }
    }

    private static func unit(_ x: Float) -> Double {
        x.isNaN ? 0 : Double(min(max(x, -1), 1))
    }

    private mutating func handleRef(takeoff: Bool, emergencyBit: Bool, at t: MonotonicTime) {
        let risingEmergency = emergencyBit && !lastEmergencyBit
        lastEmergencyBit = emergencyBit
        if risingEmergency {
            if flightState == .emergency {
                // Leaving emergency is only possible on the ground.
                if altitudeMeters <= 0 {
                    flightState = .landed
                    takeoffArmed = false
                }
            } else {
                flightState = .emergency
                takeoffArmed = false
            }
        }
        if !takeoff { takeoffArmed = true }
        switch flightState {
        case .landed:
            if takeoff, takeoffArmed, batteryPercent > dynamics.forcedLandingBatteryPercent {
                flightState = .takingOff
                landingReason = nil
                phaseStartedAt = t
            }
        case .takingOff, .flying:
            if !takeoff { beginLanding(.commanded, at: t) }
        case .landing, .emergency:
            break // a landing always completes; an emergency needs the toggle
        }
    }

    private mutating func beginLanding(_ reason: LandingReason, at t: MonotonicTime) {
        flightState = .landing
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
        flightState == .flying && (isComWatchdogTripped || activeCommand == .hover)
    }

    /// The navdata the drone would send now.
    public var navdata: SimulatedNavdata {
        var flags: DroneStateFlags = []
        switch flightState {
        case .takingOff, .flying, .landing:
            flags.insert(.flying)
        default: break
        }
        if configAckPending { flags.insert(.commandAck) }
        if configuration.navdataDemo { flags.insert(.navdataDemo) }
        if batteryPercent < dynamics.lowBatteryPercent { flags.insert(.batteryLow) }
        if isComWatchdogTripped { flags.insert(.comWatchdog) }
        if flightState == .emergency { flags.insert(.emergency) }

        let major: ControlStateMajor
        var minor = ControlStateMinor.ok
        switch flightState {
        case .landed: major = .landed
        case .takingOff: major = .transTakeoff
        case .landing: major = .transLanding
        case .emergency: major = .default
        case .flying:
            if isComWatchdogTripped {
                major = .hovering
                minor = ControlStateMinor.hoveringLostCom
            } else {
                major = activeCommand == .hover ? .hovering : .flying
            }
        }

        let body = tiltWorldRadians.bodyFrame(headingDegrees: noseHeadingDegrees)
        let velocityBody = velocityENU.bodyFrame(headingDegrees: noseHeadingDegrees)
        return SimulatedNavdata(
            state: flags,
            controlStateMajor: major,
            controlStateMinor: minor,
            batteryPercent: UInt32(batteryPercent.rounded(.down)),
            thetaMillidegrees: Float(-degrees(fromRadians: body.forward) * 1000),
            phiMillidegrees: Float(degrees(fromRadians: body.right) * 1000),
            psiMillidegrees: Float(wrappedDegrees180(noseHeadingDegrees) * 1000),
            altitudeMillimeters: Int32((altitudeMeters * 1000).rounded()),
            vxMillimetersPerSecond: Float(velocityBody.forward * 1000),
            vyMillimetersPerSecond: Float(velocityBody.right * 1000),
            vzMillimetersPerSecond: Float(-climbRateMetersPerSecond * 1000)
        )
    }

    // MARK: Stepping

    private mutating func step() {
        let t = time
        let dt = stepSeconds
        while let first = pending.first, first.effectiveAt <= t {
            activeCommand = first.command
            pending.removeFirst()
        }
        let silence = lastInputAt.map { t.seconds(since: $0) } ?? .infinity
        let comLost = silence > configuration.comWatchdogSeconds

        let motorsOn = flightState == .flying || flightState == .landing || flightState == .takingOff
        let drain = motorsOn ? dynamics.flyingDrainPercentPerSecond : dynamics.landedDrainPercentPerSecond
        batteryPercent = max(0, batteryPercent - drain * dt)

        if flightState == .flying || flightState == .takingOff {
            if batteryPercent <= dynamics.forcedLandingBatteryPercent {
                beginLanding(.lowBattery, at: t)
            } else if silence > dynamics.comLossLandingSeconds {
                beginLanding(.comLost, at: t)
            }
        }

        switch flightState {
        case .landed:
            break
        case .flying:
            if comLost || activeCommand == .hover {
                integrateHorizontal(tiltReference: brakingTilt())
                integrateYaw(rateReferenceDegreesPerSecond: 0)
                integrateVertical(climbReferenceMetersPerSecond: limitedClimb(0))
            } else if case let .progressive(roll, pitch, gaz, yaw) = activeCommand {
                integrateHorizontal(tiltReference: commandedTilt(roll: roll, pitch: pitch))
                integrateYaw(rateReferenceDegreesPerSecond: yaw * degrees(fromRadians: configuration.active.yawRateMaxRadiansPerSecond))
                let vzMax = configuration.active.verticalSpeedMaxMillimetersPerSecond / 1000
                let asymmetry = dynamics.descentAsymmetry && gaz < 0 ? 2.0 : 1.0
                integrateVertical(climbReferenceMetersPerSecond: limitedClimb(gaz * vzMax * asymmetry))
            }
        case .takingOff:
            if t.seconds(since: phaseStartedAt) >= dynamics.takeoffSpinUpSeconds {
                integrateHorizontal(tiltReference: brakingTilt())
                integrateYaw(rateReferenceDegreesPerSecond: 0)
                climbRateMetersPerSecond = dynamics.takeoffClimbMetersPerSecond
                altitudeMeters += climbRateMetersPerSecond * dt
                if altitudeMeters >= dynamics.takeoffAltitudeMeters {
                    altitudeMeters = dynamics.takeoffAltitudeMeters
                    climbRateMetersPerSecond = 0
                    flightState = .flying // hovers unless a progressive PCMD is in force
                }
            }
        case .landing:
            integrateHorizontal(tiltReference: brakingTilt())
            integrateYaw(rateReferenceDegreesPerSecond: 0)
            climbRateMetersPerSecond = -dynamics.landingDescentMetersPerSecond
            altitudeMeters += climbRateMetersPerSecond * dt
            if altitudeMeters <= 0 {
                touchDown()
                flightState = .landed
            }
        case .emergency:
            if altitudeMeters > 0 {
                // Motors cut: free fall; horizontal speed decays with drag only.
                velocityENU += (windENU - velocityENU) * velocityAlpha
                positionPlane += velocityENU * dt
                climbRateMetersPerSecond -= Self.gravityMetersPerSecondSquared * dt
                altitudeMeters += climbRateMetersPerSecond * dt
                yawRateDegreesPerSecond = 0
                if altitudeMeters <= 0 { touchDown() }
            }
        }
        time = MonotonicTime(nanoseconds: t.nanoseconds + stepNanoseconds)
    }

    private mutating func touchDown() {
        altitudeMeters = 0
        climbRateMetersPerSecond = 0
        velocityENU = .zero
        tiltWorldRadians = .zero
        yawRateDegreesPerSecond = 0
        activeCommand = .hover
        pending.removeAll(keepingCapacity: true)
    }

    /// World-frame tilt reference for a progressive command.
    private func commandedTilt(roll: Double, pitch: Double) -> PlaneVector {
        let forward: Double, right: Double
        switch dynamics.tiltProfile {
        case .sdk:
            let maxTilt = configuration.active.eulerAngleMaxRadians
            forward = -pitch * maxTilt
            right = roll * maxTilt
        case .tumLiteral:
            // tum c4 = 24° per unit, inputs clamped to ±0.5 (DroneKalmanFilter.cpp predictInternal).
            let perUnit = radians(fromDegrees: 24)
            forward = -min(max(pitch, -0.5), 0.5) * perUnit
            right = min(max(roll, -0.5), 0.5) * perUnit
        }
        let psi = radians(fromDegrees: noseHeadingDegrees)
        let s = _sin(psi), c = _cos(psi)
        // forward unit = (sinψ, cosψ), right unit = (cosψ, −sinψ) in (east, north).
        return PlaneVector(east: forward * s + right * c, north: forward * c - right * s)
    }

    /// The tilt that makes ground velocity decay as v̇ = −k·v (hover brake), saturated at
    /// euler_angle_max. From v̇ = c1·(c2·sinθ − (v − w)): sinθ = ((v − w) − k·v/c1)/c2.
    private func brakingTilt() -> PlaneVector {
        let c1 = dynamics.dragRatePerSecond, c2 = dynamics.speedPerSinTiltMetersPerSecond
        let k = dynamics.hoverBrakeRatePerSecond
        let wantedSine = (velocityENU - windENU - velocityENU * (k / c1)) / c2
        let sine = wantedSine.length
        guard sine > 0 else { return .zero }
        let tilt = wantedSine * (_asin(min(sine, 1)) / sine)
        return tilt.clamped(toLength: configuration.active.eulerAngleMaxRadians)
    }

    private mutating func integrateHorizontal(tiltReference: PlaneVector) {
        tiltWorldRadians += (tiltReference - tiltWorldRadians) * tiltAlpha
        // Horizontal thrust is sin(|tilt|) along the tilt direction: isotropic, so the top speed
        // does not depend on the heading (tum applies sin per body axis, which is the same for a
        // pure pitch or roll).
        let tiltAngle = tiltWorldRadians.length
        let steady = tiltAngle > 0
            ? tiltWorldRadians * (dynamics.speedPerSinTiltMetersPerSecond * _sin(tiltAngle) / tiltAngle)
            : PlaneVector.zero
        velocityENU += (steady + windENU - velocityENU) * velocityAlpha
        positionPlane += velocityENU * stepSeconds
    }

    private mutating func integrateYaw(rateReferenceDegreesPerSecond: Double) {
        yawRateDegreesPerSecond += (rateReferenceDegreesPerSecond - yawRateDegreesPerSecond) * yawAlpha
        var heading = noseHeadingDegrees + yawRateDegreesPerSecond * stepSeconds
        if heading >= 360 || heading < 0 { heading = normalizedDegrees360(heading) }
        noseHeadingDegrees = heading
    }

    private mutating func integrateVertical(climbReferenceMetersPerSecond: Double) {
        climbRateMetersPerSecond += (climbReferenceMetersPerSecond - climbRateMetersPerSecond) * verticalAlpha
        altitudeMeters += climbRateMetersPerSecond * stepSeconds
        // Hard limits behind the soft ones in `limitedClimb`: the firmware never leaves the band.
        let floor = configuration.altitudeMinMillimeters / 1000
        let ceiling = configuration.altitudeMaxMillimeters / 1000
        if altitudeMeters > ceiling {
            altitudeMeters = ceiling
            climbRateMetersPerSecond = min(climbRateMetersPerSecond, 0)
        }
        if altitudeMeters < floor {
            altitudeMeters = floor
            climbRateMetersPerSecond = max(climbRateMetersPerSecond, 0)
        }
    }

    /// Slows the climb reference near altitude_max and the descent near altitude_min.
    private func limitedClimb(_ reference: Double) -> Double {
        let gain = dynamics.altitudeLimitGainPerSecond
        let ceiling = configuration.altitudeMaxMillimeters / 1000
        let floor = configuration.altitudeMinMillimeters / 1000
        return max(min(reference, gain * (ceiling - altitudeMeters)), gain * (floor - altitudeMeters))
    }
}
