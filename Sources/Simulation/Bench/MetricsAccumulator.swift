import FollowCore

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
    // Trailing, aim bias, climb drift, stalls, time per state (docs/bench.md §6).
    private var trailingSum = 0.0
    private var trailingCount = 0
    private var aimErrorSum = PlaneVector.zero
    private var aimErrorSquareSum = 0.0
    private var aimErrorCount = 0
    private var takeoffPoint: PlaneVector?
    private var climbDrift: Double?
    private var climbEnded = false
    private var stalledFollowingTicks = 0
    private var stateTicks: [String: Int] = [:]
    private var stateOrder: [String] = []
    // The drone's speed after each start of the person (docs/mavlink.md §9).
    private var personWasMoving = true // a person moving from the first tick has not started in the run
    private var openStart: SpeedResponse?
    private var worstStart: SpeedResponse?
    private var personStarts = 0
    // The follow mode's own figures (nil: the leash, none; docs/bench.md §5).
    var followMode: BenchFollowMode?
    private var modeFigures = ModeFigures()

    /// Below this person speed nobody is "moving" (trailing, stall), m/s. Our choice: above GPS
    /// velocity noise, below any walk.
    static let movingSpeedMetersPerSecond = 0.5
    /// A stall: labelled `following` while the person moves but the drone is this far beyond the
    /// standoff… (metres; our choice: well outside normal lag)
    static let stallExcessMeters = 3.0
    /// …and slower than this fraction of the person's speed (it has stopped keeping up).
    static let stallSpeedFraction = 0.5

    init(standoffMeters: Double, settledFromSeconds: Double, tickSeconds: Double, expectedSamples: Int,
         minSeparationLimitMeters: Double = 0) {
        self.standoffMeters = standoffMeters
        self.minSeparationLimitMeters = minSeparationLimitMeters
        self.settledFromSeconds = settledFromSeconds
        self.tickSeconds = tickSeconds
        rangeErrors.reserveCapacity(max(expectedSamples, 0))
    }

    /// One control tick's truth.
    ///
    /// The optional arguments feed the extra scenarios' metrics (docs/bench.md §6): the person's and
    /// drone's true velocities (trailing, stalls), the controller's state name (time per state), its aim point on the
    /// bench's plane while following (aim bias), and whether it is taking off or climbing (drift
    /// from the take-off point, which is where the drone is on the first such tick).
    mutating func add(timeSeconds: Double, person: PlaneVector, drone: PlaneVector, noseHeadingDegrees: Double,
                      airborne: Bool, following: Bool, personVelocity: PlaneVector = .zero,
                      droneVelocity: PlaneVector = .zero, stateName: String? = nil, aimPoint: PlaneVector? = nil,
                      climbing: Bool = false, heightErrorMeters: Double? = nil, receiversSlowErrorMeters: PlaneVector = .zero) {
        let offset = person - drone
        let distance = offset.length
        if let stateName {
            if stateTicks[stateName] == nil { stateOrder.append(stateName) }
            stateTicks[stateName, default: 0] += 1
        }
        if climbing, !climbEnded {
            if takeoffPoint == nil { takeoffPoint = drone }
            if airborne, let start = takeoffPoint { climbDrift = max(climbDrift ?? 0, (drone - start).length) }
        } else if takeoffPoint != nil {
            climbEnded = true // only the first take-off and climb: a later re-climb starts elsewhere
        }
        if airborne {
            airborneTicks += 1
            if distance < minSeparation {
                minSeparation = distance
                minSeparationAt = timeSeconds
            }
            if distance < minSeparationLimitMeters { ticksBelowMinSeparation += 1 }
        }
        trackSpeedResponse(timeSeconds: timeSeconds, personSpeed: personVelocity.length,
                           droneSpeed: droneVelocity.length, airborne: airborne)
        guard timeSeconds >= settledFromSeconds else { return }
        rangeErrors.append(abs(distance - standoffMeters))
        distanceSum += distance
        if following { followingTicks += 1 }
        let personSpeed = personVelocity.length
        if personSpeed >= Self.movingSpeedMetersPerSecond {
            trailingSum += offset.dot(personVelocity / personSpeed) - standoffMeters
            trailingCount += 1
            if following, distance > standoffMeters + Self.stallExcessMeters,
               droneVelocity.length < Self.stallSpeedFraction * personSpeed {
                stalledFollowingTicks += 1
            }
        }
        if following, let aimPoint {
            let error = drone - aimPoint
            aimErrorSum += error
            aimErrorSquareSum += error.dot(error)
            aimErrorCount += 1
        }
        if airborne, let followMode {
            modeFigures.add(followMode, timeSeconds: timeSeconds, person: person, drone: drone, personVelocity: personVelocity,
                            droneVelocity: droneVelocity, standoffMeters: standoffMeters,
                            heightErrorMeters: following ? heightErrorMeters : nil, receiversSlowErrorMeters: receiversSlowErrorMeters)
        }
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
            minSeparationAtSeconds: minSeparationAt,
            secondsBelowMinSeparation: Double(ticksBelowMinSeparation) * tickSeconds,
            facingErrorRMSDegrees: facingCount > 0 ? (facingSquareSum / Double(facingCount)).squareRoot() : .nan,
            airborneSeconds: Double(airborneTicks) * tickSeconds,
            settledSamples: n,
            followingFraction: tracksFollowing ? (n > 0 ? Double(followingTicks) / Double(n) : 0) : nil,
            trailingMeanMeters: trailingCount > 0 ? trailingSum / Double(trailingCount) : nil,
            aimBiasMeters: aimErrorCount > 0 ? (aimErrorSum / Double(aimErrorCount)).length : nil,
            aimErrorRMSMeters: aimErrorCount > 0 ? (aimErrorSquareSum / Double(aimErrorCount)).squareRoot() : nil,
            climbDriftMeters: climbDrift,
            stalledFollowingSeconds: Double(stalledFollowingTicks) * tickSeconds,
            secondsByState: stateOrder.map { BenchMetrics.StateSeconds(name: $0, seconds: Double(stateTicks[$0] ?? 0) * tickSeconds) },
            speedAfterStart: worst(worstStart, openStart).map { $0.figures(personStarts: personStarts) },
            followMode: followMode.map { modeFigures.figures($0) }
        )
    }

    /// Opens a speed-response window when the person starts (speed rises through
    /// `movingSpeedMetersPerSecond` while the drone is airborne), feeds it, and closes it when the
    /// person stops or `SpeedResponse.windowSeconds` have passed, keeping the largest overshoot.
    private mutating func trackSpeedResponse(timeSeconds: Double, personSpeed: Double, droneSpeed: Double,
                                             airborne: Bool) {
        let moving = personSpeed >= Self.movingSpeedMetersPerSecond
        defer { personWasMoving = moving }
        if var window = openStart {
            if moving, timeSeconds - window.startSeconds <= SpeedResponse.windowSeconds {
                window.add(timeSeconds: timeSeconds, personSpeed: personSpeed, droneSpeed: droneSpeed)
                openStart = window
                return
            }
            worstStart = worst(worstStart, window)
            openStart = nil
        }
        if moving, !personWasMoving, airborne {
            personStarts += 1
            var window = SpeedResponse(startSeconds: timeSeconds)
            window.add(timeSeconds: timeSeconds, personSpeed: personSpeed, droneSpeed: droneSpeed)
            openStart = window
        }
    }

    private func worst(_ a: SpeedResponse?, _ b: SpeedResponse?) -> SpeedResponse? {
        guard let a else { return b }
        guard let b else { return a }
        return b.peakExcessMetersPerSecond > a.peakExcessMetersPerSecond ? b : a
    }
}

