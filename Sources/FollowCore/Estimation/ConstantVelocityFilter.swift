/// A 2-D constant-velocity Kalman filter on the local plane: position (m) and velocity (m/s) east and
/// north, both axes sharing one 2×2 covariance; white-acceleration process noise
/// (`accelerationSpectralDensity`, m²/s³). No allocation.
public struct ConstantVelocityFilter: Sendable, Hashable {
    /// Position at `time`, metres on the plane.
    public private(set) var position: PlaneVector
    /// Velocity at `time`, metres per second on the plane.
    public private(set) var velocity: PlaneVector
    /// The instant the state describes.
    public private(set) var time: MonotonicTime
    /// Per-axis position variance (m²), position-velocity covariance (m²/s), velocity variance (m²/s²).
    public private(set) var positionVariance: Double
    public private(set) var covariance: Double
    public private(set) var velocityVariance: Double
    /// White-acceleration spectral density, m²/s³.
    public let accelerationSpectralDensity: Double

    /// Starts at a measured position with an uncertain (or given) velocity.
    public init(
        position: PlaneVector, positionSigmaMeters: Double,
        velocity: PlaneVector = .zero, velocitySigmaMetersPerSecond: Double,
        time: MonotonicTime, accelerationSpectralDensity: Double
    ) {
        self.position = position
        self.velocity = velocity
        self.time = time
        self.positionVariance = positionSigmaMeters * positionSigmaMeters
        self.covariance = 0
        self.velocityVariance = velocitySigmaMetersPerSecond * velocitySigmaMetersPerSecond
        self.accelerationSpectralDensity = accelerationSpectralDensity
    }

    /// Position extrapolated to `instant` along the current velocity, without changing the state.
    @inlinable
    public func position(at instant: MonotonicTime) -> PlaneVector {
        position + velocity * instant.seconds(since: time)
    }

    /// Moves the state forward to `instant` (no-op if `instant` is not later).
    public mutating func predict(to instant: MonotonicTime) {
        let dt = instant.seconds(since: time)
        guard dt > 0 else { return }
        let q = accelerationSpectralDensity
        position += velocity * dt
        positionVariance += 2 * dt * covariance + dt * dt * velocityVariance + q * dt * dt * dt / 3
        covariance += dt * velocityVariance + q * dt * dt / 2
        velocityVariance += q * dt
        time = instant
    }

    /// Fuses a position measured at the filter's current time; returns the innovation, metres.
    @discardableResult
    public mutating func update(position measured: PlaneVector, sigmaMeters: Double) -> PlaneVector {
        update(position: measured, predicted: position, sigmaMeters: sigmaMeters)
    }

    /// Fuses a position against an explicit prediction of it (a measurement slightly before `time`,
    /// back-dated by the caller); the correction applies now.
    @discardableResult
    public mutating func update(position measured: PlaneVector, predicted: PlaneVector, sigmaMeters: Double) -> PlaneVector {
        let innovation = measured - predicted
        let s = positionVariance + sigmaMeters * sigmaMeters
        guard s > 0, innovation.isFinite else { return .zero }
        let kp = positionVariance / s
        let kv = covariance / s
        position += innovation * kp
        velocity += innovation * kv
        let p = positionVariance, c = covariance
        positionVariance = (1 - kp) * p
        covariance = (1 - kp) * c
        velocityVariance -= kv * c
        return innovation
    }

    /// Fuses a velocity measurement made at the filter's current time.
    public mutating func update(velocity measured: PlaneVector, sigmaMetersPerSecond: Double) {
        let innovation = measured - velocity
        let s = velocityVariance + sigmaMetersPerSecond * sigmaMetersPerSecond
        guard s > 0, innovation.isFinite else { return }
        let kp = covariance / s
        let kv = velocityVariance / s
        position += innovation * kp
        velocity += innovation * kv
        let c = covariance, v = velocityVariance
        positionVariance -= kp * c
        covariance -= kp * v
        velocityVariance = (1 - kv) * v
    }
}
