@testable import FollowCore
import ARDrone

/// The physics a `TestPlant` flies with: what the world is, independently of what the
/// controller believes (`ControllerTuning` has its own copy of c1/c2/latency; tests must not
/// check the controller only against its own model, issue 11 "Tests that must exist").
struct PlantModel: Sendable, CustomStringConvertible {
    /// Shown in test names: `nominal`, `off-model`.
    var name: String
    /// c1: 1/τ of horizontal velocity (drag), s⁻¹.
    var dragRatePerSecond: Double
    /// c2: steady speed per unit sin(tilt), m/s.
    var speedPerSinTilt: Double
    /// Time constant of the tilt response, seconds (1/c3).
    var tiltTimeConstantSeconds: Double
    /// Delay from sending a command to its effect, seconds.
    var commandDelaySeconds: Double
    /// Steady wind, m/s east/north (the air's velocity); drag acts on air-relative velocity.
    var windENU: PlaneVector = .zero
    /// Gusts on top of `windENU`: first-order Gauss–Markov per axis (the Dryden longitudinal
    /// form, see `Simulation.WindModel`), stationary σ in m/s (0 = steady).
    var gustSigmaMetersPerSecond = 0.0
    /// Correlation time of the gusts, seconds.
    var gustTimeConstantSeconds = 5.0

    var description: String { name }

    /// The tum_ardrone cfg defaults (docs/dynamics-and-follow.md §1.2, written out here on
    /// purpose, not read from `ControllerTuning`): c1 0.58, c2 17.5, c3 7 (τ 0.14 s), 100 ms
    /// `delayControl`, no wind.
    static let nominal = PlantModel(name: "nominal", dragRatePerSecond: 0.58, speedPerSinTilt: 17.5,
                                    tiltTimeConstantSeconds: 1.0 / 7, commandDelaySeconds: 0.1)

    /// Not the controller's model (issue 11/12): c1 ×0.8, c2 ×1.15, 180 ms latency, and a steady
    /// 3 m/s wind towards the east — from behind a drone that starts west of the person, so in
    /// the default geometry it pushes the drone towards them (the separation tests' worst case).
    static let offModel = PlantModel(name: "off-model", dragRatePerSecond: 0.58 * 0.8, speedPerSinTilt: 17.5 * 1.15,
                                     tiltTimeConstantSeconds: 1.0 / 7, commandDelaySeconds: 0.18,
                                     windENU: PlaneVector(east: 3, north: 0))

    /// Both, for parameterised tests.
    static let both: [PlantModel] = [.nominal, .offModel]
}

/// MINIMAL TEST PLANT — *not* the project's simulator (that is module `Simulation`).
///
/// Just enough AR.Drone 2.0 to close the loop around `FlightStateMachine` in these tests,
/// using the tum_ardrone model of docs/dynamics-and-follow.md §1.2/§1.4 with the constants
/// of a `PlantModel` (nominal values in brackets):
/// - tilt: first order, τ = `tiltTimeConstantSeconds` [0.14 s], reference = (−pitch, roll)·
///   euler_angle_max in the body frame, rotated to the world by the heading;
/// - horizontal velocity: v̇ = c1·(c2·sin(tilt) − (v − wind)) per axis [c1 0.58, c2 17.5];
/// - yaw rate: ψ̈ = 25·(u·control_yaw − ψ̇);
/// - vertical speed: ż̈ = 0.8·(gaz·control_vz_max − ż);
/// - every command acts `commandDelaySeconds` after it is sent [100 ms, tum `delayControl`];
/// - hover (no PCMD pilot): ground velocity brakes as v̇ ≈ −1.5·v (our assumption, as in Simulation).
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
    let model: PlantModel
    /// The wind in force (mean + gust), m/s ENU.
    private(set) var windENU: PlaneVector
    private var gust: PlaneVector = .zero
    /// The gusts' own random stream, so adding wind never shifts the GPS noise of a seed.
    private var gustRandom: TestRandom
    static let yawResponsePerSecond = 25.0
    static let verticalResponsePerSecond = 0.8
    static let hoverBrakePerSecond = 1.5

    /// Commands in flight: (time it takes effect, pilot or nil = hover).
    private var pending: [(at: Double, pilot: PilotCommand?)] = []
    private(set) var applied: PilotCommand?

    init(position: PlaneVector, headingDegrees: Double, altitudeMeters: Double, parameters: FollowParameters,
         model: PlantModel = .nominal, seed: UInt64 = 1) {
        self.model = model
        self.windENU = model.windENU
        self.gustRandom = TestRandom(seed: seed ^ 0x5749_4E44)
        if model.gustSigmaMetersPerSecond > 0 {
            gust = gustRandom.gaussianVector(sigma: model.gustSigmaMetersPerSecond)
            windENU = model.windENU + gust
        }
        self.position = position
        self.headingDegrees = headingDegrees
        self.altitudeMeters = altitudeMeters
        // The drone's euler_angle_max: what the AR.Drone link writes (the braking tilt).
        self.maxTiltDegrees = parameters.effectiveBrakingTiltDegrees
        self.maxYawRateDegreesPerSecond = parameters.maxYawRateDegreesPerSecond
        self.maxClimbMetersPerSecond = parameters.maxClimbMetersPerSecond
    }

    mutating func send(_ pilot: PilotCommand?, at time: Double) {
        pending.append((at: time + model.commandDelaySeconds, pilot: pilot))
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
            let want = (velocity - windENU - velocity * (Self.hoverBrakePerSecond / model.dragRatePerSecond))
                / model.speedPerSinTilt
            reference = PlaneVector(east: _asin(min(max(want.east, -0.99), 0.99)),
                                    north: _asin(min(max(want.north, -0.99), 0.99)))
            reference = reference.clamped(toLength: maxTilt)
            yawCommand = 0
            gaz = 0
        }
        if model.gustSigmaMetersPerSecond > 0 {
            // Exact Gauss–Markov step: g ← e^{−dt/τ}·g + σ·√(1 − e^{−2dt/τ})·n.
            let decay = _exp(-dt / model.gustTimeConstantSeconds)
            gust = gust * decay + gustRandom.gaussianVector(
                sigma: model.gustSigmaMetersPerSecond * (1 - decay * decay).squareRoot())
            windENU = model.windENU + gust
        }
        tiltRadians += (reference - tiltRadians) * (dt / model.tiltTimeConstantSeconds)
        let thrust = PlaneVector(east: _sin(tiltRadians.east), north: _sin(tiltRadians.north)) * model.speedPerSinTilt
        velocity += (thrust + windENU - velocity) * (model.dragRatePerSecond * dt)
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
