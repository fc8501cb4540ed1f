/// Noise models and plausibility limits for the two position estimators. Expert settings; why each
/// default: docs/configuration.md §3.4.
public struct EstimatorTuning: Sendable, Hashable {
    /// Fix-to-fix position noise of the person's receiver, metres (1σ per axis). Default 0.7, range 0.1…10.
    public var targetPositionSigmaMeters: Double = Spec.targetPositionSigmaMeters.defaultValue
    /// How hard the person may manoeuvre: white-acceleration spectral density, m²/s³. Default 0.25, range 0.01…10.
    public var targetAccelerationSpectralDensity: Double = Spec.targetAccelerationSpectralDensity.defaultValue
    /// Noise of a receiver-reported velocity (gpsd `speed`/`track`), m/s (1σ per axis). Default 0.3, range 0.01…5.
    public var reportedVelocitySigmaMetersPerSecond: Double = Spec.reportedVelocitySigmaMetersPerSecond.defaultValue
    /// Whether to fuse receiver-reported velocity at all. Default true.
    public var fusesReportedVelocity: Bool = true
    /// Fix-to-fix position noise of the onboard receiver, metres (1σ per axis). Default 0.7, range 0.1…10.
    public var dronePositionSigmaMeters: Double = Spec.dronePositionSigmaMeters.defaultValue
    /// Drone manoeuvre spectral density, m²/s³. Default 2, range 0.01…50.
    public var droneAccelerationSpectralDensity: Double = Spec.droneAccelerationSpectralDensity.defaultValue
    /// Noise of telemetry body velocity rotated to the plane, m/s (1σ per axis). Default 0.2, range 0.01…5.
    public var telemetryVelocitySigmaMetersPerSecond: Double = Spec.telemetryVelocitySigmaMetersPerSecond.defaultValue
    /// A jump between fixes faster than this plus `outlierAllowanceMeters` is not a person (or an
    /// AR.Drone), m/s. Default 12, range 3…50.
    public var maxPlausibleSpeedMetersPerSecond: Double = Spec.maxPlausibleSpeedMetersPerSecond.defaultValue
    /// Distance always allowed between consecutive fixes on top of the speed limit, metres. Default 4, range 0…50.
    public var outlierAllowanceMeters: Double = Spec.outlierAllowanceMeters.defaultValue
    /// This many consecutive rejected fixes agreeing with one another re-initialise there. Default 3, range 2…20.
    public var reinitialiseAfterFixes: Int = Spec.reinitialiseAfterFixes.integerDefault
    /// This many consecutive fixes timed before the last one mean a clock reset (or a restarted replay):
    /// accept and re-initialise. Default 5, range 2…50.
    public var clockResetAfterFixes: Int = Spec.clockResetAfterFixes.integerDefault
    /// Fixes an estimator must fuse after (re)initialising before its source counts as fresh. Default 3, range 1…20.
    public var fixesToConverge: Int = Spec.fixesToConverge.integerDefault
    /// Estimates are extrapolated to "now" by at most this, seconds. Default 2, range 0.5…10.
    public var maxPredictionSeconds: Double = Spec.maxPredictionSeconds.defaultValue
    /// The person counts as walking once the estimated speed exceeds this, m/s. Default 1.0, range 0.2…5.
    public var movingSpeedMetersPerSecond: Double = Spec.movingSpeedMetersPerSecond.defaultValue
    /// …for this many consecutive fixes. Default 2, range 1…10.
    public var movingConfirmationFixes: Int = Spec.movingConfirmationFixes.integerDefault
    /// …and as standing once it falls below this, m/s. Default 0.5, range 0.1…`movingSpeed`.
    public var stationarySpeedMetersPerSecond: Double = Spec.stationarySpeedMetersPerSecond.defaultValue
    /// A fix stamped further than this ahead of the stream's clock (arrival − fix time, recent minimum;
    /// `FixScreen`) is rejected, seconds. Default 1.5, range 0.2…10.
    public var maxFixLeadSeconds: Double = Spec.maxFixLeadSeconds.defaultValue

    /// The documented defaults.
    public init() {}
}

extension EstimatorTuning: ParameterSet {
    public static var defaults: Self { Self() }

