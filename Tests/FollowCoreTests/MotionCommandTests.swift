@testable import FollowCore
import ARDrone
@testable import MAVLink
import Testing


/// The core commands motion (issue 22): a velocity in the plane, a climb rate and a yaw rate; the
/// AR.Drone's PCMD is the tilt loop's translation, an autopilot gets the motion as is.
@Suite("Motion commands: the core's output for every drone family")
struct MotionCommandTests {
    static let parameters = FollowParameters(standoffMeters: 11)
    static let minSeparation = FailsafeParameters().minSeparationMeters
    static let autopilot = VehicleModelBuilder.velocityLoop(.arduCopterDefaults)

    static func controller(_ vehicle: VehicleModelBuilder) -> LinkedController {
        LinkedController(FollowController(parameters: parameters, minSeparationMeters: minSeparation, geofenceMeters: 100, vehicle: vehicle))
    }

    /// One follow tick at 30 Hz tick `k`.
    static func follow(_ c: inout LinkedController, person: PlaneState, drone: PlaneState, nose: Double = 90,
                       k: Int) -> LinkedOutput {
        c.follow(target: person, motion: person.velocity.length > 0.5 ? .moving : .stationary, drone: drone,
                 noseHeadingDegrees: nose, altitudeMeters: 3, home: nil, now: MonotonicTime(seconds: Double(k) / 30))
    }

    @Test("an autopilot gets the commanded velocity as is: no PCMD, no velocity-loop lead on top")
    func autopilotGetsTheVelocity() {
        // Given a drone at the standoff behind a person who starts walking east at 1.4 m/s, still at rest itself
        var c = Self.controller(Self.autopilot)
        let person = PlaneState(position: PlaneVector(east: 11, north: 0), velocity: PlaneVector(east: 1.4, north: 0))
        let drone = PlaneState(position: .zero, velocity: .zero)
        // When the core decides
        var out = Self.follow(&c, person: person, drone: drone, k: 0)
        for k in 1..<30 { out = Self.follow(&c, person: person, drone: drone, k: k) }
        // Then there is no PCMD, and the motion is the velocity the controller wants (after every limit)
        #expect(out.pilot == nil)
        #expect(out.motion.velocity == out.commandedVelocity)
        // And it is about the walker's pace, not amplified by the drone's velocity error: the AR.Drone's
        // velocity-loop lead term (v_cmd − v)·Kv/c1 ≈ 4.3 × 1.4 m/s would have asked for ≈ 7 m/s
        #expect(out.motion.velocity.east > 1 && out.motion.velocity.east < 2.5, "\(out.motion)")
        #expect(abs(out.motion.velocity.north) < 0.3)
    }

    @Test("the AR.Drone gets both: the motion, and the PCMD its tilt loop makes of it")
    func arDroneGetsBoth() {
        // Given the same scene on the AR.Drone
        var c = Self.controller(.tiltLoop)
        let person = PlaneState(position: PlaneVector(east: 11, north: 0), velocity: PlaneVector(east: 1.4, north: 0))
        let drone = PlaneState(position: .zero, velocity: .zero)
        var out = Self.follow(&c, person: person, drone: drone, k: 0)
        for k in 1..<30 { out = Self.follow(&c, person: person, drone: drone, k: k) }
        // Then the motion is the same kind of command, and the PCMD pitches the nose (east) down to accelerate
        let pilot = try? #require(out.pilot)
        #expect((pilot?.pitch ?? 0) < -0.3)
        #expect(out.motion.velocity.east > 1 && out.motion.velocity.east < 2.5, "\(out.motion)")
    }

