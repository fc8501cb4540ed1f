/// What only the core knows about one tick, handed with its `MotionCommand` to a drone family that
/// closes the velocity loop itself (the AR.Drone's `TiltLoop`, module ARDrone, run by its link at send
/// time): vehicle-independent values in the local plane — no attitude, no PCMD. An autopilot flies
/// the motion alone and gets none.
public struct MotionContext: Sendable, Hashable {
    /// The drone `ControllerTuning.commandLatencySeconds` ahead, as the core predicts it: what the
    /// velocity loop compares the commanded velocity with (tum_ardrone `delayControl`).
    public var predictedDrone: PlaneState
    /// The drone's estimated position now, plane metres (the keep-off rule's origin).
    public var dronePositionPlane: PlaneVector
    /// Compass heading of the nose, degrees: the body frame a vehicle's attitude is given in.
    public var noseHeadingDegrees: Double
    /// The interval this command covers, seconds (the core's tick: the slew limits' time step).
    public var intervalSeconds: Double
    /// The stopping model says the drone must already be moving away from the person: the motion
    /// must not be smoothed (slew-limited) on its way to the vehicle.
    public var escaping: Bool
    /// Points the drone must not accelerate towards while it is inside `keepOffRadiusMeters` of them:
    /// the person's estimate and their stop point (their last fix); nil when no person is known. Two
    /// values, not an array: this is built every control tick, which allocates nothing (PERFORMANCE.md).
    public var keepOffPersonPlane: PlaneVector?
    public var keepOffStopPointPlane: PlaneVector?
    /// The protected radius round each keep-off point, metres (`FailsafeParameters.minSeparationMeters`).
    public var keepOffRadiusMeters: Double
    /// The core's estimate of the air mass's velocity, plane m/s: what holding the velocity must cancel.
    public var windEstimate: PlaneVector

    /// Whether every value is finite (the keep-off points when present).
    @inlinable public var isValid: Bool {
        predictedDrone.position.isFinite && predictedDrone.velocity.isFinite && dronePositionPlane.isFinite
            && noseHeadingDegrees.isFinite && intervalSeconds.isFinite && keepOffRadiusMeters.isFinite
            && windEstimate.isFinite && (keepOffPersonPlane?.isFinite ?? true) && (keepOffStopPointPlane?.isFinite ?? true)
    }
}
