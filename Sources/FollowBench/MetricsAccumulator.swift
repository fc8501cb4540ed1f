import Geometry

/// Collects per-tick truths and turns them into `BenchMetrics`.
struct MetricsAccumulator {
    let standoffMeters: Double
    let settledFromSeconds: Double
    let tickSeconds: Double
    /// The configured minimum separation, metres (for `secondsBelowMinSeparation`).
    let minSeparationLimitMeters: Double

    private var rangeErrors: [Double] = []
    private var distanceSum = 0.0
    private var facingSquareSum = 0.0
    private var facingCount = 0
    private var minSeparation = Double.infinity
    private var minSeparationAt: Double?
    private var ticksBelowMinSeparation = 0
    private var airborneTicks = 0
    private var followingTicks = 0

    init(standoffMeters: Double, settledFromSeconds: Double, tickSeconds: Double, expectedSamples: Int,
         minSeparationLimitMeters: Double = 0) {
        self.standoffMeters = standoffMeters
        self.minSeparationLimitMeters = minSeparationLimitMeters
        self.settledFromSeconds = settledFromSeconds
        self.tickSeconds = tickSeconds
        rangeErrors.reserveCapacity(max(expectedSamples, 0))
    }

    /// One control tick's truth.
    mutating func add(timeSeconds: Double, person: PlaneVector, drone: PlaneVector, noseHeadingDegrees: Double,
                      airborne: Bool, following: Bool) {
        let offset = person - drone
        let distance = offset.length
        if airborne {
            airborneTicks += 1
            if distance < minSeparation {
                minSeparation = distance
                minSeparationAt = timeSeconds
            }
            if distance < minSeparationLimitMeters { ticksBelowMinSeparation += 1 }
        }
        guard timeSeconds >= settledFromSeconds else { return }
        rangeErrors.append(abs(distance - standoffMeters))
        distanceSum += distance
        if following { followingTicks += 1 }
        if airborne, distance > 1 {
            let facing = wrappedDegrees180(offset.bearingDegrees - noseHeadingDegrees)
            facingSquareSum += facing * facing
            facingCount += 1
        }
    }

    /// The metrics; `tracksFollowing` adds the following fraction (FollowMe only).
    func metrics(tracksFollowing: Bool) -> BenchMetrics {
        let n = rangeErrors.count
        var squares = 0.0
        for e in rangeErrors { squares += e * e }
        let sorted = rangeErrors.sorted()
        // Nearest-rank percentile: the smallest value with at least 95 % of samples at or below it.
        let p95 = n > 0 ? sorted[max(0, Int((0.95 * Double(n)).rounded(.up)) - 1)] : .nan
        return BenchMetrics(
            rangeErrorRMSMeters: n > 0 ? (squares / Double(n)).squareRoot() : .nan,
            rangeErrorP95Meters: p95,
            rangeErrorMaxMeters: sorted.last ?? .nan,
            meanDistanceMeters: n > 0 ? distanceSum / Double(n) : .nan,
            minSeparationMeters: minSeparation,
            facingErrorRMSDegrees: facingCount > 0 ? (facingSquareSum / Double(facingCount)).squareRoot() : .nan,
            airborneSeconds: Double(airborneTicks) * tickSeconds,
            settledSamples: n,
            followingFraction: tracksFollowing ? (n > 0 ? Double(followingTicks) / Double(n) : 0) : nil,
            minSeparationAtSeconds: minSeparationAt,
            secondsBelowMinSeparation: Double(ticksBelowMinSeparation) * tickSeconds
        )
    }
}
