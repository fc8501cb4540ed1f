/// The drone's own position and velocity: onboard fixes plus telemetry velocity (rotated to the plane)
/// in the same constant-velocity filter. A fix for an instant the filter has passed is compared with
/// the estimate back-dated along the velocity (docs/dynamics-and-follow.md §3.5).
public struct DroneEstimator: Sendable, FixTrackEstimator {
    /// The onboard receiver's screen and filter (its freshness, convergence and estimate: `FixTrackEstimator`).
    public private(set) var track: FixTrack

    /// Offers one onboard fix, already projected onto the plane; it describes `receivedAt − ageSeconds`
    /// (nil: `latencySeconds`).
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil, ephMeters: Double? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime, ageSeconds: Double? = nil
    ) -> FixVerdict {
        // The closures see copies: `track` is being mutated while they run.
        let tuning = track.tuning, previousVelocity = track.filter?.velocity
        return track.ingest(
            position: position, reportedVelocity: reportedVelocity, ephMeters: ephMeters, fixTime: fixTime,
            receivedAt: receivedAt, ageSeconds: ageSeconds, positionSigmaMeters: tuning.dronePositionSigmaMeters,
            start: { fix in
                ConstantVelocityFilter(
                    position: position, positionSigmaMeters: fix.sigmaMeters,
                    velocity: fix.velocity ?? previousVelocity ?? .zero, velocitySigmaMetersPerSecond: 1.0,
                    time: fix.measuredAt, accelerationSpectralDensity: tuning.droneAccelerationSpectralDensity)
            },
            fuse: { f, fix in
                if fix.measuredAt > f.time {
                    f.predict(to: fix.measuredAt)
                    f.update(position: position, sigmaMeters: fix.sigmaMeters)
                    if let velocity = fix.velocity {
                        f.update(velocity: velocity, sigmaMetersPerSecond: tuning.reportedVelocitySigmaMetersPerSecond)
                    }
                } else {
                    // Telemetry carried the filter past the fix's instant: compare with the back-dated estimate.
                    let lag = min(f.time.seconds(since: fix.measuredAt), tuning.maxPredictionSeconds)
                    f.update(position: position, predicted: f.position - f.velocity * lag,
                             sigmaMeters: fix.sigmaMeters)
                }
            }
        ).verdict
    }

    /// Fuses telemetry velocity rotated onto the plane (east/north m/s) measured at `time`; ignored before the first fix.
    public mutating func ingest(telemetryVelocity velocity: PlaneVector, at time: MonotonicTime) {
        guard var f = filter, velocity.isFinite else { return }
        f.predict(to: time)
        f.update(velocity: velocity, sigmaMetersPerSecond: tuning.telemetryVelocitySigmaMetersPerSecond)
        track.filter = f
    }

    public init(track: FixTrack) {
        self.track = track
    }
}
