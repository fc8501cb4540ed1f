import FollowCore

/// One recorded instant of a run, for plots: true positions on the scenario's plane.
public struct BenchTrackSample: Sendable, Hashable {
    /// Seconds since the run started (the person starts at `BenchConfiguration.personStartSeconds`).
    public var timeSeconds: Double
    /// The person, metres east/north of the scenario origin.
    public var personPlane: PlaneVector
    /// The drone, metres east/north of the scenario origin.
    public var dronePlane: PlaneVector
    /// The drone's nose, compass degrees.
    public var noseHeadingDegrees: Double
    /// The simulated drone's altitude (m) and battery (%), for the run's report page.
    public var altitudeMeters: Double? = nil
    public var batteryPercent: Double? = nil
    /// The last PCMD sent (pilot fractions roll, pitch, gaz, yaw; 0 while hovering).
    public var pcmd: [Double]? = nil
    /// The oldest the controller's latest fix from the person's / the drone's receiver got since the
    /// previous sample, seconds (the peak of the fix age: a gap between fixes shows whole).
    public var targetFixAgeSeconds: Double? = nil
    public var onboardFixAgeSeconds: Double? = nil
}

/// How well a run followed, from true positions (never from what the controller believed).
///
/// "Settled" samples are the control ticks from `personStartSeconds + settleSeconds` on, whatever
/// the drone was doing (holding, landed or lagging all count against it).
public struct BenchMetrics: Sendable, Hashable {
    /// RMS of |distance − standoff| over the settled samples, metres.
    public var rangeErrorRMSMeters: Double
    /// 95th percentile (nearest rank) of |distance − standoff| over the settled samples, metres.
    public var rangeErrorP95Meters: Double
    /// Largest |distance − standoff| over the settled samples, metres.
    public var rangeErrorMaxMeters: Double
    /// Mean horizontal distance drone–person over the settled samples, metres.
    public var meanDistanceMeters: Double
    /// Smallest horizontal distance drone–person while the drone was airborne, whole run, metres
    /// (+∞ if it never flew).
    public var minSeparationMeters: Double
    /// When the closest approach happened, seconds from the start of the run (nil if it never flew).
    public var minSeparationAtSeconds: Double?
    /// Airborne time spent closer to the person than the configured `minSeparationMeters`
    /// (true positions), seconds: the safety metric, 0 when the rule held.
    public var secondsBelowMinSeparation: Double
    /// RMS angle between the nose and the bearing to the person, settled samples while airborne
    /// and more than 1 m apart, degrees.
    public var facingErrorRMSDegrees: Double
    /// Time the drone spent off the ground, seconds.
    public var airborneSeconds: Double
    /// Settled control ticks the metrics are computed over.
    public var settledSamples: Int
    /// Fraction of the settled samples FollowMe spent in `following` (nil for the baseline).
    public var followingFraction: Double?
    /// Mean trailing while the person moves (settled samples, person ≥ 0.5 m/s): how far the drone
    /// is behind the person along their direction of travel, minus the standoff, metres. Positive =
    /// lagging further back than the standoff. nil if the person never moved.
    public var trailingMeanMeters: Double?
    /// Length of the mean of (drone − aim point) over the settled samples in `following`, metres:
    /// a standing bias, e.g. the offset a steady wind leaves without integral action. The aim
    /// point is FollowMe's own (`FollowOutput.aimPoint`); nil for the baseline or if it never
    /// followed.
    public var aimBiasMeters: Double?
    /// RMS |drone − aim point| over the same samples, metres.
    public var aimErrorRMSMeters: Double?
    /// Largest horizontal distance of the drone from its take-off point during FollowMe's first
    /// take-off and climb (states taking-off, climbing; true positions), metres; nil for the baseline.
    public var climbDriftMeters: Double?
    /// Seconds labelled `following` while the person moved, the drone was more than 3 m beyond the
    /// standoff and slower than half the person's speed: "following" in name only (e.g. parked at a
    /// fence without saying so). Settled samples.
    public var stalledFollowingSeconds: Double
    /// Seconds in each FollowMe flight state over the whole run, in order of first appearance
    /// (`following`, `holding(geofence)`, …); empty for the baseline.
    public var secondsByState: [StateSeconds]
    /// The drone's speed response after the person starts (docs/mavlink.md §9), from the start with the largest
    /// overshoot; nil if the person never started while the drone was airborne.
    public var speedAfterStart: SpeedAfterStart?
    /// The follow mode's own figures (angle error, orbit speed; docs/bench.md §5), nil for the leash and the
    /// baseline (`BenchMetrics.FollowModeFigures`).
    public var followMode: FollowModeFigures? = nil

