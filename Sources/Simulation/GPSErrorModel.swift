import FollowCore

/// Error and timing model of one simulated GPS receiver (per horizontal axis unless stated).
///
/// Position error = σ_b·(√ρ·c + √(1−ρ)·i) + s + w, where c is the Gauss–Markov component
/// shared with the other receiver, i this receiver's own Gauss–Markov component (both unit
/// variance, §3.2/§3.4 of docs/dynamics-and-follow.md), s the decaying offset left by rare
/// steps (constellation changes, §3.2) and w white noise.
public struct GPSReceiverModel: Sendable, Hashable {
    /// Stationary standard deviation of the slow bias, metres per axis (σ_b).
    public var biasSigmaMeters: Double = 0
    /// Correlation time of this receiver's own bias (and of step decay), seconds (τ).
    public var biasTimeConstantSeconds: Double = 300
    /// White noise per fix, metres per axis (σ_w).
    public var whiteSigmaMeters: Double = 0
    /// Fixes per second (1, 5, 10 Hz are typical; docs/dynamics-and-follow.md §3.1).
    public var fixRateHertz: Double = 5
    /// Delay from a fix's true time to its arrival from gpsd, seconds (docs/dynamics-and-follow.md §3.3: ≈0.31 s at 19200 bps).
    public var latencySeconds: Double = 0
    /// Velocity noise per axis, m/s (speed and track come from the noisy velocity).
    public var velocitySigmaMetersPerSecond: Double = 0
    /// Heading-report noise, degrees (only receivers given a nose heading report one).
    public var headingSigmaDegrees: Double = 0
    /// Drone nose heading minus receiver heading, degrees (the `onboard.mount_offset_deg` of
    /// `HeadingReport`): the report is nose − mountOffset.
    public var mountOffsetDegrees: Double = 0
    /// Mean rate of sudden position steps, per hour (0 = none).
    public var stepsPerHour: Double = 0
    /// Size range of a step, metres, random direction.
    public var stepMinMeters: Double = 1
    public var stepMaxMeters: Double = 3
    /// Whether fixes carry speed and track (Doppler velocity, as u-blox/MTK receivers report in
    /// TPV `speed`/`track`). Default true. When false the velocity noise is still drawn, so the
    /// position errors of a seed stay the same with and without it.
    public var reportsVelocity: Bool = true
    /// Altitude error (`VerticalErrorModel`); none by default, so an altitude is the truth.
    public var vertical = VerticalErrorModel()

    /// No error and no latency at `fixRateHertz`: fixes are the truth, received when taken.
    public static func perfect(fixRateHertz: Double = 5, latencySeconds: Double = 0) -> GPSReceiverModel {
        GPSReceiverModel(fixRateHertz: fixRateHertz, latencySeconds: latencySeconds)
    }

    /// A consumer u-blox-class receiver (docs/dynamics-and-follow.md §3.2 recommended
    /// default): σ_b 2 m (≈2.5 m CEP), τ 300 s, σ_w 0.3 m, 5 Hz, 0.3 s gpsd latency (ESR
    /// "Where's the Latency?", ≈310 ms at 19200 bps), velocity σ 0.05 m/s (u-blox spec). The 2°
    /// heading noise is our assumption (no published figure for the onboard heading source).
    public static let realistic = GPSReceiverModel(
        biasSigmaMeters: 2, biasTimeConstantSeconds: 300, whiteSigmaMeters: 0.3,
        fixRateHertz: 5, latencySeconds: 0.3,
        velocitySigmaMetersPerSecond: 0.05, headingSigmaDegrees: 2
    )

    /// The horizontal 95 % radius implied by the model (R95 = 2.448σ for a circular Gaussian,
    /// docs/dynamics-and-follow.md §3.1), metres; reported as the fix's `ephMeters`.
    public var horizontal95Meters: Double {
        2.448 * (biasSigmaMeters * biasSigmaMeters + whiteSigmaMeters * whiteSigmaMeters).squareRoot()
    }
}

