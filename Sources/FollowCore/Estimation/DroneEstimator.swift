/// The drone's own position and velocity: onboard fixes plus navdata velocity.
///
/// The same constant-velocity Kalman filter as the person's, with navdata body velocity
/// (rotated to the plane by the nose heading, 15 Hz, low latency) fused as a velocity
/// measurement. Navdata keeps the filter's clock near "now", so an onboard fix — which
/// describes `receivedAt − latencySeconds` — usually arrives for an instant the filter has
/// already passed: it is compared with the estimate back-dated along the velocity and the
/// correction applied now.
/// (`init(track:)`, written by the macro, is the protocol's; estimators are made with
/// `FixTrackEstimator.init(tuning:latencySeconds:maxFixLagSeconds:maxEphMeters:)`.)
public struct DroneEstimator: Sendable, FixTrackEstimator {
    /// The onboard receiver's screen and filter (its freshness, convergence and estimate: `FixTrackEstimator`).
    public private(set) var track: FixTrack

    /// Offers one onboard fix, already projected onto the plane.
    @discardableResult
    public mutating func ingest(
        position: PlaneVector, reportedVelocity: PlaneVector? = nil, ephMeters: Double? = nil,
        fixTime: FixTime?, receivedAt: MonotonicTime
    ) -> FixVerdict {
        // The closures see copies: `track` is being mutated while they run.
        let tuning = track.tuning, previousVelocity = track.filter?.velocity
        return track.ingest(
            position: position, reportedVelocity: reportedVelocity, ephMeters: ephMeters, fixTime: fixTime,
            receivedAt: receivedAt, positionSigmaMeters: tuning.dronePositionSigmaMeters,
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
                    // Navdata has carried the filter past the fix's instant: compare with the
                    // back-dated estimate (velocity assumed constant over the latency).
                    let lag = min(f.time.seconds(since: fix.measuredAt), tuning.maxPredictionSeconds)
                    f.update(position: position, predicted: f.position - f.velocity * lag,
                             sigmaMeters: fix.sigmaMeters)
                }
            }
        ).verdict
    }

    /// Fuses navdata velocity already rotated onto the plane (east/north m/s), measured at `time`.
    /// Ignored before the first fix (there is no position to attach it to).
    public mutating func ingest(navdataVelocity velocity: PlaneVector, at time: MonotonicTime) {
        guard var f = filter, velocity.isFinite else { return }
        f.predict(to: time)
        f.update(velocity: velocity, sigmaMetersPerSecond: tuning.navdataVelocitySigmaMetersPerSecond)
        track.filter = f
    }

    public init(track: FixTrack) {
        self.track = track
    }
}
