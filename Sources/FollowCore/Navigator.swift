import Geometry
import Telemetry

/// Where things are and which way the drone points: the local plane and the nose heading.
///
/// - Positions: a `LocalPlane` (east/north metres, WGS84 radii, never raw degree differences)
///   anchored at the first fix either receiver delivers — normally the take-off point, where
///   the drone sits at start-up. Follow-me distances are ≤ the geofence (≤ 1 km), where the
///   projection is exact to ~1e-8 (dynamics-and-follow.md §6.2), so the plane is never
///   re-anchored.
/// - Heading: the onboard receiver reports *its* heading; the nose is that plus
///   `mountOffsetDegrees`. Reports come at 1–10 Hz with GPS latency, too slow and late to
///   steer a yaw loop on, so between reports the nose heading follows navdata `psi` (15 Hz,
///   arbitrary zero): each report re-estimates the offset psi → true nose heading. Without
///   navdata yaw the last report is used as is.
public struct Navigator: Sendable {
    /// Receiver forward axis → nose, degrees clockwise.
    public let mountOffsetDegrees: Double
    /// Age of a heading report on arrival, seconds (taken equal to the GPS latency).
    public let headingLatencySeconds: Double
    /// The plane, once the first fix has anchored it.
    public private(set) var plane: LocalPlane?

    /// Latest heading report turned into a nose heading, degrees [0, 360), and its arrival time.
    public private(set) var lastReportedNoseHeadingDegrees: Double?
    public private(set) var lastHeadingReportAt: MonotonicTime?

    private var navdataYawDegrees: Double?
    private var navdataYawAt: MonotonicTime?
    private var navdataYawRateDegreesPerSecond: Double = 0
    /// True nose heading minus navdata psi, degrees in [−180, 180).
    private var navdataYawOffsetDegrees: Double?

    /// Offset re-estimates are taken only while the drone yaws slower than this, degrees per
    /// second: the report's latency makes faster turns bias the offset.
    static let offsetUpdateMaxYawRateDegreesPerSecond = 45.0
    /// Weight of each new offset measurement (per report).
    static let offsetUpdateGain = 0.3
    /// A report disagreeing with the fused heading by more than this resets the offset, degrees.
    static let offsetResetDegrees = 30.0
    /// Navdata yaw older than this is not used, seconds.
    static let navdataYawMaxAgeSeconds = 0.5
    /// Navdata yaw is extrapolated with its rate by at most this, seconds.
    static let navdataYawMaxExtrapolationSeconds = 0.1

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

    /// Takes an onboard heading report (reports from the target's receiver are not the
    /// drone's heading and are ignored; returns false).
    @discardableResult
    public mutating func ingest(heading report: HeadingReport) -> Bool {
        guard report.role == .onboard else { return false }
        let nose = noseHeadingDegrees(receiverHeadingDegrees: report.headingDegrees)
        lastReportedNoseHeadingDegrees = nose
        lastHeadingReportAt = report.receivedAt
        if let yaw = navdataYawDegrees, let yawAt = navdataYawAt {
            let measuredAt = report.receivedAt.adding(seconds: -headingLatencySeconds)
            let gap = measuredAt.seconds(since: yawAt)
            if abs(gap) <= Self.navdataYawMaxAgeSeconds {
                let yawThen = yaw + navdataYawRateDegreesPerSecond * gap
                let measured = wrappedDegrees180(nose - yawThen)
                if let offset = navdataYawOffsetDegrees {
                    let innovation = wrappedDegrees180(measured - offset)
                    if abs(innovation) > Self.offsetResetDegrees {
                        navdataYawOffsetDegrees = measured
                    } else if abs(navdataYawRateDegreesPerSecond) < Self.offsetUpdateMaxYawRateDegreesPerSecond {
                        navdataYawOffsetDegrees = wrappedDegrees180(offset + Self.offsetUpdateGain * innovation)
                    }
                } else {
                    navdataYawOffsetDegrees = measured
                }
            }
        }
        return true
    }

    /// Takes navdata yaw (`psi`, degrees, arbitrary zero).
    public mutating func ingest(navdataYawDegrees yaw: Double, at time: MonotonicTime) {
        guard yaw.isFinite else { return }
        if let previous = navdataYawDegrees, let previousAt = navdataYawAt {
            let dt = time.seconds(since: previousAt)
            guard dt > 0 else { return }
            navdataYawRateDegreesPerSecond = dt <= Self.navdataYawMaxAgeSeconds
                ? wrappedDegrees180(yaw - previous) / dt : 0
        }
        navdataYawDegrees = yaw
        navdataYawAt = time
    }

    /// The best estimate of the nose heading at `now`, degrees [0, 360), or `nil` before the
    /// first heading report. Staleness is the caller's business (FailsafeParameters).
    public func noseHeadingDegrees(now: MonotonicTime) -> Double? {
        if let offset = navdataYawOffsetDegrees, let yaw = navdataYawDegrees, let yawAt = navdataYawAt {
            let age = now.seconds(since: yawAt)
            if age >= -Self.navdataYawMaxAgeSeconds, age <= Self.navdataYawMaxAgeSeconds {
                let ahead = min(max(age, 0), Self.navdataYawMaxExtrapolationSeconds)
                return normalizedDegrees360(yaw + navdataYawRateDegreesPerSecond * ahead + offset)
            }
        }
        return lastReportedNoseHeadingDegrees
    }
}