/// The GPS error model for the two receivers of a follow-me run (person and drone).
public struct GPSErrorModel: Sendable, Hashable {
    /// The receiver carried by the person.
    public var target: GPSReceiverModel
    /// The receiver on the drone.
    public var onboard: GPSReceiverModel
    /// Fraction ρ ∈ [0, 1] of the bias variance the two receivers share (same satellites, same
    /// corrections): relative error per axis σ_b·√(2(1−ρ)) (docs/dynamics-and-follow.md §3.4). No published ρ; sweep 0–0.9.
    public var sharedCorrelation: Double
    /// Correlation time of the shared component, seconds.
    public var sharedTimeConstantSeconds: Double

    public init(
        target: GPSReceiverModel,
        onboard: GPSReceiverModel,
        sharedCorrelation: Double = 0,
        sharedTimeConstantSeconds: Double = 300
    ) {
        self.target = target
        self.onboard = onboard
        self.sharedCorrelation = min(max(sharedCorrelation, 0), 1)
        self.sharedTimeConstantSeconds = sharedTimeConstantSeconds
    }

    /// The model for one role.
    public func receiver(_ role: ReceiverRole) -> GPSReceiverModel {
        role == .target ? target : onboard
    }

    /// No error, 5 Hz, no latency: every fix is the truth at its time.
    public static let clean = GPSErrorModel(target: .perfect(), onboard: .perfect())

    /// Perfect positions with real timing (controller-quality runs, docs/dynamics-and-follow.md §4.2).
    public static func perfect(fixRateHertz: Double, latencySeconds: Double) -> GPSErrorModel {
        let r = GPSReceiverModel.perfect(fixRateHertz: fixRateHertz, latencySeconds: latencySeconds)
        return GPSErrorModel(target: r, onboard: r)
    }

    /// Two u-blox-class receivers sharing half their bias variance (ρ 0.5): σ_b 2 m, τ 300 s,
    /// σ_w 0.3 m, 5 Hz, 0.3 s latency (docs/dynamics-and-follow.md §3.2 recommended default,
    /// §3.4 correlation model, §4.2 noisy cases).
    public static let realistic = GPSErrorModel(
        target: .realistic, onboard: .realistic, sharedCorrelation: 0.5, sharedTimeConstantSeconds: 300
    )
}

/// Error of one receiver's altitude: a slow Gauss–Markov bias (the receiver's τ), white noise, and rare
/// multipath spikes that put a fix or two far below the truth. Drawn from the receiver's own vertical
/// random stream (`GPSPairSimulator`), so adding it changes no horizontal error of a seed.
public struct VerticalErrorModel: Sendable, Hashable {
    /// Stationary standard deviation of the slow bias, metres.
    public var biasSigmaMeters: Double = 0
    /// White noise per fix, metres.
    public var whiteSigmaMeters: Double = 0
    /// Mean rate of spikes, per hour (0 = none); each lasts 1 or 2 fixes.
    public var spikesPerHour: Double = 0
    /// Depth range of a spike, metres below the truth.
    public var spikeMinMeters: Double = 10, spikeMaxMeters: Double = 40

    public init() {}

    /// Whether it adds any error.
    public var isZero: Bool { biasSigmaMeters == 0 && whiteSigmaMeters == 0 && spikesPerHour == 0 }

    /// A consumer receiver's altitude (our assumption from the rule of thumb that vertical error is 1.5–3×
    /// the horizontal; no published figure for a puck): 2× `GPSReceiverModel.realistic`'s, σ_b 4 m with its
    /// τ 300 s and σ_w 0.6 m; plus a 10–40 m multipath spike once a minute on average (a stress figure, rare
    /// in open sky, common in a street canyon or under a cliff).
    public static let realistic: VerticalErrorModel = {
        var model = VerticalErrorModel()
        (model.biasSigmaMeters, model.whiteSigmaMeters, model.spikesPerHour) = (4, 0.6, 60)
        return model
    }()
}
