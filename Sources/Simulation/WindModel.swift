import FollowCore

/// Horizontal wind at the drone: a steady mean plus gusts, deterministic for a seed.
///
/// Gusts are a first-order Gauss–Markov process per horizontal axis (exact discretisation,
/// `GaussMarkovProcess`) with stationary standard deviation `gustSigmaMetersPerSecond` and
/// correlation time `gustTimeConstantSeconds`. That is the Dryden longitudinal turbulence
/// filter, H_u(s) = σ_u·√(2L_u/(πV)) / (1 + (L_u/V)·s): white noise through one first-order lag
/// of time constant L_u/V. We use the same first-order form for the lateral axis as well (the
/// Dryden lateral filter is second order; a simplification, our choice: it keeps the gust
/// variance and correlation time, which is what a position loop feels).
/// Source of the Dryden forms and the low-altitude scales used by `dryden(meanENU:altitudeMeters:)`:
/// MIL-F-8785C §3.7 / MIL-HDBK-1797, as implemented in the MathWorks Aerospace Blockset "Dryden
/// Wind Turbulence Model (Continuous)" documentation (mathworks.com/help/aeroblks/
/// drydenwindturbulencemodelcontinuous.html).
public struct WindModel: Sendable, Hashable {
    /// What the wind is like.
    public struct Parameters: Sendable, Hashable {
        /// Mean wind, m/s: the velocity the air moves with (east/north), not where it comes from.
        public var meanENU: PlaneVector = .zero
        /// Stationary standard deviation of the gusts per horizontal axis, m/s (0 = steady wind).
        public var gustSigmaMetersPerSecond: Double = 0
        /// Correlation time of the gusts, seconds (Dryden: L_u / V).
        public var gustTimeConstantSeconds: Double = 5

        /// No wind.
        public static let calm = Parameters()

        /// A steady wind of `speedMetersPerSecond` blowing *towards* compass `towardsDegrees`.
        public static func steady(speedMetersPerSecond: Double, towardsDegrees: Double) -> Parameters {
            Parameters(meanENU: PlaneVector.unit(bearingDegrees: towardsDegrees) * speedMetersPerSecond)
        }

        /// Dryden low-altitude gusts on top of `meanENU` for a drone at `altitudeMeters`
        /// (MIL-F-8785C low-altitude model, h < 1000 ft, h in feet):
        /// σ_w = 0.1·W20, σ_u = σ_w / (0.177 + 0.000823·h)^0.4, L_u = h / (0.177 + 0.000823·h)^1.2,
        /// τ = L_u / V. W20 (wind at 20 ft) is taken as |meanENU| and V (the speed the drone moves
        /// through the frozen gust field) as |meanENU| for a drone keeping station, at least 1 m/s
        /// (our choices). At 3 m and 5 m/s: σ_u ≈ 0.98 m/s, L_u ≈ 23 m, τ ≈ 4.6 s.
        public static func dryden(meanENU: PlaneVector, altitudeMeters: Double = 3) -> Parameters {
            let feetPerMeter = 1 / 0.3048
            let h = max(altitudeMeters, 0.5) * feetPerMeter
            let w20 = meanENU.length
            let sigmaW = 0.1 * w20
            let base = 0.177 + 0.000823 * h
            let sigmaU = sigmaW / _exp(0.4 * _log(base))
            let lengthU = h / _exp(1.2 * _log(base)) / feetPerMeter
            let airspeed = max(w20, 1)
            return Parameters(meanENU: meanENU, gustSigmaMetersPerSecond: sigmaU,
                              gustTimeConstantSeconds: lengthU / airspeed)
        }

        /// Checks the fields are finite and non-negative (time constant positive).
        public var isValid: Bool {
            meanENU.isFinite && gustSigmaMetersPerSecond.isFinite && gustSigmaMetersPerSecond >= 0
                && gustTimeConstantSeconds.isFinite && gustTimeConstantSeconds > 0
        }
    }

    public let parameters: Parameters
    private var generator: SplitMix64
    private var gust: GaussMarkovProcess

    /// A wind field starting at `start`; the gust draws from its own stream of `seed`.
    public init(parameters: Parameters, seed: UInt64, start: MonotonicTime = .zero) {
        self.parameters = parameters
        var generator = SplitMix64(seed: seed, stream: Self.stream)
        gust = GaussMarkovProcess(timeConstantSeconds: parameters.gustTimeConstantSeconds, start: start,
                                  generator: &generator)
        self.generator = generator
    }

    /// SplitMix64 stream of the gusts, so they never share random numbers with the GPS errors
    /// drawn from the same seed. Arbitrary constant, our choice ("WIND").
    static let stream: UInt64 = 0x5749_4E44

    /// The wind at `t`, m/s ENU (times must not go backwards; earlier times return the last value).
    public mutating func windENU(at t: MonotonicTime) -> PlaneVector {
        guard parameters.gustSigmaMetersPerSecond > 0 else { return parameters.meanENU }
        return parameters.meanENU + gust.value(at: t, generator: &generator) * parameters.gustSigmaMetersPerSecond
    }
}

extension WindModel.Parameters: Configurable { public static var defaults: Self { Self() } }
