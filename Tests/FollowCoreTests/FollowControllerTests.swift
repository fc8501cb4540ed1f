@testable import FollowCore
import ARDrone
import Testing

@Suite("FollowController: signs, feed-forward, limits, the separation rule")
struct FollowControllerTests {
    static let parameters = FollowParameters(standoffMeters: 6)
    static let minSeparation = FailsafeParameters().minSeparationMeters

    static func controller() -> LinkedController {
        LinkedController(FollowController(parameters: parameters, minSeparationMeters: minSeparation, geofenceMeters: 100, vehicle: .tiltLoop))
    }

    /// Ticks a controller `count` times at 30 Hz with fixed inputs and returns the last output.
    static func settle(
        _ controller: inout LinkedController, person: PlaneState, motion: TargetMotion = .stationary,
        drone: PlaneState, nose: Double, altitude: Double = 3, home: PlaneVector? = nil, count: Int = 45
    ) -> LinkedOutput {
        var output: LinkedOutput?
        for k in 0..<count {
            output = controller.follow(target: person, motion: motion, drone: drone, noseHeadingDegrees: nose,
                                       altitudeMeters: altitude, home: home, now: MonotonicTime(seconds: Double(k) / 30))
        }
        return output!
    }

    @Test("PCMD signs: forward = negative pitch, right = positive roll, clockwise = positive yaw", arguments: [
        // (person's bearing from the drone, expected sign of pitch, roll, yaw) with the nose north
        (bearing: 0.0, pitch: -1.0, roll: 0.0, yaw: 0.0),
        (bearing: 90.0, pitch: 0.0, roll: 1.0, yaw: 1.0),
        (bearing: 270.0, pitch: 0.0, roll: -1.0, yaw: -1.0),
        (bearing: 180.0, pitch: 1.0, roll: 0.0, yaw: -1.0),
    ])
    func signs(bearing: Double, pitch: Double, roll: Double, yaw: Double) {
        // Given a hovering drone with its nose north and a person standing 12 m away (standoff 6 m)
        var controller = Self.controller()
        let person = PlaneState(position: PlaneVector.unit(bearingDegrees: bearing) * 12, velocity: .zero)
        let drone = PlaneState(position: .zero, velocity: .zero)
        // When the controller has run for 1.5 s
        let out = Self.settle(&controller, person: person, drone: drone, nose: 0)
        // Then it tilts towards the person in the body frame and yaws to face them
        func sign(_ x: Double) -> Double { abs(x) < 0.02 ? 0 : (x > 0 ? 1 : -1) }
        #expect(sign(out.pilot!.pitch) == pitch)
        #expect(sign(out.pilot!.roll) == roll)
        #expect(sign(out.pilot!.yaw) == yaw)
        #expect(out.pilot!.isValid)
    }

    @Test func tooCloseBacksOff() {
        // Given a person standing 2 m north of the drone (inside the 3 m minimum separation)
        var controller = Self.controller()
        let person = PlaneState(position: PlaneVector(east: 0, north: 2), velocity: .zero)
        let out = Self.settle(&controller, person: person, drone: PlaneState(position: .zero, velocity: .zero), nose: 0)
        // Then it commands motion away (south): positive pitch, negative northward velocity
        #expect(out.commandedVelocity.north < 0)
        #expect(out.pilot!.pitch > 0)
        #expect((out.aimPoint - person.position).length >= Self.minSeparation)
    }

    @Test func inside_minSeparation_noCommandedMotionTowardsThePerson_randomised() {
        // Given 2000 seeded situations with the drone inside minSeparation: any nose, any person
        // and drone velocity (people walking at the drone included), any last-fix offset
        var random = TestRandom(seed: 7)
        for _ in 0..<2000 {
            var controller = Self.controller()
            let distance = 0.05 + 2.9 * random.uniform()
            let bearing = 360 * random.uniform()
            let person = PlaneState(position: PlaneVector.unit(bearingDegrees: bearing) * distance,
                                    velocity: random.gaussianVector(sigma: 1.5))
            let drone = PlaneState(position: .zero, velocity: random.gaussianVector(sigma: 1.5))
            let lastFix = person.position + random.gaussianVector(sigma: 0.7)
            let nose = 360 * random.uniform()
            let motion: TargetMotion = random.uniform() < 0.5 ? .moving : .stationary
            var out: LinkedOutput?
            // When the controller runs a few ticks (with the slew limiter carrying history)
            for k in 0..<(1 + Int(random.uniform() * 10)) {
                out = controller.follow(target: person, targetLastFix: lastFix, motion: motion, drone: drone,
                                        noseHeadingDegrees: nose, altitudeMeters: 3, home: nil,
                                        now: MonotonicTime(seconds: Double(k) / 30))
            }
            guard let out else { continue }
            // Then the commanded velocity has no component towards the person,
            let towards = person.position / distance
            #expect(out.commandedVelocity.dot(towards) <= 1e-9)
            // the aim point is outside minSeparation,
            #expect((out.aimPoint - person.position).length >= Self.minSeparation)
            // and the PCMD tilt has no component towards the person either
            let maxTilt = radians(fromDegrees: Self.parameters.effectiveBrakingTiltDegrees)
            let tilt = PlaneVector.unit(bearingDegrees: nose) * _sin(-out.pilot!.pitch * maxTilt)
                + PlaneVector.unit(bearingDegrees: nose + 90) * _sin(out.pilot!.roll * maxTilt)
            #expect(tilt.dot(towards) <= 1e-9)
        }
    }

