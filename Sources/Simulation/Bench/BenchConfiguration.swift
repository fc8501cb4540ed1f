import FollowCore
import ARDrone
import MAVLink

/// The settings shared by every run of a benchmark. Defaults are the `followme bench` defaults.
public struct BenchConfiguration: Sendable, Hashable {
    /// Seed of the GPS error realisation. Every scenario and both controllers use the same seed,
    /// so they see the same noise. Default 1.
    public var seed: UInt64 = 1
    /// How long the person moves, seconds (a replay stops earlier when its track ends).
    /// Default 240, range 10…7200.
    public var durationSeconds: Double = 240
    /// The person stands at the start this long while the drone takes off and climbs, seconds.
    /// Default 15, range 0…120.
    public var personStartSeconds: Double = 15
    /// Following metrics count from this long after the person starts, seconds (take-off and the
    /// first catch-up excluded). Default 15, range 0…600; must leave some of `durationSeconds`.
    public var settleSeconds: Double = 15
    /// Horizontal distance both controllers keep from the person, metres (FollowMe's
    /// `standoffMeters`; the baseline hovers inside it). Default 8 (with `failsafe`'s default it satisfies
    /// FollowCore's own standoff rule); `followme bench` passes the shipped config's.
    public var standoffMeters: Double = 8
    /// `control:euler_angle_max` of the simulated drone, degrees, for both controllers; FollowMe's
    /// `maxTiltDegrees` is set to it. Default 12: the SDK default (ARDroneLib `config_keys.h`,
    /// docs/dynamics-and-follow.md §1.1), which the objc.io app never changed. Range 1…30.
    public var eulerAngleMaxDegrees: Double = 12
    /// FollowMe's `brakingTiltDegrees`, degrees: its runs' `control:euler_angle_max` is
    /// `effectiveBrakingTiltDegrees` (the baseline's PCMD keeps meaning `eulerAngleMaxDegrees`). Default the
    /// shipped 25. Range 1…30.
    public var brakingTiltDegrees: Double = FollowParameters.Spec.brakingTiltDegrees.defaultValue
    /// `control:altitude_max` written to the drone at start, metres (the shipped config's 10 m;
    /// the drone's own default 3 m would cap FollowMe's 3 m follow height).
    public var altitudeMaxMeters: Double = 10
    /// Control period, seconds: both controllers' commands are (re)sent this often, like the
    /// link's 30 ms AT loop (AR.Drone Developer Guide §6). Default 0.03.
    public var controlPeriodSeconds: Double = 0.03
    /// Navdata rate, Hz: 15 in demo mode (docs/ardrone-protocol.md §1.3). Default 15.
    public var navdataRateHertz: Double = 15
    /// Spacing of the recorded person/drone track samples (for plots), seconds. Default 0.5.
    public var trackSampleSeconds: Double = 0.5
    /// FollowMe's failsafes. Default: the product defaults except a 1000 m geofence, so a long straight
    /// walk measures following, not the fence, and no GPS relative error (the tests' calibration;
    /// `followme bench` passes the shipped config's).
    public var failsafe: FailsafeParameters = FailsafeParameters { ($0.geofenceMeters, $0.gpsRelativeErrorMeters) = (1000, 0) }
    /// The simulated drone's dynamics. Default `.nominal`.
    public var plant: BenchPlant = .nominal
    /// Wind at the drone for every scenario that does not bring its own (`BenchScenario.wind`).
    /// Default calm.
    public var wind: WindModel.Parameters = .calm
    /// Whether the simulated AR.Drone raises navdata's "too much wind" bit (`DroneDynamics.reportsWindWarning`).
    /// Default true; false leaves wind detection to FollowMe's own wind monitor.
    public var firmwareReportsWind: Bool = true
    /// The person's receiver's fix rate, Hz, overriding the noise model's 5 Hz; nil = 5 Hz.
    /// Range 0.2…20.
    public var targetRateHertz: Double? = nil
    /// Whether the person's fixes carry Doppler speed and track. Default true.
    public var targetReportsVelocity: Bool = true
    /// The product's failsafe defaults, for scenarios that ask for them
    /// (`BenchScenario.usesShippedFailsafe`); their separation fields are replaced by `failsafe`'s.
    /// Default `FailsafeParameters()`; `followme bench` sets it from the shipped config's defaults.
    public var shippedFailsafe: FailsafeParameters = .defaults
    /// Adds a worst-case bounded relative GPS error: every person fix is taken this far *farther
    /// from the drone* than the truth (along drone → person), so the drone believes the person is
    /// farther away than they are by exactly this much, metres. 0 = off. With clean noise and this
    /// equal to `gps_relative_error_m` it tests FollowMe's promise at the edge of its premise
    /// ("never closer than min_separation_m while the relative error stays within
    /// gps_relative_error_m"). Range 0…20.
    public var adversarialTargetOffsetMeters: Double = 0
    /// Where FollowMe's onboard position and heading come from on the MAVLink link (`BenchLink.mavlink`):
    /// the autopilot's own estimate (`GLOBAL_POSITION_INT` through the session; the product default,
    /// mount offset 0) or the simulated onboard receiver, as on the AR.Drone. Default `.autopilot`.
    public var mavlinkPositionSource: MAVLinkLinkConfiguration.PositionSource = .autopilot
    /// Both simulated receivers deliver each fix this many seconds after its epoch (the fix time is the
    /// epoch), and FollowMe dates each fix by its receiver's `FixAgeMeter` against the simulated host
    /// clock, trusted; range 0…0.6. nil (the default): each noise model's own latency and the configured
    /// ages, as a flight whose fixes carry no measured age.
    public var receiverLatencySeconds: Double? = nil

