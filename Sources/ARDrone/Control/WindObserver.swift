import FollowCore

/// A disturbance observer on the tilt model, critically damped at ω (docs/stopping-model.md §5–6):
/// whatever the model cannot explain — wind, or c1/c2 being off — ends up in ŵ.
public struct WindObserver: Sendable, Hashable {
    /// ŵ, plane m/s: the air mass's velocity in the tilt model.
    public internal(set) var wind: PlaneVector = .zero
    /// v̂, plane m/s; nil until the first measurement after a (re)start.
    var velocity: PlaneVector?

    /// One step of `dt` seconds: `measured` is the drone's velocity, `thrust` c2·sin(tilt) of the
    /// tilt commanded (world frame, m/s); ŵ is clamped to `limit` m/s.
    mutating func update(measured: PlaneVector, thrust: PlaneVector, dragRatePerSecond c1: Double,
                         omega: Double, dt: Double, limit: Double) {
        guard omega > 0, dt > 0, measured.isFinite, thrust.isFinite else { return }
        guard let estimate = velocity else {
            velocity = measured
            return
        }
        let innovation = measured - estimate
        let l1 = max(2 * omega - c1, 0), l2 = omega * omega / c1
        let nextVelocity = estimate + ((thrust - estimate + wind) * c1 + innovation * l1) * dt
        let nextWind = (wind + innovation * (l2 * dt)).clamped(toLength: limit)
        // A non-finite step is dropped: kept, it would poison the estimate for the flight.
        guard nextVelocity.isFinite, nextWind.isFinite else { return }
        (velocity, wind) = (nextVelocity, nextWind)
    }

    /// Moves ŵ towards `measuredWind` by `gain` (0…1) and restarts v̂ (the firmware flew meanwhile).
    /// A non-finite `measuredWind` (e.g. from a non-finite heading) is ignored.
    mutating func seed(towards measuredWind: PlaneVector, gain: Double, limit: Double) {
        let next = (wind + (measuredWind - wind) * gain).clamped(toLength: limit)
        if next.isFinite { wind = next }
        velocity = nil
    }

    /// Restarts v̂ only (the firmware flew with tilts we do not know); ŵ is kept.
    mutating func restart() { velocity = nil }
}