    @Test func steadyWalkUsesTheTiltModelAsFeedForward() {
        // Given the drone exactly at the aim point 6 m behind a person walking east at 1.4 m/s,
        // already flying at 1.4 m/s with its nose east
        var controller = Self.controller()
        var out: LinkedOutput?
        for k in 0..<150 {
            let t = Double(k) / 30
            let person = PlaneState(position: PlaneVector(east: 1.4 * t, north: 0), velocity: PlaneVector(east: 1.4, north: 0))
            let drone = PlaneState(position: PlaneVector(east: 1.4 * t - 6, north: 0), velocity: PlaneVector(east: 1.4, north: 0))
            out = controller.follow(target: person, motion: .moving, drone: drone, noseHeadingDegrees: 90,
                                    altitudeMeters: 3, home: nil, now: MonotonicTime(seconds: t))
        }
        // Then it holds the steady tilt asin(v/c2), c2 = 17.5 m/s (tum_ardrone), as a pitch fraction
        let expected = -_asin(1.4 / 17.5) / radians(fromDegrees: Self.parameters.effectiveBrakingTiltDegrees)
        #expect(abs(out!.pilot!.pitch - expected) < 0.01)
        #expect(abs(out!.pilot!.roll) < 0.01)
        #expect(abs(out!.pilot!.yaw) < 0.01)
    }

    @Test func commandsAreSlewRateLimited() {
        // Given a person suddenly appearing 50 m away to the right
        var controller = Self.controller()
        let drone = PlaneState(position: .zero, velocity: .zero)
        let person = PlaneState(position: PlaneVector(east: 50, north: 0), velocity: .zero)
        var previous = PilotCommand.zero
        let tuning = TiltModelTuning()
        // When the controller runs
        for k in 0..<60 {
            let out = controller.follow(target: person, motion: .stationary, drone: drone, noseHeadingDegrees: 0,
                                        altitudeMeters: 3, home: nil, now: MonotonicTime(seconds: Double(k) / 30))
            // Then no output jumps by more than its slew rate per tick
            #expect(abs(out.pilot!.roll - previous.roll) <= tuning.tiltSlewPerSecond / 30 + 1e-6)
            #expect(abs(out.pilot!.pitch - previous.pitch) <= tuning.tiltSlewPerSecond / 30 + 1e-6)
            #expect(abs(out.pilot!.yaw - previous.yaw) <= tuning.yawSlewPerSecond / 30 + 1e-6)
            #expect(abs(out.pilot!.gaz - previous.gaz) <= tuning.gazSlewPerSecond / 30 + 1e-6)
            previous = out.pilot!
        }
        // And it did get going
        #expect(previous.roll > 0.5)
    }

    @Test func theAimPointStaysInsideTheGeofence() {
        // Given a person standing 150 m from home with a 100 m geofence
        var controller = Self.controller()
        let home = PlaneVector.zero
        let out = Self.settle(&controller, person: PlaneState(position: PlaneVector(east: 150, north: 0), velocity: .zero),
                              drone: PlaneState(position: PlaneVector(east: 80, north: 0), velocity: .zero), nose: 90, home: home)
        // Then the drone aims at 90 % of the fence at most
        #expect((out.aimPoint - home).length <= 90 + 1e-9)
    }

    @Test("gaz climbs to and holds the altitude", arguments: [(1.0, 1.0), (3.0, 0.0), (5.0, -1.0)])
    func altitude(altitude: Double, sign: Double) {
        var controller = Self.controller()
        let out = Self.settle(&controller, person: PlaneState(position: PlaneVector(east: 0, north: 6), velocity: .zero),
                              drone: PlaneState(position: .zero, velocity: .zero), nose: 0, altitude: altitude)
        #expect(sign == 0 ? abs(out.pilot!.gaz) < 1e-6 : out.pilot!.gaz * sign > 0.5)
    }

    @Test func aStandingPersonFreezesTheStandoffDirection() {
        // Given a person standing 6 m north-east of the drone
        var controller = Self.controller()
        // (its estimated velocity is jitter, under the feed-forward threshold)
        let person = PlaneState(position: PlaneVector(east: 4.243, north: 4.243), velocity: PlaneVector(east: 0.15, north: 0))
        let out = Self.settle(&controller, person: person, drone: PlaneState(position: .zero, velocity: .zero), nose: 45)
        // Then the direction is frozen and the aim stays where the drone already is
        #expect(out.standoffDirectionFrozen)
        #expect(out.aimPoint.length < 0.01)
    }
}
