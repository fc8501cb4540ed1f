import FollowCore

/// A 2-D first-order Gauss–Markov process (per axis independent) with unit stationary variance.
///
/// Exact discretisation for any step Δt (docs/dynamics-and-follow.md §3.2):
/// x ← e^{−Δt/τ}·x + √(1 − e^{−2Δt/τ})·n, n ~ N(0, 1). It starts in its stationary
/// distribution, so statistics do not depend on how long the run has been going.
/// τ = +∞ gives a random constant.
public struct GaussMarkovProcess: Sendable, Hashable {
    /// Correlation time τ, seconds.
    public let timeConstantSeconds: Double
    /// Current value (unit variance per axis).
    public private(set) var value: PlaneVector
    /// Time of `value`.
    public private(set) var time: MonotonicTime

    /// Draws the initial value from N(0, 1) per axis.
    public init(timeConstantSeconds: Double, start: MonotonicTime, generator: inout SplitMix64) {
        self.timeConstantSeconds = timeConstantSeconds
        self.time = start
        self.value = generator.nextGaussianPlaneVector(sigma: 1)
    }

    /// Moves the process to `t` and returns its value there. Times before the current one return
    /// the current value unchanged (the process cannot run backwards).
    public mutating func value(at t: MonotonicTime, generator: inout SplitMix64) -> PlaneVector {
        let dt = t.seconds(since: time)
        guard dt > 0 else { return value }
        time = t
        guard timeConstantSeconds.isFinite else { return value }
        guard timeConstantSeconds > 0 else {
            value = generator.nextGaussianPlaneVector(sigma: 1) // τ = 0: white
            return value
        }
        let decay = _exp(-dt / timeConstantSeconds)
        value = value * decay + generator.nextGaussianPlaneVector(sigma: (1 - decay * decay).squareRoot())
        return value
    }
}
