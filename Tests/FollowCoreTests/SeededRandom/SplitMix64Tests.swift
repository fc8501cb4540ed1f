@testable import FollowCore
import Testing

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("matches the reference SplitMix64 outputs", arguments: [
        // Computed with an independent Python transcription of Steele/Lea/Flood's splitmix64.
        (UInt64(0), [UInt64(0xE220_A839_7B1D_CDAF), 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]),
        (UInt64(1_234_567), [UInt64(0x599E_D017_FB08_FC85), 0x2C73_F084_5854_0FA5, 0x883E_BCE5_A3F2_7C77]),
    ])
    func referenceVectors(seed: UInt64, expected: [UInt64]) {
        var g = SplitMix64(seed: seed)
        #expect((0..<3).map { _ in g.next() } == expected)
    }

    @Test("Gaussian draws have mean 0 and standard deviation 1")
    func gaussianMoments() {
        var g = SplitMix64(seed: 42)
        let xs = (0..<200_000).map { _ in g.nextGaussian() }
        let (mean, std) = meanAndStd(xs)
        // Standard errors: mean 1/√n = 0.0022, std 1/√(2n) = 0.0016.
        #expect(abs(mean) < 0.01)
        #expect(abs(std - 1) < 0.01)
        let beyondTwoSigma = Double(xs.filter { abs($0) > 2 }.count) / Double(xs.count)
        #expect(abs(beyondTwoSigma - 0.0455) < 0.003)
    }

    @Test("streams derived from one seed are different")
    func streams() {
        var a = SplitMix64(seed: 7, stream: 1)
        var b = SplitMix64(seed: 7, stream: 2)
        #expect(a.next() != b.next())
    }
}

/// Mean and population standard deviation.
private func meanAndStd(_ xs: [Double]) -> (mean: Double, std: Double) {
    let mean = xs.reduce(0, +) / Double(xs.count)
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    return (mean, variance.squareRoot())
}