/// The drone's horizontal ground speed against the person's over one window after the person starts
/// (docs/mavlink.md §9, "Speed after the walker starts"). True velocities; excess = |v_drone| − |v_person|
/// at the same tick.
struct SpeedResponse {
    /// How long after a start the window lasts at most, seconds (it ends earlier when the person
    /// stops). Our choice: the catch-up takes ~10 s; 30 s also holds ~9 periods of the 3.2 s ringing.
    static let windowSeconds = 30.0
    /// Hysteresis of a speed swing, m/s: the excess must rise above +this after having been below
    /// −this. Our choice: above a clean follow's speed jitter, well below a walker's 1.4 m/s.
    static let swingBandMetersPerSecond = 0.1
    /// Settled: |excess| stays within this band for the rest of the window, and that rest lasts at
    /// least `settleHoldSeconds`. Our choices: ~15 % of a walk; longer than a 0.5 s sample gap.
    static let settleBandMetersPerSecond = 0.2
    static let settleHoldSeconds = 3.0

    let startSeconds: Double
    private(set) var peakExcessMetersPerSecond = -Double.infinity
    private var personSpeedSum = 0.0
    private var samples = 0
    private var isAbove = false // the drone starts slower than the person
    private var swingTimes: [Double] = []
    private var lastOutsideSettleBand: Double?
    private var lastSeconds = 0.0

    init(startSeconds: Double) {
        self.startSeconds = startSeconds
        lastSeconds = startSeconds
    }

    mutating func add(timeSeconds: Double, personSpeed: Double, droneSpeed: Double) {
        let excess = droneSpeed - personSpeed
        peakExcessMetersPerSecond = max(peakExcessMetersPerSecond, excess)
        personSpeedSum += personSpeed
        samples += 1
        if !isAbove, excess > Self.swingBandMetersPerSecond {
            isAbove = true
            swingTimes.append(timeSeconds)
        } else if isAbove, excess < -Self.swingBandMetersPerSecond {
            isAbove = false
        }
        if abs(excess) > Self.settleBandMetersPerSecond { lastOutsideSettleBand = timeSeconds }
        lastSeconds = timeSeconds
    }

    func figures(personStarts: Int) -> BenchMetrics.SpeedAfterStart {
        let meanPersonSpeed = personSpeedSum / Double(max(samples, 1))
        let settledAt = lastOutsideSettleBand ?? startSeconds
        var period: Double?
        if let first = swingTimes.first, let last = swingTimes.last, swingTimes.count >= 2 {
            period = (last - first) / Double(swingTimes.count - 1)
        }
        return BenchMetrics.SpeedAfterStart(
            personStarts: personStarts, startSeconds: startSeconds, windowSeconds: lastSeconds - startSeconds,
            overshootMetersPerSecond: peakExcessMetersPerSecond,
            overshootPercent: meanPersonSpeed > 0 ? 100 * peakExcessMetersPerSecond / meanPersonSpeed : .nan,
            meanPersonSpeedMetersPerSecond: meanPersonSpeed, swings: swingTimes.count,
            ringingPeriodSeconds: period,
            settleSeconds: lastSeconds - settledAt >= Self.settleHoldSeconds ? settledAt - startSeconds : nil)
    }
}