    /// Unit, range and default of each numeric field, declared once (`ParameterSpec`).
    public enum Spec {
        public static let targetPositionSigmaMeters = ParameterSpec("targetPositionSigmaMeters", unit: "m", range: 0.1...10, default: 0.7)
        public static let targetAccelerationSpectralDensity = ParameterSpec("targetAccelerationSpectralDensity", unit: "m²/s³", range: 0.01...10, default: 0.25)
        public static let reportedVelocitySigmaMetersPerSecond = ParameterSpec("reportedVelocitySigmaMetersPerSecond", unit: "m/s", range: 0.01...5, default: 0.3)
        public static let dronePositionSigmaMeters = ParameterSpec("dronePositionSigmaMeters", unit: "m", range: 0.1...10, default: 0.7)
        public static let droneAccelerationSpectralDensity = ParameterSpec("droneAccelerationSpectralDensity", unit: "m²/s³", range: 0.01...50, default: 2)
        public static let telemetryVelocitySigmaMetersPerSecond = ParameterSpec("telemetryVelocitySigmaMetersPerSecond", unit: "m/s", range: 0.01...5, default: 0.2)
        public static let maxPlausibleSpeedMetersPerSecond = ParameterSpec("maxPlausibleSpeedMetersPerSecond", unit: "m/s", range: 3...50, default: 12)
        public static let outlierAllowanceMeters = ParameterSpec("outlierAllowanceMeters", unit: "m", range: 0...50, default: 4)
        public static let reinitialiseAfterFixes = ParameterSpec("reinitialiseAfterFixes", unit: "fixes", range: 2...20, default: 3)
        public static let clockResetAfterFixes = ParameterSpec("clockResetAfterFixes", unit: "fixes", range: 2...50, default: 5)
        public static let fixesToConverge = ParameterSpec("fixesToConverge", unit: "fixes", range: 1...20, default: 3)
        public static let maxPredictionSeconds = ParameterSpec("maxPredictionSeconds", unit: "s", range: 0.5...10, default: 2)
        public static let movingSpeedMetersPerSecond = ParameterSpec("movingSpeedMetersPerSecond", unit: "m/s", range: 0.2...5, default: 1.0)
        public static let movingConfirmationFixes = ParameterSpec("movingConfirmationFixes", unit: "fixes", range: 1...10, default: 2)
        public static let stationarySpeedMetersPerSecond = ParameterSpec("stationarySpeedMetersPerSecond", unit: "m/s", range: 0.1...5, default: 0.5)
        public static let maxFixLeadSeconds = ParameterSpec("maxFixLeadSeconds", unit: "s", range: 0.2...10, default: 1.5)

        /// Every entry, in field order.
        public static let all: [ParameterSpec] = EstimatorTuning.parameterFields.map(\.spec)
    }

    /// Every numeric field with its spec, in the order `validate()` checks them.
    public static let parameterFields: [ParameterField<EstimatorTuning>] = [
        .init(\.targetPositionSigmaMeters, Spec.targetPositionSigmaMeters),
        .init(\.targetAccelerationSpectralDensity, Spec.targetAccelerationSpectralDensity),
        .init(\.reportedVelocitySigmaMetersPerSecond, Spec.reportedVelocitySigmaMetersPerSecond),
        .init(\.dronePositionSigmaMeters, Spec.dronePositionSigmaMeters),
        .init(\.droneAccelerationSpectralDensity, Spec.droneAccelerationSpectralDensity),
        .init(\.telemetryVelocitySigmaMetersPerSecond, Spec.telemetryVelocitySigmaMetersPerSecond),
        .init(\.maxPlausibleSpeedMetersPerSecond, Spec.maxPlausibleSpeedMetersPerSecond),
        .init(\.outlierAllowanceMeters, Spec.outlierAllowanceMeters),
        .init(\.reinitialiseAfterFixes, Spec.reinitialiseAfterFixes),
        .init(\.clockResetAfterFixes, Spec.clockResetAfterFixes),
        .init(\.fixesToConverge, Spec.fixesToConverge),
        .init(\.maxPredictionSeconds, Spec.maxPredictionSeconds),
        .init(\.movingSpeedMetersPerSecond, Spec.movingSpeedMetersPerSecond),
        .init(\.movingConfirmationFixes, Spec.movingConfirmationFixes),
        // Its upper bound is the moving speed (hysteresis), within the spec's static range.
        .init(\.stationarySpeedMetersPerSecond, Spec.stationarySpeedMetersPerSecond, allowed: {
            Spec.stationarySpeedMetersPerSecond.range.lowerBound...$0.movingSpeedMetersPerSecond
        }),
        .init(\.maxFixLeadSeconds, Spec.maxFixLeadSeconds),
    ]
}
