import Foundation
@testable import Simulation
@testable import FollowCore
import Testing

/// The follow-mode figures (issue 26): measured the way the bench measures them, on made-up truth whose
/// answer is known in closed form.
@Suite("Follow-mode figures: angle error, radius and jerk from true motion")
struct FollowModeFiguresTests {
    static let angle = BenchFollowMode(mode: .angle, angleDegrees: 180)

    @Test("jerk RMS: a drone whose acceleration grows at 2 m/s³ east and then holds shows 2 m/s³, then 0")
    func jerk() {
        // Given 30 Hz ticks of a drone 11 m west of a person walking east at 1.4 m/s, its velocity
        // v = ½·j·t² (constant jerk j = 2 m/s³) for 3 s, then constant acceleration for 3 s
        let dt = 1.0 / 30, j = 2.0
        var ramp = ModeFigures(), hold = ModeFigures()
        for i in 0...180 {
            let t = Double(i) * dt
            let person = PlaneVector(east: 1.4 * t, north: 0)
            let speed = t <= 3 ? 0.5 * j * t * t : 0.5 * j * 9 + j * 3 * (t - 3)
            var figures = t <= 3 ? ramp : hold
            figures.add(Self.angle, timeSeconds: t, person: person, drone: person - PlaneVector(east: 11, north: 0),
                        personVelocity: PlaneVector(east: 1.4, north: 0), droneVelocity: PlaneVector(east: speed, north: 0),
                        standoffMeters: 11, heightErrorMeters: nil)
            if t <= 3 { ramp = figures } else { hold = figures }
        }
        // Then the jerk is j while it ramps and 0 once the acceleration holds; the drone sits at the angle
        let rampJerk = ramp.figures(Self.angle).jerkRMSMetersPerSecondCubed ?? .nan
        let holdJerk = hold.figures(Self.angle).jerkRMSMetersPerSecondCubed ?? .nan
        #expect(abs(rampJerk - j) < 1e-6, "ramp jerk \(rampJerk)")
        #expect(abs(holdJerk) < 1e-6, "hold jerk \(holdJerk)")
        #expect(ramp.figures(Self.angle).angleErrorRMSDegrees.map { abs($0) < 1e-9 } == true)
    }

    @Test("fewer than three ticks: no jerk (it needs two differences)")
    func tooShortForJerk() {
        var figures = ModeFigures()
        for t in [0.0, 0.1] {
            figures.add(Self.angle, timeSeconds: t, person: .zero, drone: PlaneVector(east: -11, north: 0),
                        personVelocity: PlaneVector(east: 1.4, north: 0), droneVelocity: PlaneVector(east: t, north: 0),
                        standoffMeters: 11, heightErrorMeters: nil)
        }
        #expect(figures.figures(Self.angle).jerkRMSMetersPerSecondCubed == nil)
    }

    /// A walker east for 10 s who turns north on the spot and walks 40 s more (1.4 m/s, 30 Hz), with the
    /// drone at 11 m on `bearing(t)` from them; the figures at angle 180 with the 2 m/s bound.
    static func turnOnTheSpot(bearing: (Double) -> Double, slowError: PlaneVector = .zero) -> BenchMetrics.FollowModeFigures {
        var figures = ModeFigures()
        var person = PlaneVector.zero
        let dt = 1.0 / 30
        for i in 0..<1500 {
            let t = Double(i) * dt
            let velocity = t < 10 ? PlaneVector(east: 1.4, north: 0) : PlaneVector(east: 0, north: 1.4)
            let b = radians(fromDegrees: bearing(t))
            let drone = person + PlaneVector(east: 11 * sin(b), north: 11 * cos(b))
            figures.add(angle, timeSeconds: t, person: person, drone: drone, personVelocity: velocity, droneVelocity: velocity,
                        standoffMeters: 11, heightErrorMeters: nil, receiversSlowErrorMeters: slowError)
            person = person + velocity * dt
        }
        return figures.figures(angle)
    }

    /// 90° swept at the bound (2 m/s ÷ 11 m = 10.42°/s) takes 8.64 s; its error falls linearly from 90°, so
    /// over the 50 s walked the floor is 90° × √(8.64 / 3 / 50) = 21.6°.
    static let expectedFloor = 90 * (8.64 / 3 / 50).squareRoot()

    @Test("a turn on the spot: a drone that jumps to the asked angle has no error, and beats the ideal swing by its floor")
    func jumpingDrone() throws {
        let f = Self.turnOnTheSpot { $0 < 10 ? 270 : 180 }
        #expect(try #require(f.angleErrorRMSDegrees) < 1e-6)
        #expect(abs(try #require(f.angleFloorRMSDegrees) - Self.expectedFloor) < 0.2, "\(f)")
        #expect(abs(try #require(f.angleErrorBeyondBoundRMSDegrees) - Self.expectedFloor) < 0.2, "\(f)")
    }

    @Test("a turn on the spot: a drone that swings at the bound has the floor's error and nothing beyond it")
    func droneAtTheBound() throws {
        let rate = degrees(fromRadians: 2.0 / 11)
        let f = Self.turnOnTheSpot { $0 < 10 ? 270 : max(180, 270 - rate * ($0 - 10)) }
        #expect(abs(try #require(f.angleErrorRMSDegrees) - Self.expectedFloor) < 0.2, "\(f)")
        #expect(abs(try #require(f.angleFloorRMSDegrees) - Self.expectedFloor) < 0.2, "\(f)")
        #expect(try #require(f.angleErrorBeyondBoundRMSDegrees) < 0.2, "\(f)")
        #expect(try #require(f.radiusErrorRMSMeters) < 1e-9)
    }

    @Test("the receivers' slow error: the true figures keep it, the seen ones take it out")
    func seenThroughTheBias() throws {
        // Given a drone 11 m behind a straight walker whose receivers disagree by 2 m sideways (onboard − person)
        let f = Self.turnOnTheSpot(bearing: { _ in 270 }, slowError: PlaneVector(east: 0, north: 2))
        // Then, east-bound, the receivers see it 11.18 m away and 10.3° off: neither is in the true figures
        let seenRadius = try #require(f.radiusErrorSeenRMSMeters)
        #expect(abs(seenRadius - ((121 + 4).squareRoot() - 11) * (10.0 / 50).squareRoot()) < 0.2, "\(f)")
        #expect(try #require(f.radiusErrorRMSMeters) < 1e-9)
        #expect(try #require(f.angleErrorBeyondBoundSeenRMSDegrees) > 1, "\(f)")
    }
}

