@testable import ARDrone
@testable import FollowCore
import Testing

/// `WindObserver` on nonsense input: a non-finite step must not stick (the failsafe would then ignore
/// every estimate for the rest of the flight, docs/stopping-model.md §6).
@Suite("WindObserver: finite whatever comes in")
struct WindObserverTests {
    @Test("an overflowing measurement leaves the estimate as it was")
    func overflowIsDropped() {
        var observer = WindObserver()
        let step = { (o: inout WindObserver, v: PlaneVector) in
            o.update(measured: v, thrust: .zero, dragRatePerSecond: 0.58, omega: 1.5, dt: 1.0 / 30, limit: 18)
        }
        step(&observer, .zero)
        step(&observer, PlaneVector(east: 1, north: 0))
        let before = observer.wind
        #expect(before.length > 0)
        // When a velocity near Double's largest arrives (finite, but its step overflows)
        step(&observer, PlaneVector(east: 1e308, north: -1e308))
        // Then the estimate is unchanged and still finite, and the next sane step moves it again
        #expect(observer.wind == before)
        step(&observer, PlaneVector(east: 1, north: 0))
        #expect(observer.wind.isFinite)
        #expect(observer.wind != before)
    }

    @Test("a non-finite seed is ignored")
    func nonFiniteSeed() {
        var observer = WindObserver()
        observer.seed(towards: PlaneVector(east: 2, north: 0), gain: 1, limit: 18)
        observer.seed(towards: PlaneVector(east: .nan, north: 0), gain: 0.5, limit: 18)
        #expect(observer.wind == PlaneVector(east: 2, north: 0))
    }

    @Test("the follower's hover seed ignores a non-finite heading")
    func hoverSeedWithoutHeading() {
        var controller = FollowController(parameters: FollowParameters(), minSeparationMeters: 3, geofenceMeters: 100, vehicle: .tiltLoop)
        let drone = PlaneState(position: .zero, velocity: PlaneVector(east: 1, north: 0))
        let hovering = DroneTelemetry(flightState: .hovering, batteryPercent: 80, altitudeMeters: 1,
                                      pitchDegrees: 2, rollDegrees: 1, receivedAt: MonotonicTime(seconds: 1))
        controller.observeTakeOff(hovering, drone: drone, noseHeadingDegrees: .nan, now: MonotonicTime(seconds: 1))
        #expect(controller.fastWindEstimate.isFinite)
        #expect(controller.windEstimate.isFinite)
    }
}