    /// How the drone's horizontal ground speed answered the person starting to move (speed rising
    /// through 0.5 m/s while the drone is airborne), true velocities. The window runs from the start
    /// until the person stops or 30 s have passed; excess = |v_drone| − |v_person| at the same tick.
    /// A follow that catches up without ringing shows one swing and a settle time; speed ringing
    /// (the AR.Drone lead stacked on an autopilot's loop) shows many swings at its period.
    public struct SpeedAfterStart: Sendable, Hashable {
        /// Starts counted over the run (each opened a window; the figures are the worst one's).
        public var personStarts: Int
        /// When that start happened, seconds from the start of the run, and how long its window lasted.
        public var startSeconds: Double
        public var windowSeconds: Double
        /// Speed overshoot: the peak excess over the window, m/s (≤ 0: the drone never outran the person).
        public var overshootMetersPerSecond: Double
        /// The same as a percentage of the person's mean speed over the window.
        public var overshootPercent: Double
        /// The person's mean speed over the window, m/s.
        public var meanPersonSpeedMetersPerSecond: Double
        /// Speed swings: how often the excess rose above +0.1 m/s after being below −0.1 m/s (the
        /// drone starts slower than the person, so the first catch-up counts one).
        public var swings: Int
        /// Mean time between successive swings, seconds: the ringing period (nil below two swings).
        public var ringingPeriodSeconds: Double?
        /// Settle time: from the start until |excess| stays ≤ 0.2 m/s for the rest of the window, that
        /// rest lasting ≥ 3 s, seconds (nil: never settled within the window).
        public var settleSeconds: Double?
    }

    /// Time in one flight state.
    public struct StateSeconds: Sendable, Hashable {
        public var name: String
        public var seconds: Double
    }
}

/// A state change of the controller during a run (FollowMe's flight-state transitions).
public struct BenchEvent: Sendable, Hashable {
    public var timeSeconds: Double
    /// e.g. `preflight → taking-off (prerequisites-met)`.
    public var description: String
    /// The state entered (`taking-off`) and why (`prerequisites-met`), for the report's state bands.
    public var state: String? = nil
    public var reason: String? = nil
}

/// Everything one run produced.
public struct BenchResult: Sendable, Hashable {
    public var scenario: String
    public var scenarioKind: BenchScenario.Kind
    public var controller: BenchController
    public var noise: BenchNoise
    public var seed: UInt64
    /// The scenario's plane origin (for turning the track back into coordinates).
    public var origin: GeoCoordinate
    public var standoffMeters: Double
    /// The plant that flew (`nominal`, `off-model`).
    public var plant: BenchPlant = .nominal
    /// The link it flew behind (the AR.Drone's, or MAVLink to the simulated Copter).
    public var link: BenchLink = .ardrone
    /// The wind of the run (the scenario's, else the configuration's).
    public var wind: WindModel.Parameters = .calm
    /// The geofence radius FollowMe had, metres.
    public var geofenceMeters: Double = 0
    /// Simulated time of the whole run, seconds (take-off wait included).
    public var simulatedSeconds: Double
    public var metrics: BenchMetrics
    /// The simulated drone's state at the end: `landed`, `taking-off`, `flying`, `landing`, `emergency`.
    public var finalDroneState: String
    /// FollowMe's flight state at the end (e.g. `following`, `holding:target-stale`); `naive` for the baseline.
    public var finalControllerState: String
    /// FollowMe's transitions, in order (empty for the baseline).
    public var events: [BenchEvent]
    /// Person and drone every `trackSampleSeconds`.
    public var track: [BenchTrackSample]
}
