/// Where things are and which way the drone points: the `LocalPlane` (anchored at the first fix either
/// receiver delivers, never re-anchored) and the nose heading (the onboard receiver's heading +
/// `mountOffsetDegrees`, propagated between reports with the vehicle's yaw; reports that disagree by more
/// than `headingGateDegrees` are not used, and a lasting run of them shows as `headingRejectedSince`).
/// Why: docs/dynamics-and-follow.md §3.5.
public struct Navigator: Sendable {
    /// Receiver forward axis → nose, degrees clockwise.
    public let mountOffsetDegrees: Double
    /// Age of a heading report on arrival, seconds (taken equal to the GPS latency).
    public let headingLatencySeconds: Double
    /// The plane, once the first fix has anchored it.
    public private(set) var plane: LocalPlane?

    /// Latest *used* heading report turned into a nose heading, degrees [0, 360).
    public private(set) var lastReportedNoseHeadingDegrees: Double?
    /// Arrival of the latest onboard heading report, used or not (the receiver is alive).
    public private(set) var lastHeadingReportAt: MonotonicTime?
    /// Arrival of the latest heading report that was used.
    public private(set) var lastAcceptedHeadingAt: MonotonicTime?
    /// Arrival of the first of the current run of rejected reports; nil once one is used again.
    public private(set) var headingRejectedSince: MonotonicTime?
    /// Reports rejected for disagreeing with the vehicle-yaw-propagated heading (for the flight log).
    public private(set) var rejectedHeadingReports = 0
    /// Times a run of agreeing reports replaced a weakly supported offset (for the flight log).
    public private(set) var reanchoredHeadings = 0

    private var vehicleYawDegrees: Double?
    private var vehicleYawAt: MonotonicTime?
    private var vehicleYawRateDegreesPerSecond: Double = 0
    /// True nose heading minus the vehicle's yaw, degrees in [−180, 180).
    private var vehicleYawOffsetDegrees: Double?
    /// Reports that agreed with the current offset since it was set.
    private var offsetSupport = 0
    /// The offset the current run of rejected reports implies, its start and length.
    private var candidateOffsetDegrees: Double?
    private var candidateSince: MonotonicTime?
    private var candidateCount = 0

    /// Offset re-estimates are taken only while the drone yaws slower than this, degrees per second.
    static let offsetUpdateMaxYawRateDegreesPerSecond = 45.0
    /// Weight of each new offset measurement (per report).
    static let offsetUpdateGain = 0.3
    /// A report disagreeing with the vehicle-yaw-propagated heading by more than this is not used, degrees.
    public static let headingGateDegrees = 30.0
    /// A run of this many mutually agreeing rejected reports…
    public static let headingConfirmReports = 3
    /// …spanning at least this long, seconds, replaces a weakly supported offset.
    public static let headingConfirmSeconds = 0.5
    /// A the vehicle's yaw change faster than this is a reset of psi, not a turn, degrees per second
    /// (docs/flight-safety-faults.md §4).
    static let vehicleYawMaxPlausibleRateDegreesPerSecond = 700.0
    /// Vehicle yaw older than this is not used, seconds.
    static let vehicleYawMaxAgeSeconds = 0.5
    /// Vehicle yaw is extrapolated with its rate by at most this, seconds.
    static let vehicleYawMaxExtrapolationSeconds = 0.1

    public init(mountOffsetDegrees: Double, headingLatencySeconds: Double = 0) {
        self.mountOffsetDegrees = mountOffsetDegrees
        self.headingLatencySeconds = headingLatencySeconds
    }

    // MARK: Positions

    /// Projects a coordinate onto the plane, anchoring the plane at it if this is the first.
    public mutating func position(of coordinate: GeoCoordinate) -> PlaneVector {
        if let plane { return plane.project(coordinate) }
        let plane = LocalPlane(origin: coordinate)
        self.plane = plane
        return plane.project(coordinate)
    }

    /// Relative bearing of a target as seen from the drone, degrees in [−180, 180):
    /// 0 = dead ahead, positive = to the right (clockwise).
    @inlinable
    public static func relativeBearingDegrees(
        from drone: PlaneVector, noseHeadingDegrees: Double, to target: PlaneVector
    ) -> Double {
        wrappedDegrees180((target - drone).bearingDegrees - noseHeadingDegrees)
    }

    // MARK: Heading

    /// The nose heading a receiver heading implies, degrees [0, 360).
    @inlinable
    public func noseHeadingDegrees(receiverHeadingDegrees: Double) -> Double {
        normalizedDegrees360(receiverHeadingDegrees + mountOffsetDegrees)
    }

    /// What became of one heading report.
    public enum HeadingVerdict: Sendable, Hashable {
        /// Used (agrees with the vehicle-yaw-propagated heading, or there is nothing to check it against).
        case accepted
        /// A run of agreeing reports replaced an offset that only one or two reports had set.
        case reanchored
        /// Disagrees with the vehicle-yaw-propagated heading by more than `headingGateDegrees`; not used.
        case rejected
        /// From the person's receiver: says nothing about the drone.
        case ignored
    }

