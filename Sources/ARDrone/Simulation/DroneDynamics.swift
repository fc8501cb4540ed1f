import FollowCore

/// Fixed physical and firmware-behaviour parameters of the simulated AR.Drone 2.0 (things a
/// client cannot change with `AT*CONFIG`). The defaults follow
/// docs/dynamics-and-follow.md §1.4; every value without a published source is marked "our assumption".
public struct DroneDynamics: Sendable, Hashable {
    /// How PCMD roll/pitch become a tilt reference.
    public enum TiltCommandProfile: Sendable, Hashable {
        /// SDK semantics: tilt = u · euler_angle_max (ardrone_api.h; ardrone_autonomy issue #171).
        case sdk
        /// tum_ardrone's literal fit: tilt = 24° · clamp(u, ±0.5), ignoring euler_angle_max
        /// (tum_ardrone `cfg/StateestimationParams.cfg` c4 = 24; docs/dynamics-and-follow.md §1.2 caveat).
        case tumLiteral
    }

    // MARK: tum_ardrone prediction model (tum-vision/tum_ardrone cfg/StateestimationParams.cfg defaults)

    /// c1: 1/τ of horizontal velocity (drag), s⁻¹. tum cfg 0.58.
    public var dragRatePerSecond = 0.58
    /// c2: steady speed per unit sin(tilt), m/s. tum cfg 17.5.
    public var speedPerSinTiltMetersPerSecond = 17.5
    /// c3: 1/τ of the tilt response, s⁻¹. tum cfg 7.
    public var tiltRatePerSecond = 7.0
    /// c5: 1/τ of the yaw-rate response, s⁻¹. tum cfg 25.
    public var yawRateResponsePerSecond = 25.0
    /// c7: 1/τ of the vertical-speed response, s⁻¹. tum cfg 0.8.
    public var verticalRateResponsePerSecond = 0.8
    /// Descent commands act twice as strongly (tum model `u_gaz < 0 ? 2 : 1`). Optional: the SDK
    /// says gaz is a plain fraction of `control_vz_max`.
    public var descentAsymmetry = true
    /// How roll/pitch map to tilt.
    public var tiltProfile: TiltCommandProfile = .sdk

    // MARK: Latency and integration

    /// Delay from a PCMD's arrival to its effect, seconds. tum_ardrone `DroneKalmanFilter.cpp`
    /// `delayControl` default 100 ms (sweep 0.05–0.2).
    public var commandLatencySeconds = 0.1
    /// Fixed integration step, seconds (exact first-order updates, then semi-implicit Euler for
    /// positions). Our choice: 5 ms.
    public var stepSeconds = 0.005

    // MARK: Firmware behaviours (our assumptions, documented)

    /// Hover (PCMD flag 0, lost com, takeoff, landing): the firmware's own velocity loop, modelled
    /// as the tilt that makes ground velocity decay as v̇ = −k·v (τ = 1/k ≈ 0.67 s), saturated at
    /// euler_angle_max. Our assumption; no published figure.
    public var hoverBrakeRatePerSecond = 1.5
    /// Wind, m/s ENU: drag acts on air-relative velocity, v̇ = c1·(c2·sin(tilt) − (v − wind))
    /// (docs/dynamics-and-follow.md §1.4 "bias acceleration c1·w_wind").
    public var windENU: PlaneVector = .zero
    /// Whether the firmware raises navdata state bit 20 "too much wind" (`DroneSimulator.isWindTooStrong`).
    /// Default true; false models a firmware that never says so, to test the follower's own wind
    /// detection (`followme bench --no-wind-bit`).
    public var reportsWindWarning = true
    /// Motors spin up on the ground before the climb starts, seconds. Our assumption.
    public var takeoffSpinUpSeconds = 1.0
    /// Automatic takeoff climb rate, m/s. Our assumption (reaches 1 m ≈ 3.5 s after REF).
    public var takeoffClimbMetersPerSecond = 0.4
    /// Altitude at which takeoff ends and the drone hovers, metres ("about 1 m").
    public var takeoffAltitudeMeters = 1.0
    /// Automatic landing descent rate, m/s. Our assumption.
    public var landingDescentMetersPerSecond = 0.5
    /// Gain that slows vertical speed near altitude_max / altitude_min, s⁻¹. Our assumption.
    public var altitudeLimitGainPerSecond = 1.0
    /// Total silence after which a drone hovering on lost com lands, seconds. The first stage
    /// (hover) is `general:com_watchdog` (2 s); "hover, then land" is docs/ardrone-protocol.md §2.2's reading of
    /// `COM_INPUT_LANDING_TIME` and the LOST_COM hovering states. The 5 s is our assumption.
    public var comLossLandingSeconds = 5.0

    // MARK: Battery (our assumptions: ≈12 min of flight on a full pack)

    /// Battery at start, percent.
    public var initialBatteryPercent = 100.0
    /// Drain while the motors run, percent per second (100 % in 12 min).
    public var flyingDrainPercentPerSecond = 100.0 / 720
    /// Drain while landed (electronics, Wi-Fi), percent per second (100 % in 2 h).
    public var landedDrainPercentPerSecond = 100.0 / 7200
    /// Below this the navdata VBAT_LOW bit (15) is set, percent.
    public var lowBatteryPercent = 20.0
    /// At or below this the drone lands by itself and refuses to take off, percent.
    public var forcedLandingBatteryPercent = 3.0

    /// The tum_ardrone constants with SDK command semantics (docs/dynamics-and-follow.md §1.4).
    public static let standard = DroneDynamics()

    /// A plant that is *not* the controller's own model (docs/bench.md §6): the tum constants
    /// scaled c1 ×0.8 (less drag: slower to settle, 2.16 s velocity time constant) and c2 ×1.15
    /// (more speed per tilt), and a 180 ms command latency instead of 100 ms (inside tum's
    /// measured 50–200 ms `delayControl` range). The scale factors are our choice.
    public static let offModel: DroneDynamics = {
        var d = DroneDynamics()
        d.dragRatePerSecond *= 0.8
        d.speedPerSinTiltMetersPerSecond *= 1.15
        d.commandLatencySeconds = 0.18
        return d
    }()
}