    @Test("yaw rate and climb rate are in degrees/s and m/s, within the configured maxima")
    func units() {
        // Given a drone 2 m low with its nose north and the person due east
        var c = Self.controller(Self.autopilot)
        let person = PlaneState(position: PlaneVector(east: 15, north: 0), velocity: .zero)
        let out = c.follow(target: person, motion: .stationary, drone: PlaneState(position: .zero, velocity: .zero),
                           noseHeadingDegrees: 0, altitudeMeters: 1, home: nil, now: .zero)
        // Then it climbs at most max_climb_mps and turns clockwise at most max_yaw_rate_dps
        #expect(out.motion.climbMetersPerSecond > 0 && out.motion.climbMetersPerSecond <= Self.parameters.maxClimbMetersPerSecond)
        #expect(out.motion.yawRateDegreesPerSecond > 0)
        #expect(out.motion.yawRateDegreesPerSecond <= Self.parameters.maxYawRateDegreesPerSecond)
    }

    @Test("inside the protected radius an autopilot is commanded away from the person, never towards")
    func autopilotBacksOff() {
        // Given a person 2 m east of the drone (inside min separation), the drone drifting towards them
        var c = Self.controller(Self.autopilot)
        let person = PlaneState(position: PlaneVector(east: 2, north: 0), velocity: .zero)
        let drone = PlaneState(position: .zero, velocity: PlaneVector(east: 1, north: 0))
        let out = Self.follow(&c, person: person, drone: drone, k: 0)
        // Then the velocity points away (west)
        #expect(out.motion.velocity.east < -0.5, "\(out.motion)")
    }

    @Test("the separation cap fails closed on NaN: no motion towards the person", arguments: [
        (PlaneVector(east: .nan, north: 0), 0.5),
        (PlaneVector(east: 2, north: 0), Double.nan),
        (PlaneVector(east: .infinity, north: 1), 0.5),
    ])
    func halfPlaneFailsClosed(velocity: PlaneVector, limit: Double) {
        // Given the constraint "at most `limit` m/s towards the person (east)"
        let cap = HalfPlane(normal: PlaneVector(east: 1, north: 0), limit: limit)
        // When a non-finite velocity or limit meets it
        let projected = HalfPlane.project(velocity, cap, nil)
        // Then nothing non-finite and nothing towards the person gets through
        #expect(projected.isFinite)
        #expect(projected.east <= 0)
    }

    @Test("the separation cap fails closed on NaN with a back-off: it still backs off")
    func halfPlaneFailsClosedBackingOff() {
        let cap = HalfPlane(normal: PlaneVector(east: 1, north: 0), limit: -0.8)
        let projected = HalfPlane.project(PlaneVector(east: .nan, north: .nan), cap, nil)
        #expect(projected == PlaneVector(east: -0.8, north: 0))
    }

    @Test("keep-off points either side: one demands a 1 m/s back-off, the other caps the speed towards it at 0.5 m/s: still a back-off, not a hold")
    func backOffAgainstCap() {
        // Given a back-off west at 1 m/s (a point east) and, west, a cap of 0.5 m/s towards that side
        let a = HalfPlane(normal: PlaneVector(east: 1, north: 0), limit: -1.0)
        let b = HalfPlane(normal: PlaneVector(east: -1, north: 0), limit: 0.5)
        // When the follow asks to go east
        let projected = HalfPlane.project(PlaneVector(east: 2, north: 1), a, b)
        // Then it backs off west, halfway between the two (the old projection: zero, a hold)
        #expect(projected == PlaneVector(east: -0.75, north: 0), "\(projected)")
        // And equal back-offs both ways hold
        #expect(HalfPlane.project(PlaneVector(east: 2, north: 1), a, HalfPlane(normal: b.normal, limit: -1.0)) == .zero)
    }

    @Test("two constraints, one limit non-finite: a finite answer, the other's back-off (the old projection: NaN)")
    func twoConstraintsOneNaN() {
        let a = HalfPlane(normal: PlaneVector(east: 1, north: 0), limit: .nan)
        let b = HalfPlane(normal: PlaneVector(east: 0, north: 1), limit: -0.7)
        let projected = HalfPlane.project(PlaneVector(east: 2, north: 2), a, b)
        #expect(projected.isFinite, "\(projected)")
        #expect(projected == PlaneVector(east: 0, north: -0.7))
    }