    /// Checks every field the runner relies on.
    public func validate() throws(BenchError) {
        try Self.check("durationSeconds", durationSeconds, 10...7200)
        try Self.check("personStartSeconds", personStartSeconds, 0...120)
        try Self.check("settleSeconds", settleSeconds, 0...600)
        try Self.check("eulerAngleMaxDegrees", eulerAngleMaxDegrees, 1...30)
        try Self.check("brakingTiltDegrees", brakingTiltDegrees, 1...30)
        try Self.check("altitudeMaxMeters", altitudeMaxMeters, 1...100)
        try Self.check("controlPeriodSeconds", controlPeriodSeconds, 0.005...0.25)
        try Self.check("navdataRateHertz", navdataRateHertz, 1...200)
        try Self.check("trackSampleSeconds", trackSampleSeconds, 0.01...60)
        if let targetRateHertz { try Self.check("targetRateHertz", targetRateHertz, 0.2...20) }
        try Self.check("adversarialTargetOffsetMeters", adversarialTargetOffsetMeters, 0...20)
        if let receiverLatencySeconds {
            try Self.check("receiverLatencySeconds", receiverLatencySeconds, SimulatorConfiguration.receiverLatencyRange)
        }
        guard wind.isValid else {
            throw .invalidConfiguration(field: "wind", value: wind.gustSigmaMetersPerSecond,
                                        requirement: "mean and gusts must be finite, gusts ≥ 0, time constant > 0")
        }
        guard settleSeconds < durationSeconds else {
            throw .invalidConfiguration(field: "settleSeconds", value: settleSeconds,
                                        requirement: "must be less than durationSeconds (\(durationSeconds))")
        }
        do {
            // Also the rules between them (standoff outside the protected radius).
            let follow = followParameters(drone: DroneConfiguration())
            _ = try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: .tiltLoop)
        } catch {
            throw .parameters(error)
        }
    }

    /// The tilt FollowMe's PCMD ±1 means on the simulated drone, degrees: max(braking, cruise).
    public var effectiveBrakingTiltDegrees: Double { max(brakingTiltDegrees, eulerAngleMaxDegrees) }

    /// FollowMe's parameters for a drone configured like `drone`: the standoff, and tilt, yaw-rate
    /// and climb limits equal to the drone's (what a PCMD ±1 means), the rest product defaults.
    public func followParameters(drone: DroneConfiguration) -> FollowParameters {
        FollowParameters {
            $0.standoffMeters = standoffMeters
            $0.maxTiltDegrees = eulerAngleMaxDegrees
            $0.brakingTiltDegrees = brakingTiltDegrees
            $0.maxYawRateDegreesPerSecond = degrees(fromRadians: drone.active.yawRateMaxRadiansPerSecond)
            $0.maxClimbMetersPerSecond = drone.active.verticalSpeedMaxMillimetersPerSecond / 1000
            $0.altitudeCeilingMeters = altitudeMaxMeters
            // The rate the standoff rule is sized for: the bench's target receiver rate (its GPS
            // models run the target at 5 Hz unless `targetRateHertz` says otherwise).
            $0.targetFixRateHz = targetRateHertz ?? GPSReceiverModel().fixRateHertz
        }
    }

    /// The smallest `standoffMeters` FollowCore accepts with this configuration's failsafe
    /// (found on `FlightStateMachine`'s own check, to 1 mm), or nil if none up to 100 m is
    /// accepted. Follows whatever rule FollowCore enforces, so the bench tests the
    /// tightest standoff a user can configure.
    public func smallestAcceptedStandoffMeters() -> Double? {
        func accepted(_ standoff: Double) -> Bool {
            var c = self
            c.standoffMeters = standoff
            let follow = c.followParameters(drone: DroneConfiguration())
            return (try? FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: .tiltLoop)) != nil
        }
        // Scan up in 0.5 m steps for the first accepted value (FollowCore also has an upper
        // bound), then bisect between it and the last rejected one.
        var low = 0.0
        if accepted(low) { return low }
        var high = 0.5
        while !accepted(high) {
            low = high
            high += 0.5
            if high > 100 { return nil }
        }
        while high - low > 0.0005 {
            let mid = (low + high) / 2
            if accepted(mid) { high = mid } else { low = mid }
        }
        return (high * 1000).rounded(.up) / 1000
    }

    private static func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws(BenchError) {
        guard value.isFinite, range.contains(value) else {
            throw .invalidConfiguration(field: field, value: value,
                                        requirement: "must be within \(range.lowerBound)…\(range.upperBound)")
        }
    }
}

extension BenchConfiguration: Configurable { public static var defaults: Self { Self() } }
