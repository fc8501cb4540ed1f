import Geometry

/// Seeded pseudo-random numbers for reproducible noise (SplitMix64, Steele/Lea/Flood 2014).
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
