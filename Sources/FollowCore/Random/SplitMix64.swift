/// The project's one seeded generator: SplitMix64 (Steele, Lea & Flood, OOPSLA 2014, their constants),
/// written by hand so a seed gives the same sequence everywhere, with Gaussian (Box–Muller), integer
/// and byte draws.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator state; advances by the golden-ratio increment on every draw.
    public private(set) var state: UInt64
    /// The second normal deviate of the last Box–Muller pair, if not yet used.
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        self.state = seed
        self.spareGaussian = nil
    }

    /// A generator for the independent stream `stream` of `seed`: draws added to one never shift another.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        self.init(seed: mixer.next())
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in the half-open interval (0, 1] with 53 random bits (never 0, so `log` is safe).
    public mutating func nextUnitInterval() -> Double {
        Double((next() >> 11) + 1) * 0x1p-53
    }

    /// A standard normal draw N(0, 1) (Box–Muller; the pair's second is kept for the next call).
    public mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        let u1 = nextUnitInterval()
        let u2 = nextUnitInterval()
        let radius = (-2 * _log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * _sin(angle)
        return radius * _cos(angle)
    }

    /// A normal draw with standard deviation `sigma` (0 → exactly 0, without consuming a draw).
    public mutating func nextGaussian(sigma: Double) -> Double {
        sigma == 0 ? 0 : sigma * nextGaussian()
    }

    /// Two independent normal draws (east, north) with standard deviation `sigma` per axis.
    public mutating func nextGaussianPlaneVector(sigma: Double) -> PlaneVector {
        sigma == 0 ? .zero : PlaneVector(east: sigma * nextGaussian(), north: sigma * nextGaussian())
    }

    /// A value in `0..<bound` (`bound > 0`), by multiply-high (bias < bound / 2⁶⁴), independent of the stdlib.
    public mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    public mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }

    public mutating func nextUInt32() -> UInt32 { UInt32(truncatingIfNeeded: next() >> 32) }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        nextInt(below: denominator) < numerator
    }

    /// A random element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[nextInt(below: elements.count)]
    }
}