    /// Takes an onboard heading report (the target receiver's are ignored). Once vehicle yaw has anchored
    /// an offset, a report whose implied offset is more than `headingGateDegrees` from it is rejected; a
    /// run of agreeing rejected reports replaces the offset only if it rests on fewer than
    /// `headingConfirmReports` reports, else `headingRejectedSince` exposes it.
    @discardableResult
    public mutating func ingest(heading report: HeadingReport) -> Bool {
        ingestHeading(report) != .ignored
    }

    /// `ingest(heading:)` with the verdict.
    public mutating func ingestHeading(_ report: HeadingReport) -> HeadingVerdict {
        guard report.role == .onboard else { return .ignored }
        let nose = noseHeadingDegrees(receiverHeadingDegrees: report.headingDegrees)
        lastHeadingReportAt = report.receivedAt
        guard let yaw = vehicleYawDegrees, let yawAt = vehicleYawAt else {
            accept(nose: nose, at: report.receivedAt)
            return .accepted
        }
        let measuredAt = report.receivedAt.adding(seconds: -headingLatencySeconds)
        let gap = measuredAt.seconds(since: yawAt)
        guard abs(gap) <= Self.vehicleYawMaxAgeSeconds else {
            // Nothing fresh to check it against: used as is.
            accept(nose: nose, at: report.receivedAt)
            return .accepted
        }
        let yawThen = yaw + vehicleYawRateDegreesPerSecond * gap
        let measured = wrappedDegrees180(nose - yawThen)
        guard let offset = vehicleYawOffsetDegrees else {
            vehicleYawOffsetDegrees = measured
            offsetSupport = 1
            accept(nose: nose, at: report.receivedAt)
            return .accepted
        }
        let innovation = wrappedDegrees180(measured - offset)
        // While the drone yaws, the report's assumed age shifts the implied offset by rate × age: widen the gate.
        let gate = Self.headingGateDegrees + abs(vehicleYawRateDegreesPerSecond) * headingLatencySeconds
        if abs(innovation) <= gate {
            if abs(vehicleYawRateDegreesPerSecond) < Self.offsetUpdateMaxYawRateDegreesPerSecond {
                vehicleYawOffsetDegrees = wrappedDegrees180(offset + Self.offsetUpdateGain * innovation)
            }
            offsetSupport += 1
            accept(nose: nose, at: report.receivedAt)
            return .accepted
        }
        // Disagrees: a candidate for a new offset, confirmed only by agreeing successors.
        rejectedHeadingReports += 1
        if headingRejectedSince == nil { headingRejectedSince = report.receivedAt }
        if let candidate = candidateOffsetDegrees, abs(wrappedDegrees180(measured - candidate)) <= gate {
            candidateCount += 1
        } else {
            candidateOffsetDegrees = measured
            candidateSince = report.receivedAt
            candidateCount = 1
        }
        if offsetSupport < Self.headingConfirmReports, candidateCount >= Self.headingConfirmReports,
           let since = candidateSince, report.receivedAt.seconds(since: since) >= Self.headingConfirmSeconds {
            vehicleYawOffsetDegrees = measured
            offsetSupport = candidateCount
            reanchoredHeadings += 1
            accept(nose: nose, at: report.receivedAt)
            return .reanchored
        }
        return .rejected
    }

    private mutating func accept(nose: Double, at time: MonotonicTime) {
        lastReportedNoseHeadingDegrees = nose
        lastAcceptedHeadingAt = time
        headingRejectedSince = nil
        candidateOffsetDegrees = nil
        candidateSince = nil
        candidateCount = 0
    }

    /// Takes vehicle yaw (`psi`, degrees, arbitrary zero).
    public mutating func ingest(vehicleYawDegrees yaw: Double, at time: MonotonicTime) {
        guard yaw.isFinite else { return }
        if let previous = vehicleYawDegrees, let previousAt = vehicleYawAt {
            let dt = time.seconds(since: previousAt)
            guard dt > 0 else { return }
            let rate = wrappedDegrees180(yaw - previous) / dt
            if dt <= Self.vehicleYawMaxAgeSeconds, abs(rate) > Self.vehicleYawMaxPlausibleRateDegreesPerSecond {
                // psi itself jumped (a reset, not a turn): the offset means nothing any more.
                vehicleYawOffsetDegrees = nil
                offsetSupport = 0
                vehicleYawRateDegreesPerSecond = 0
            } else {
                vehicleYawRateDegreesPerSecond = dt <= Self.vehicleYawMaxAgeSeconds ? rate : 0
            }
        }
        vehicleYawDegrees = yaw
        vehicleYawAt = time
    }

    /// The nose heading at `now`, degrees [0, 360); nil before the first report. Staleness is the caller's.
    public func noseHeadingDegrees(now: MonotonicTime) -> Double? {
        if let offset = vehicleYawOffsetDegrees, let yaw = vehicleYawDegrees, let yawAt = vehicleYawAt {
            let age = now.seconds(since: yawAt)
            if age >= -Self.vehicleYawMaxAgeSeconds, age <= Self.vehicleYawMaxAgeSeconds {
                let ahead = min(max(age, 0), Self.vehicleYawMaxExtrapolationSeconds)
                return normalizedDegrees360(yaw + vehicleYawRateDegreesPerSecond * ahead + offset)
            }
        }
        return lastReportedNoseHeadingDegrees
    }
}
