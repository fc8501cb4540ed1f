import FollowCore
import Geometry

/// MINIMAL TEST PLANT — *not* the project's simulator (that is module `Simulation`).
///
/// Just enough AR.Drone 2.0 to close the loop around `FlightStateMachine` in these tests,
/// using the tum_ardrone model of reference/dynamics-and-follow.md §1.2/§1.4:
/// - tilt: first order, τ = 0.14 s (c3 = 7), reference = (−pitch, roll)·euler_angle_max in the
///   body frame, rotated to the world by the heading;
/// - horizontal velocity: v̇ = 0.58·(17.5·sin(tilt) − v) per axis;
/// - yaw rate: ψ̈ = 25·(u·control_yaw − ψ̇);
/// - vertical speed: ż̈ = 0.8·(gaz·control_vz_max − ż);
/// - every command acts 100 ms after it is sent (tum `delayControl`);
/// - hover (no PCMD pilot): velocity brakes as v̇ ≈ −1.5·v (our assumption, as in Simulation).
struct TestPlant {
    var position: PlaneVector
    var velocity: PlaneVector = .zero
    /// World-frame tilt angles, radians (east, north components of the tilt direction).
    var tiltRadians: PlaneVector = .zero
    var headingDegrees: Double
    var yawRateDegreesPerSecond = 0.0
    var altitudeMeters: Double
    var climbRateMetersPerSecond = 0.0

    let maxTiltDegrees: Double
    let maxYawRateDegreesPerSecond: Double
    let maxClimbMetersPerSecond: Double
    static let commandDelaySeconds = 0.1
    static let tiltRatePerSecond = 7.0
    static let dragRatePerSecond = 0.58
    static let speedPerSinTilt = 17.5
    static let yawResponsePerSecond = 25.0
    static let verticalResponsePerSecond = 0.8
    static let hoverBrakePerSecond = 1.5

    /// Commands in flight: (time it takes effect, pilot or nil = hover).
    private var pending: [(at: Double, pilot: PilotCommand?)] = []
    private(set) var applied: PilotCommand?

    init(position: PlaneVector, headingDegrees: Double, altitudeMeters: Double, parameters: FollowParameters) {
        self.position = position
        self.headingDegrees = headingDegrees
        self.altitudeMeters = altitudeMeters
        self.maxTiltDegrees = parameters.maxTiltDegrees
        self.maxYawRateDegreesPerSecond = parameters.maxYawRateDegreesPerSecond
        self.maxClimbMetersPerSecond = parameters.maxClimbMetersPerSecond
    }

    mutating func send(_ pilot: PilotCommand?, at time: Double) {
        pending.append((at: time + Self.commandDelaySeconds, pilot: pilot))
    }

    mutating func step(seconds dt: Double, time: Double) {
        while let first = pending.first, first.at <= time {
            applied = first.pilot
            pending.removeFirst()
        }
        let maxTilt = radians(fromDegrees: maxTiltDegrees)
        var reference: PlaneVector
        let yawCommand: Double
        let gaz: Double
        if let pilot = applied {
            let forward = -pilot.pitch * maxTilt
            let right = pilot.roll * maxTilt
            reference = PlaneVector.unit(bearingDegrees: headingDegrees) * forward
                + PlaneVector.unit(bearingDegrees: headingDegrees + 90) * right
            yawCommand = pilot.yaw
            gaz = pilot.gaz
        } else {
            // Firmware hover: tilt that makes v decay at hoverBrakePerSecond.
            let want = (velocity - velocity * (Self.hoverBrakePerSecond / Self.dragRatePerSecond)) / Self.speedPerSinTilt
            reference = PlaneVector(east: _asin(min(max(want.east, -0.99), 0.99)),
                                    north: _asin(min(max(want.north, -0.99), 0.99)))
            reference = reference.clamped(toLength: maxTilt)
            yawCommand = 0
            gaz = 0
        }
        tiltRadians += (reference - tiltRadians) * (Self.tiltRatePerSecond * dt)
        let thrust = PlaneVector(east: _sin(tiltRadians.east), north: _sin(tiltRadians.north)) * Self.speedPerSinTilt
        velocity += (thrust - velocity) * (Self.dragRatePerSecond * dt)
        position += velocity * dt
        yawRateDegreesPerSecond += (yawCommand * maxYawRateDegreesPerSecond - yawRateDegreesPerSecond)
            * (Self.yawResponsePerSecond * dt)
        headingDegrees = normalizedDegrees360(headingDegrees + yawRateDegreesPerSecond * dt)
        climbRateMetersPerSecond += (gaz * maxClimbMetersPerSecond - climbRateMetersPerSecond)
            * (Self.verticalResponsePerSecond * dt)
        altitudeMeters += climbRateMetersPerSecond * dt
    }

    /// Navdata's body-frame velocity.
    var bodyVelocity: BodyVelocity {
        let body = velocity.bodyFrame(headingDegrees: headingDegrees)
        return BodyVelocity(forwardMetersPerSecond: body.forward, rightMetersPerSecond: body.right)
    }
}
