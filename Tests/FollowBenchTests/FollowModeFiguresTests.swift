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
}
