@testable import ARDrone
@testable import FollowCore
@testable import MAVLink
import Testing

@Suite("TiltLoop: the AR.Drone's PCMD from motion and its context alone")
struct TiltLoopTests {
    static let parameters = FollowParameters(standoffMeters: 6)
    static let minSeparation = FailsafeParameters().minSeparationMeters

    @Test("a tilt loop fed only the motion commands (with their context) makes every PCMD the model's set-point carries, and the model predicts with exactly the tilt each holds")
    func motionAndContextCarryEverything() throws {
        // Given a controller following a person who walks past and turns, in seeded situations, with the
        // vehicle model's set-point made for every command
        var random = TestRandom(seed: 11)
        for _ in 0..<50 {
            var linked = LinkedController(FollowController(parameters: Self.parameters, minSeparationMeters: Self.minSeparation,
                                                           geofenceMeters: 100, vehicle: .tiltLoop))
            var loop = TiltLoop(parameters: Self.parameters, tuning: TiltModelTuning())
            let start = random.gaussianVector(sigma: 4)
            let walk = random.gaussianVector(sigma: 1.2)
            let nose = 360 * random.uniform()
            for k in 0..<90 {
                let t = Double(k) / 30
                let person = PlaneState(position: start + walk * t, velocity: walk)
                let drone = PlaneState(position: random.gaussianVector(sigma: 0.05), velocity: random.gaussianVector(sigma: 0.3))
                // When the controller decides, and a second tilt loop translates the motion it emitted
                let out = linked.follow(target: person, targetLastFix: person.position + random.gaussianVector(sigma: 0.5),
                                        motion: .moving, drone: drone, noseHeadingDegrees: nose, altitudeMeters: 3,
                                        home: nil, now: MonotonicTime(seconds: t))
                let context = try #require(out.motion.context)
                // Then both PCMDs are the same, tick after tick
                #expect(loop.translate(out.motion, context: context) == out.pilot)
                // and the tilt the model predicts with is bit for bit the one the PCMD holds, at any nose heading
                let model = try #require(linked.vehicle as? TiltVehicleModel)
                for heading in [nose, nose + 7.5] {
                    #expect(model.loop.lastWorldSinTilt(noseHeadingDegrees: heading)
                        == loop.lastWorldSinTilt(noseHeadingDegrees: heading))
                }
            }
        }
    }

    @Test("an autopilot's motion carries no context and gets no set-point: its link flies the motion")
    func autopilotGetsNoContext() {
        var linked = LinkedController(FollowController(parameters: Self.parameters, minSeparationMeters: Self.minSeparation,
                                                       geofenceMeters: 100, vehicle: .velocityLoop(.arduCopterDefaults)))
        let out = linked.follow(target: PlaneState(position: PlaneVector(east: 10, north: 0), velocity: .zero),
                                motion: .stationary, drone: PlaneState(position: .zero, velocity: .zero),
                                noseHeadingDegrees: 0, altitudeMeters: 3, home: nil, now: .zero)
        #expect(out.motion.context == nil)
        #expect(out.pilot == nil)
    }

    @Test("a hover seeds the tilt loop from the attitude the firmware flew; level on the ground")
    func hoverSeed() {
        var model = TiltVehicleModel(follow: Self.parameters)
        let maxTilt = radians(fromDegrees: Self.parameters.effectiveBrakingTiltDegrees)
        // Given telemetry of a drone hovering at 1 m, nose down 3°, right side down 2°
        model.observe(DroneTelemetry(flightState: .hovering, batteryPercent: 80, altitudeMeters: 1,
                                     pitchDegrees: -3, rollDegrees: 2, receivedAt: .zero))
        // When the flight sends a hover with REF bit 9 set
        let setpoint = model.setpoint(for: LinkCommand(flying: true))
        // Then no PCMD goes out, and the loop ramps from (and predicts with) that attitude
        #expect(setpoint == nil)
        #expect(abs(model.loop.lastCommand.pitch - radians(fromDegrees: -3) / maxTilt) < 1e-12)
        let tilt = model.loop.lastWorldSinTilt(noseHeadingDegrees: 0)
        #expect(abs(tilt.north - _sin(radians(fromDegrees: 3))) < 1e-12)
        #expect(abs(tilt.east - _sin(radians(fromDegrees: 2))) < 1e-12)
        // and a command to land (or a drone on the ground) starts it from level
        _ = model.setpoint(for: .landed)
        #expect(model.loop.lastCommand == .zero)
    }

    static func context(drone: PlaneState = PlaneState(position: .zero, velocity: .zero), escaping: Bool = false,
                        keepOff: (PlaneVector, PlaneVector)? = nil, wind: PlaneVector = .zero) -> MotionContext {
        MotionContext(predictedDrone: drone, dronePositionPlane: drone.position, noseHeadingDegrees: 0,
                      intervalSeconds: 1.0 / 30, escaping: escaping, keepOffPersonPlane: keepOff?.0,
                      keepOffStopPointPlane: keepOff?.1,
                      keepOffRadiusMeters: minSeparation, windEstimate: wind)
    }

    @Test("holding a velocity in still air and in wind: sin(tilt) = (v − wind)/c2 once the slew limit has caught up")
    func steadyTiltCancelsTheWind() {
        let tuning = TiltModelTuning()
        let maxTilt = radians(fromDegrees: Self.parameters.effectiveBrakingTiltDegrees)
        for wind in [PlaneVector.zero, PlaneVector(east: 0, north: -1.5)] {
            // Given a drone flying north at 2 m/s, nose north
            var loop = TiltLoop(parameters: Self.parameters, tuning: tuning)
            let drone = PlaneState(position: .zero, velocity: PlaneVector(east: 0, north: 2))
            let motion = MotionCommand(velocity: drone.velocity, climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)
            // When the loop has run for 3 s
            var pcmd = PilotCommand.zero
            for _ in 0..<90 { pcmd = loop.translate(motion, context: Self.context(drone: drone, wind: wind)) }
            // Then it pitches forward by asin((v − wind)/c2), no roll
            let expected = -_asin((2 - wind.north) / tuning.tiltSpeedMetersPerSecond) / maxTilt
            #expect(abs(pcmd.pitch - expected) < 1e-9)
            #expect(abs(pcmd.roll) < 1e-9)
        }
    }

    @Test("inside the protected radius no tilt towards a keep-off point survives, slew limit or not")
    func keepOffBypassesTheSlewLimit() {
        // Given a loop whose last PCMD was full tilt north (towards a person 1 m north of the drone)
        var loop = TiltLoop(parameters: Self.parameters, tuning: TiltModelTuning())
        let north = MotionCommand(velocity: PlaneVector(east: 0, north: 8), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)
        for _ in 0..<60 { _ = loop.translate(north, context: Self.context(escaping: true)) }
        #expect(loop.lastCommand.pitch < -0.75)
        // When it is asked for the same motion with the person inside the protected radius
        let person = PlaneVector(east: 0, north: 1)
        let pcmd = loop.translate(north, context: Self.context(keepOff: (person, person)))
        // Then the PCMD tilts no more towards them (pitch is level at once, not slewed back)
        #expect(pcmd.pitch >= -1e-9)
        // and without a keep-off point, the same loop would only slew
        var free = TiltLoop(parameters: Self.parameters, tuning: TiltModelTuning())
        for _ in 0..<60 { _ = free.translate(north, context: Self.context(escaping: true)) }
        #expect(free.translate(north, context: Self.context()).pitch < -0.75)
    }

    @Test("cruise stays within max_tilt_deg; braking against the motion may use braking_tilt_deg")
    func brakingTilt() {
        let p = Self.parameters
        let cruise = p.maxTiltDegrees / p.effectiveBrakingTiltDegrees
        #expect(p.maxTiltDegrees == 20 && p.effectiveBrakingTiltDegrees == 25)
        func settled(_ motion: PlaneVector, drone: PlaneState, person: PlaneVector? = nil) -> PilotCommand {
            var loop = TiltLoop(parameters: p, tuning: TiltModelTuning())
            let command = MotionCommand(velocity: motion, climbMetersPerSecond: 0, yawRateDegreesPerSecond: 0)
            var pcmd = PilotCommand.zero
            for _ in 0..<60 { pcmd = loop.translate(command, context: Self.context(drone: drone, keepOff: person.map { ($0, $0) })) }
            return pcmd
        }
        // Given a drone at rest asked for 8 m/s north (nose north), Then it cruises at 20° of the 25° scale
        let cruising = settled(PlaneVector(east: 0, north: 8), drone: PlaneState(position: .zero, velocity: .zero))
        #expect(abs(cruising.pitch + cruise) < 1e-9, "\(cruising)")
        // Given a drone flying north at 4 m/s asked to stop, Then it brakes at the full 25°
        let braking = settled(.zero, drone: PlaneState(position: .zero, velocity: PlaneVector(east: 0, north: 4)))
        #expect(abs(braking.pitch - 1) < 1e-9, "\(braking)")
        // Given a drone at rest asked for 8 m/s south, Then that is cruising too: 20°
        let backingOff = settled(PlaneVector(east: 0, north: -8), drone: PlaneState(position: .zero, velocity: .zero),
                                 person: PlaneVector(east: 0, north: 9))
        #expect(abs(backingOff.pitch - cruise) < 1e-9, "\(backingOff)")
        // And the stopping model counts on the braking tilt: 0.7 · c1 · c2 · sin 25°
        let model = TiltVehicleModel(follow: p)
        let tuning = TiltModelTuning()
        #expect(abs(model.brakingAccelerationMetersPerSecondSquared(authorityFraction: 0.7)
            - 0.7 * tuning.dragRatePerSecond * tuning.tiltSpeedMetersPerSecond * _sin(radians(fromDegrees: 25))) < 1e-12)
        #expect(abs(model.windAuthorityMetersPerSecond - tuning.tiltSpeedMetersPerSecond * _sin(radians(fromDegrees: 20))) < 1e-12)
    }
}
