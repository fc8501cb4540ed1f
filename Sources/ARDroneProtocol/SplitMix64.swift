/// SplitMix64 pseudo-random generator: deterministic for a seed, on every platform.
///
/// Algorithm and constants from Sebastiano Vigna's public-domain `splitmix64.c`
/// (https://prng.di.unimi.it/splitmix64.c). Used by the fuzzers and the round-trip tests so a
/// failure is reproducible from its seed. Not for anything security-related.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// Current internal state.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound > 0`), by multiply-high (bias < bound / 2⁶⁴; irrelevant here).
    /// Hand-written so results do not depend on the standard library's sampling algorithm.
    public mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in `range`.
    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniformly random byte.
    public mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }

    /// A uniformly random 32-bit value.
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