    @Test("an autopilot's stopping model brakes at a share of its own acceleration limit, after latency + jerk ramp + tracking; no wind term")
    func autopilotStopping() {
        let tuning = ControllerTuning()
        let response = AutopilotResponse.arduCopterDefaults
        let model = StoppingModel(parameters: Self.parameters, tuning: tuning, vehicle: .velocityLoop(response))
        // braking: the same share of the limit as the tilt's (brakingAuthorityFraction, 0.7 × 2.5 m/s²)
        #expect(abs(model.droneBrakingMetersPerSecondSquared - tuning.brakingAuthorityFraction * 2.5) < 1e-12)
        // reaction: the command latency + half the jerk ramp (2.5/5/2 s) + the tracking lag
        #expect(abs(model.droneReactionSeconds - (tuning.commandLatencySeconds + 0.25 + response.trackingTimeConstantSeconds)) < 1e-12)
        #expect(model.braking(windTowardsMetersPerSecond: 5) == model.droneBrakingMetersPerSecondSquared)
        // And the AR.Drone's is its tilt model's, as before
        let tilt = StoppingModel(parameters: Self.parameters, tuning: tuning, vehicle: .tiltLoop)
        #expect(tilt.braking(windTowardsMetersPerSecond: 2) < tilt.droneBrakingMetersPerSecondSquared)
    }

    @Test("the shipped standoff (11 m with 3 + 4 m) is defensible on both families")
    func shippedStandoff() throws {
        for vehicle in [VehicleModelBuilder.tiltLoop, .velocityLoop(.arduCopterDefaults), .velocityLoop(.px4Defaults)] {
            _ = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: vehicle)
        }
        // The figures docs/stopping-model.md §7 gives: ArduCopter 11.0 m, PX4 10.8 m at 1 Hz
        func shortest(_ response: AutopilotResponse) -> Double {
            StoppingModel.shortestDefensibleStandoffMeters(
                protectedRadiusMeters: FailsafeParameters().protectedRadiusMeters, follow: FollowParameters(),
                tuning: ControllerTuning(), vehicle: .velocityLoop(response))
        }
        #expect(abs(shortest(.arduCopterDefaults) - 11.0) < 0.05, "\(shortest(.arduCopterDefaults))")
        #expect(abs(shortest(.px4Defaults) - 10.8) < 0.05, "\(shortest(.px4Defaults))")
    }
}

extension MotionCommandTests {
    @Test("the vehicle's own braking limits replace the defaults; a standoff they cannot defend keeps it on the ground (preflight waits: braking)")
    func brakingRead() throws {
        // Given a flight on an ArduCopter, standoff 11 m at 1 Hz (defensible with the defaults)
        var machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: Self.autopilot)
        // When the vehicle says it is tuned soft: 1.2 m/s², 2 m/s³
        machine.handle(.vehicleBraking(accelerationMetersPerSecondSquared: 1.2, jerkMetersPerSecondCubed: 2), now: .zero)
        // Then the stopping model counts on that, and the standoff is no longer defended
        #expect(abs(machine.controller.stopping.droneBrakingMetersPerSecondSquared - 0.7 * 1.2) < 1e-12)
        let shortest = try #require(machine.shortestDefensibleStandoffMeters)
        #expect(shortest > 11)
        let decision = machine.tick(now: MonotonicTime(seconds: 1))
        guard case .preflight(let waiting) = decision.state else { Issue.record("\(decision.state)"); return }
        #expect(waiting.contains(.braking))
        // And at the defaults it is defended (not waiting for braking)
        machine.handle(.vehicleBraking(accelerationMetersPerSecondSquared: 2.5, jerkMetersPerSecondCubed: 5), now: .zero)
        guard case .preflight(let waiting2) = machine.tick(now: MonotonicTime(seconds: 2)).state else { return }
        #expect(!waiting2.contains(.braking))
    }
}
