/// The fixed step both simulators integrate with, and the share of the gap each first-order lag
/// of `DroneDynamics` (tilt, drag, yaw rate) closes in one step.
struct PhysicsStep: Sendable {
    let nanoseconds: Int64
    let seconds: Double
    let tiltAlpha: Double
    let velocityAlpha: Double
    let yawAlpha: Double

    /// `dynamics.stepSeconds` on whole nanoseconds (5 ms when it is not positive).
    init(_ dynamics: DroneDynamics) {
        let dt = dynamics.stepSeconds > 0 ? dynamics.stepSeconds : 0.005
        nanoseconds = max(1, Int64((dt * 1e9).rounded()))
        seconds = Double(nanoseconds) / 1e9
        tiltAlpha = Self.alpha(ratePerSecond: dynamics.tiltRatePerSecond, seconds: seconds)
        velocityAlpha = Self.alpha(ratePerSecond: dynamics.dragRatePerSecond, seconds: seconds)
        yawAlpha = Self.alpha(ratePerSecond: dynamics.yawRateResponsePerSecond, seconds: seconds)
    }

    /// 1 − e^(−rate·dt): how much of the gap to its reference a first-order lag closes in `seconds`.
    static func alpha(ratePerSecond: Double, seconds: Double) -> Double {
        1 - _exp(-ratePerSecond * seconds)
    }
}
