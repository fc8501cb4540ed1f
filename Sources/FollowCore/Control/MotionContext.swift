/// What only the core knows about one tick, handed with its `MotionCommand` to a `VehicleModel` that
/// closes the velocity loop itself: plane values only.
public struct MotionContext: Sendable, Hashable {
    /// The drone `commandLatencySeconds` ahead, as the core predicts it (the velocity loop's input).
    public var predictedDrone: PlaneState
    /// The drone's estimated position now, plane metres.
    public var dronePositionPlane: PlaneVector
    /// Compass heading of the nose, degrees: the body frame.
    public var noseHeadingDegrees: Double
    /// The tick this command covers, seconds (the slew limits' time step).
    public var intervalSeconds: Double
    /// The drone must already be moving away from the person: do not slew-limit the motion.
    public var escaping: Bool
    /// Points the drone must not accelerate towards while inside `keepOffRadiusMeters` of them: the
    /// person's estimate and their last fix; nil when no person is known. Two fields, not an array: no
    /// allocation per tick (PERFORMANCE.md).
    public var keepOffPersonPlane: PlaneVector?
    public var keepOffStopPointPlane: PlaneVector?
    /// The protected radius round each keep-off point, metres (`minSeparationMeters`).
    public var keepOffRadiusMeters: Double
    /// The wind estimate, plane m/s: what holding the velocity must cancel.
    public var windEstimate: PlaneVector
    /// How fast an active approach limit's cap is falling as the drone closes on its point, plane m/s²
    /// (zero when none binds): a velocity loop adds it to the acceleration it asks for, so it tracks the
    /// braking curve instead of lagging it (docs/stopping-model.md §3).
    public var brakingFeedforward: PlaneVector = .zero

    /// Whether every value is finite.
    @inlinable public var isValid: Bool {
        predictedDrone.position.isFinite && predictedDrone.velocity.isFinite && dronePositionPlane.isFinite
            && noseHeadingDegrees.isFinite && intervalSeconds.isFinite && keepOffRadiusMeters.isFinite
            && windEstimate.isFinite && brakingFeedforward.isFinite && (keepOffPersonPlane?.isFinite ?? true) && (keepOffStopPointPlane?.isFinite ?? true)
    }
}
