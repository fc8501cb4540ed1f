@testable import FollowCore

/// Seeded pseudo-random numbers for reproducible noise: the bits of the project's `SplitMix64`
/// (SeededRandom), turned into uniform and normal draws the way these tests' noise was tuned with
/// (a centred uniform, one Box–Muller cosine per normal draw), so every seed gives the sequence the
/// tests' thresholds were set against.
struct TestRandom {
    private var bits: SplitMix64

    init(seed: UInt64) { bits = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { bits.next() }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double {
        (Double(next() >> 11) + 0.5) / Double(1 << 53)
    }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = uniform(), u2 = uniform()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * .pi * u2)
    }

    /// A 2-D vector with independent N(0, σ²) components.
    mutating func gaussianVector(sigma: Double) -> PlaneVector {
        PlaneVector(east: sigma * gaussian(), north: sigma * gaussian())
    }
}
