@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// What one physics step of a flight looked like.
private struct Sample {
    let seconds: Double
    let velocityENU: PlaneVector
    let tiltWorldRadians: PlaneVector
    let pathAccelerationENU: PlaneVector
    let positionPlane: PlaneVector
}

/// A copter in the air at 5 m (GUIDED), flown by `CopterGroundStation` with LOCAL_NED velocity
/// set-points re-sent every 0.1 s; every 5 ms step is recorded.
private struct GuidedFlight {
    var gcs: CopterGroundStation
    var samples: [Sample] = []

    init(parameters: MAVLinkCopterParameters = .standard, dynamics: DroneDynamics = .standard) {
        gcs = CopterGroundStation(copter: MAVLinkCopter(
            parameters: parameters, dynamics: dynamics,
            plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        gcs.takeOff()
    }

    /// Streams a set-point of `north`, `east` m/s for `seconds` (nil: sends nothing), recording each step.
    mutating func fly(north: Float?, east: Float = 0, seconds: Double) {
        let start = gcs.copter.time
        var nextSend = start
        if samples.isEmpty { record() }
        while gcs.copter.time.seconds(since: start) < seconds - 1e-9 {
            if let north, gcs.copter.time >= nextSend {
                gcs.send(CopterGroundStation.velocity(north, east, frame: .localNED))
                nextSend = nextSend.adding(seconds: 0.1)
            }
            gcs.wait(seconds: 0.005)
            record()
        }
    }

    private mutating func record() {
        let c = gcs.copter
        samples.append(Sample(seconds: c.time.seconds, velocityENU: c.velocityENU, tiltWorldRadians: c.tiltWorldRadians,
                              pathAccelerationENU: c.horizontalController?.accelerationDesiredENU ?? .zero,
                              positionPlane: c.positionPlane))
    }

    /// Largest finite difference of `value` over the samples from `index` on, per second.
    func largestRate(from index: Int = 0, _ value: (Sample) -> PlaneVector) -> Double {
        var largest = 0.0
        for i in max(index, 1)..<samples.count {
            let dt = samples[i].seconds - samples[i - 1].seconds
            largest = max(largest, (value(samples[i]) - value(samples[i - 1])).length / dt)
        }
        return largest
    }
}

@Suite("MAVLinkCopter: ArduCopter's GUIDED velocity path")
struct GuidedVelocityPathTests {
    @Test("a 0 → 5 m/s step: the path's acceleration ≤ WPNAV_ACCEL and its jerk ≤ PSC_JERK_XY; the airframe's acceleration and jerk bounded; it settles on 5 m/s; lean ≤ ANGLE_MAX")
    func stepResponse() {
        // Given a copter hovering in calm air with ArduCopter's defaults
        var flight = GuidedFlight()
        let p = MAVLinkCopterParameters.standard
        // When the ground station asks for 5 m/s north for 12 s
        flight.fly(north: 5, seconds: 12)
        let pathAcceleration = flight.samples.map(\.pathAccelerationENU.length).max() ?? 0
        let pathJerk = flight.largestRate { $0.pathAccelerationENU }
        let acceleration = flight.largestRate { $0.velocityENU }
        let velocities = flight.samples.map(\.velocityENU)
        var jerk = 0.0
        for i in 2..<velocities.count {
            jerk = max(jerk, (velocities[i] - velocities[i - 1] * 2 + velocities[i - 2]).length / (0.005 * 0.005))
        }
        let lean = flight.samples.map(\.tiltWorldRadians.length).max() ?? 0
        let final = flight.gcs.copter.velocityENU
        let overshoot = (velocities.map(\.north).max() ?? 0) - 5
        let rise = flight.samples.first { $0.velocityENU.north >= 0.9 * 5 }.map { $0.seconds - flight.samples[0].seconds } ?? .infinity
        print("[measured] GUIDED 0 → 5 m/s: path accel max \(pathAcceleration) m/s², path jerk max \(pathJerk) m/s³, airframe accel max \(acceleration) m/s², airframe jerk max \(jerk) m/s³, lean max \(lean * 180 / .pi)°, overshoot \(overshoot) m/s, 90 % at \(rise) s, after 12 s \(final)")
        // Then the shaped path never asks for more than the limits
        #expect(pathAcceleration <= p.maxHorizontalAccelerationMetersPerSecondSquared + 1e-9)
        #expect(pathJerk <= p.horizontalJerkMetersPerSecondCubed + 1e-6)
        // and the airframe follows it: its acceleration within 20 % of the limit, its jerk bounded
        #expect(acceleration <= p.maxHorizontalAccelerationMetersPerSecondSquared * 1.2, "accel \(acceleration)")
        #expect(jerk <= 4 * p.horizontalJerkMetersPerSecondCubed, "jerk \(jerk)")
        // reaching 90 % no sooner than the limits allow (5 m/s at 2.5 m/s² takes ≥ 1.8 s) nor much later
        #expect(rise > 1.8 && rise < 3.5, "90 % after \(rise) s")
        #expect(overshoot < 0.25, "overshoot \(overshoot) m/s")
        #expect(abs(final.north - 5) < 0.02 && abs(final.east) < 0.02, "settled at \(final)")
        #expect(lean <= p.maxLeanAngleRadians + 1e-9)
    }

    @Test("a step the lean limit cannot give (ANGLE_MAX 8°, 2.5 m/s² asked, drag to beat): lean never above 8°, the demand is cut and the integrator does not wind up")
    func leanLimit() {
        var parameters = MAVLinkCopterParameters.standard
        parameters.maxLeanAngleRadians = 8 * Double.pi / 180
        var flight = GuidedFlight(parameters: parameters)
        flight.fly(north: 12, seconds: 20)
        let lean = flight.samples.map(\.tiltWorldRadians.length).max() ?? 0
        let controller = flight.gcs.copter.horizontalController
        print("[measured] GUIDED 12 m/s with ANGLE_MAX 8°: lean max \(lean * 180 / .pi)°, speed \(flight.gcs.copter.velocityENU.length) m/s, integrator \(controller?.integratorENU.length ?? -1) m/s²")
        #expect(lean <= parameters.maxLeanAngleRadians + 1e-9, "lean \(lean * 180 / .pi)°")
        #expect(lean >= parameters.maxLeanAngleRadians * 0.99, "it does lean to the limit")
        #expect(controller?.limitVector != .zero, "the lean limit is reported to the path and the integrator")
        #expect((controller?.integratorENU.length ?? 99) < 3, "integrator \(controller?.integratorENU.length ?? -1) m/s²")
    }

    @Test("a zero set-point stops a copter flying 4 m/s: decelerating at ≤ WPNAV_ACCEL (+20 %), below 0.2 m/s within 3 s, overshooting the stop by < 0.6 m, at rest after 12 s")
    func zeroSetpointStops() {
        var flight = GuidedFlight()
        flight.fly(north: 4, seconds: 12)
        let braking = flight.samples.count
        flight.fly(north: 0, seconds: 12)
        let t0 = flight.samples[braking - 1].seconds
        let deceleration = flight.largestRate(from: braking + 1) { $0.velocityENU }
        let backwards = -(flight.samples[braking...].map(\.velocityENU.north).min() ?? 0)
        let slowAt = (flight.samples[braking...].first { $0.velocityENU.length < 0.2 }?.seconds ?? .infinity) - t0
        let farthest = flight.samples[braking...].map(\.positionPlane.north).max() ?? 0
        let finalNorth = flight.gcs.copter.positionPlane.north
        print("[measured] GUIDED 4 → 0 m/s: decel max \(deceleration) m/s², below 0.2 m/s after \(slowAt) s, back \(backwards) m/s, overshoot of the stop \(farthest - finalNorth) m")
        #expect(deceleration <= 2.5 * 1.2, "deceleration \(deceleration)")
        #expect(slowAt < 3, "below 0.2 m/s after \(slowAt) s")
        #expect(backwards < 0.2, "went back at \(backwards) m/s")
        #expect(farthest - finalNorth < 0.6, "overshot the stopping point by \(farthest - finalNorth) m")
        #expect(flight.gcs.copter.velocityENU.length < 0.02)
    }

    @Test("the guided timeout still stops it: 3 s after the last 3 m/s set-point the target is zero and the copter comes to rest")
    func guidedTimeoutStops() {
        var flight = GuidedFlight()
        flight.fly(north: 3, seconds: 6)
        let silent = flight.samples.count
        flight.fly(north: nil, seconds: 13)
        // Still at 3 m/s until the 3 s timeout, then braking
        let atTwoSeconds = flight.samples[silent + 2 * 200].velocityENU.north
        #expect(abs(atTwoSeconds - 3) < 0.05, "at 2 s: \(atTwoSeconds)")
        #expect(flight.gcs.copter.counters[.guidedTimeouts] == 1)
        #expect(flight.gcs.copter.velocityENU.length < 0.02, "after 13 s: \(flight.gcs.copter.velocityENU)")
        // and it holds: no creeping after it stopped
        let before = flight.gcs.copter.positionPlane
        flight.fly(north: nil, seconds: 5)
        #expect((flight.gcs.copter.positionPlane - before).length < 0.05)
    }

    @Test("a 4 m/s crosswind: flying 2 m/s north, the integrator takes the wind — no standing velocity error, the position target not left behind")
    func windHeldByIntegrator() {
        var dynamics = DroneDynamics.standard
        dynamics.windENU = PlaneVector(east: 4, north: 0)
        var flight = GuidedFlight(dynamics: dynamics)
        flight.fly(north: 2, seconds: 25)
        let copter = flight.gcs.copter
        let controller = copter.horizontalController
        let lag = controller.map { ($0.positionTargetPlane - copter.positionPlane).length } ?? 99
        print("[measured] GUIDED 2 m/s north in 4 m/s east wind: velocity \(copter.velocityENU), position error \(lag) m, integrator \(controller?.integratorENU ?? .zero)")
        #expect(abs(copter.velocityENU.north - 2) < 0.02 && abs(copter.velocityENU.east) < 0.02, "velocity \(copter.velocityENU)")
        #expect(lag < 0.05, "position target \(lag) m ahead")
        // The drag of a 4 m/s wind is c1·4 ≈ 2.3 m/s² westward that only the integrator can hold.
        #expect((controller?.integratorENU.east ?? 0) < -1.5, "integrator \(controller?.integratorENU ?? .zero)")
    }

    @Test("GUID_OPTIONS bit 4 (stabilizesPosition false): the position target rides with the airframe, so a stop does not run past and creep back to the path's stopping point")
    func withoutPositionStabilisation() {
        func stop(_ stabilizes: Bool) -> (overshoot: Double, lag: Double) {
            var parameters = MAVLinkCopterParameters.standard
            parameters.stabilizesPosition = stabilizes
            var flight = GuidedFlight(parameters: parameters)
            flight.fly(north: 4, seconds: 12)
            let braking = flight.samples.count
            flight.fly(north: 0, seconds: 12)
            let farthest = flight.samples[braking...].map(\.positionPlane.north).max() ?? 0
            let c = flight.gcs.copter
            let lag = c.horizontalController.map { ($0.positionTargetPlane - c.positionPlane).length } ?? 99
            return (farthest - c.positionPlane.north, lag)
        }
        let with = stop(true), without = stop(false)
        print("[measured] stop from 4 m/s, past the final position: with position stabilisation \(with.overshoot) m, without \(without.overshoot) m")
        #expect(with.overshoot > 0.3)
        #expect(without.overshoot < 0.05, "came back \(without.overshoot) m")
        #expect(without.lag < 1e-3, "position target \(without.lag) m from the airframe")
    }

    @Test("the off-model preset is slower to answer than ArduCopter's defaults (90 % of a 3 m/s step later) and still settles")
    func offModelIsSlower() {
        func rise(_ parameters: MAVLinkCopterParameters) -> (Double, PlaneVector) {
            var flight = GuidedFlight(parameters: parameters)
            flight.fly(north: 3, seconds: 15)
            let t0 = flight.samples[0].seconds
            return ((flight.samples.first { $0.velocityENU.north >= 2.7 }?.seconds ?? .infinity) - t0, flight.gcs.copter.velocityENU)
        }
        let (standard, _) = rise(.standard)
        let (off, settled) = rise(.offModel)
        print("[measured] 90 % of a 3 m/s step: ArduCopter defaults \(standard) s, off-model \(off) s")
        #expect(off > standard + 0.1)
        #expect(abs(settled.north - 3) < 0.05)
    }
}

@Suite("GuidedVelocityController: the AP_Math shaping functions")
struct GuidedVelocityShapingTests {
    @Test("the path from rest toward a far velocity: acceleration ramps at the jerk limit, then holds at the acceleration limit")
    func accelerationRamp() {
        var acceleration = PlaneVector.zero
        var history: [Double] = []
        for _ in 0..<200 {  // 1 s at 5 ms
            acceleration = GuidedVelocityController.shapedAcceleration(
                velocityInput: PlaneVector(east: 0, north: 10), velocity: .zero, acceleration: acceleration,
                accelerationMax: 2.5, jerkMax: 5, dt: 0.005)
            history.append(acceleration.north)
        }
        // 5 m/s³ · 0.1 s = 0.5 m/s² after 20 steps; capped at 2.5 m/s² from 0.5 s on
        #expect(abs(history[19] - 0.5) < 1e-9)
        #expect(abs(history[199] - 2.5) < 1e-9)
        #expect(history.allSatisfy { $0 <= 2.5 + 1e-12 })
    }

    @Test("lean ↔ acceleration: 30° gives g·tan 30° ≈ 5.66 m/s², and back")
    func leanAcceleration() {
        let lean = PlaneVector(east: 0, north: 30 * Double.pi / 180)
        let a = GuidedVelocityController.acceleration(ofLean: lean)
        #expect(abs(a.north - 9.80665 * 0.5773502691896257) < 1e-9)
        #expect((GuidedVelocityController.lean(forAcceleration: a) - lean).length < 1e-12)
    }
}
