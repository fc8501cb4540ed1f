import ARDrone
import FollowCore

/// The objc.io "quadcopter navigator" follow logic, reproduced as the benchmark baseline
/// (objcio/issue-8-quadcopter-navigator `Navigator.m`, `DroneController.m`;
/// docs/ardrone-protocol.md §8 and docs/dynamics-and-follow.md §2.5).
///
/// Every 0.25 s (their NSTimer) it recomputes:
/// - bearing = atan2(Δlon, Δlat) in raw degrees — the flat-earth shortcut *without* cos(lat),
///   kept on purpose (up to 9.9° wrong at 45° latitude);
/// - directionDifference = bearing − receiverHeading − 90 (phone taped at 90°), wrapped to ±180;
/// - if distance < standoff: hover; else yaw = diff·0.01 clamped to ±1, pitch = forward when
///   |diff| < 45°, else 0.
/// One deliberate fix: objc.io put +0.2 in the pitch slot, which tilts the drone *backward*
/// (SDK: negative pitch = forward). We send −0.2 so the baseline actually flies forward.
/// Not reproduced: their sticky `forceHover` (the drone never moved again after the first
/// arrival) and the single, unrepeated REF.
public struct NaiveBaselineController: Sendable {
    public struct Parameters: Sendable, Hashable {
        /// Decision period, seconds (objc.io `DroneController` NSTimer 0.25 s).
        public var periodSeconds = 0.25
        /// Hover inside this distance, metres (objc.io `distanceToTarget < 1`).
        public var standoffMeters = 1.0
        /// Nose heading minus receiver heading, degrees (objc.io "taped … at an angle of 90 degrees").
        public var mountOffsetDegrees = 90.0
        /// Yaw command per degree of direction difference (objc.io `× 0.01`).
        public var yawPerDegree = 0.01
        /// Pitch sent to move forward (objc.io 0.2 with the sign fixed: −0.2 = nose down).
        public var forwardPitch: Float = -0.2
        /// Fly forward only while |direction difference| is below this, degrees (objc.io 45°).
        public var forwardConeDegrees = 45.0

        public init() {}
    }

    /// What the baseline asks the drone to do.
    public enum Command: Sendable, Hashable {
        /// PCMD flag 0.
        case hover
        /// PCMD flag 1 with these values (roll and gaz are always 0 for this baseline).
        case move(roll: Float, pitch: Float, gaz: Float, yaw: Float)

        /// The motion an autopilot is given for this command: the speed the AR.Drone's tilt model says
        /// that tilt would hold (c2·sin(fraction·max tilt)), in the body frame of `noseHeadingDegrees`;
        /// nil = hover. The baseline's own crude translation, not the product's.
        public func motion(follow: FollowParameters, noseHeadingDegrees nose: Double) -> MotionCommand? {
            guard case let .move(roll, pitch, gaz, yaw) = self else { return nil }
            let maxTilt = follow.maxTiltDegrees * .pi / 180, c2 = TiltModelTuning().tiltSpeedMetersPerSecond
            let forward = c2 * _sin(-Double(pitch) * maxTilt), right = c2 * _sin(Double(roll) * maxTilt)
            return MotionCommand(
                velocity: PlaneVector.unit(bearingDegrees: nose) * forward + PlaneVector.unit(bearingDegrees: nose + 90) * right,
                climbMetersPerSecond: Double(gaz) * follow.maxClimbMetersPerSecond,
                yawRateDegreesPerSecond: Double(yaw) * follow.maxYawRateDegreesPerSecond)
        }

        /// The `AT*PCMD` for this command.
        public var atCommand: ATCommand {
            switch self {
            case .hover: .pcmd(.hover)
            case let .move(roll, pitch, gaz, yaw):
                .pcmd(ProgressiveCommand(rollFraction: roll, pitchFraction: pitch, gazFraction: gaz, yawFraction: yaw))
            }
        }
    }

    /// What the baseline sees: both positions and the drone receiver's compass heading.
    public struct Input: Sendable, Hashable {
        public var targetCoordinate: GeoCoordinate
        public var droneCoordinate: GeoCoordinate
        /// Heading of the drone's receiver (phone), compass degrees.
        public var receiverHeadingDegrees: Double
    }

    public let parameters: Parameters
    /// The command decided at the last tick (held between ticks).
    public private(set) var command: Command = .hover
    private var nextTickAt: MonotonicTime?

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// objc.io's bearing: atan2(Δlon, Δlat) in degrees, normalised to [0, 360). Wrong away from
    /// the equator because a degree of longitude is cos(lat) shorter than a degree of latitude.
    public static func naiveBearingDegrees(from drone: GeoCoordinate, to target: GeoCoordinate) -> Double {
        let dLat = target.latitudeDegrees - drone.latitudeDegrees
        let dLon = target.longitudeDegrees - drone.longitudeDegrees
        return normalizedDegrees360(degrees(fromRadians: _atan2(dLon, dLat)))
    }

    /// bearing − receiverHeading − mountOffset, wrapped to [−180, 180) (objc.io
    /// `directionDifferenceToTarget`); positive = target is clockwise of the nose.
    public static func directionDifferenceDegrees(_ input: Input, mountOffsetDegrees: Double) -> Double {
        wrappedDegrees180(
            naiveBearingDegrees(from: input.droneCoordinate, to: input.targetCoordinate)
                - input.receiverHeadingDegrees - mountOffsetDegrees
        )
    }

    /// The baseline's decision for one input (no timing).
    public static func decide(_ input: Input, parameters: Parameters) -> Command {
        // objc.io measures distance with CLLocation (a proper geodesic), not the naive formula.
        let distance = BearingDistance.between(input.droneCoordinate, input.targetCoordinate).distanceMeters
        if distance < parameters.standoffMeters { return .hover }
        let difference = directionDifferenceDegrees(input, mountOffsetDegrees: parameters.mountOffsetDegrees)
        let yaw = Float(min(max(difference * parameters.yawPerDegree, -1), 1))
        let pitch: Float = abs(difference) < parameters.forwardConeDegrees ? parameters.forwardPitch : 0
        // objc.io sends flag 0 whenever both speeds are zero.
        if yaw == 0, pitch == 0 { return .hover }
        return .move(roll: 0, pitch: pitch, gaz: 0, yaw: yaw)
    }

    /// The command to send at `now`: re-decided on the 4 Hz grid (first call ticks at once), held
    /// in between. No input (no target or no drone fix yet) decides hover.
    public mutating func update(_ input: Input?, at now: MonotonicTime) -> Command {
        let due = nextTickAt.map { now >= $0 } ?? true
        guard due else { return command }
        command = input.map { Self.decide($0, parameters: parameters) } ?? .hover
        var next = nextTickAt ?? now
        let period = max(parameters.periodSeconds, 1e-3)
        while next <= now { next = next.adding(seconds: period) }
        nextTickAt = next
        return command
    }
}
