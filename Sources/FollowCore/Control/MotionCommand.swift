/// What the core asks of the vehicle for one tick, whatever the vehicle: a horizontal velocity in the
/// local plane, a climb rate and a yaw rate. The family's `VehicleModel` and link turn it into what the
/// vehicle flies (docs/architecture.md §3.1).
public struct MotionCommand: Sendable, Hashable {
    /// Horizontal velocity over the ground, plane m/s (east, north): true north, not the nose.
    public var velocity: PlaneVector
    /// Vertical speed, m/s; positive = up.
    public var climbMetersPerSecond: Double
    /// Yaw rate, degrees per second; positive = clockwise seen from above.
    public var yawRateDegreesPerSecond: Double
    /// What a vehicle model that closes the velocity loop needs besides (`MotionContext`); nil otherwise.
    public var context: MotionContext?

    @inlinable public init(velocity: PlaneVector, climbMetersPerSecond: Double, yawRateDegreesPerSecond: Double,
                           context: MotionContext? = nil) {
        self.velocity = velocity
        self.climbMetersPerSecond = climbMetersPerSecond
        self.yawRateDegreesPerSecond = yawRateDegreesPerSecond
        self.context = context
    }

    /// Stand still: zero velocity, climb and yaw rate (an autopilot brakes and holds where it stops).
    public static let stop = MotionCommand(velocity: .zero, climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)

    /// Whether every value is finite, the context's included.
    @inlinable public var isValid: Bool {
        velocity.isFinite && climbMetersPerSecond.isFinite && yawRateDegreesPerSecond.isFinite && (context?.isValid ?? true)
    }
}
