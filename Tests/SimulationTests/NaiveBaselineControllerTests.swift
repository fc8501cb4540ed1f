@testable import ARDrone
@testable import FollowCore
@testable import Simulation
import Testing

@Suite("Naive objc.io baseline")
struct NaiveBaselineControllerTests {
    /// Analytic worst-case error of atan2(Δlon, Δlat) on the WGS84 ellipsoid: with
    /// k = M/(N·cosφ), max over bearings of atan(k·tanβ) − β = atan(√k) − atan(1/√k).
    private static func analyticMaxErrorDegrees(latitude: Double) -> Double {
        let k = WGS84.meridianRadiusMeters(latitudeDegrees: latitude)
            / (WGS84.primeVerticalRadiusMeters(latitudeDegrees: latitude) * _cos(radians(fromDegrees: latitude)))
        return degrees(fromRadians: _atan2(k.squareRoot(), 1) - _atan2(1, k.squareRoot()))
    }

    @Test("its bearing is up to ≈9.8° off at 45° and ≈29.3° at 70° latitude", arguments: [
        (45.0, 9.8), (70.0, 29.3), // docs/dynamics-and-follow.md §6.2 (GeographicLib)
    ])
    func bearingError(latitude: Double, referenceMaxDegrees: Double) {
        // Given targets 50 m away on every true bearing around a drone
        let drone = GeoCoordinate(latitudeDegrees: latitude, longitudeDegrees: 7)!
        let plane = LocalPlane(origin: drone)
        var worst = 0.0
        for step in 0..<720 {
            let trueBearing = Double(step) * 0.5
            let target = plane.unproject(PlaneVector.unit(bearingDegrees: trueBearing) * 50)!
            let correct = BearingDistance.between(drone, target).bearingDegrees
            // When the baseline computes its bearing
            let naive = NaiveBaselineController.naiveBearingDegrees(from: drone, to: target)
            worst = max(worst, abs(wrappedDegrees180(naive - correct)))
        }
        // Then the worst error is the analytic one and matches the reference figure
        #expect(abs(worst - Self.analyticMaxErrorDegrees(latitude: latitude)) < 0.01)
        #expect(abs(worst - referenceMaxDegrees) < 0.1)
    }

    @Test("on the NE diagonal at 45° it points ≈9.7° too far east")
    func diagonal() {
        let drone = GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7)!
        let target = LocalPlane(origin: drone).unproject(PlaneVector(east: 30, north: 30))!
        let naive = NaiveBaselineController.naiveBearingDegrees(from: drone, to: target)
        #expect(abs(BearingDistance.between(drone, target).bearingDegrees - 45) < 0.01)
        #expect(naive > 54 && naive < 55)
    }

    /// Input with the target at `bearing`/`distance` from a drone whose nose points at `nose`;
    /// the phone is taped at 90°, so its heading is nose − 90.
    private func input(targetBearing: Double, distance: Double, nose: Double) -> NaiveBaselineController.Input {
        let drone = GeoCoordinate(latitudeDegrees: 0.001, longitudeDegrees: 7)! // ~equator: naive ≈ correct
        let target = LocalPlane(origin: drone).unproject(PlaneVector.unit(bearingDegrees: targetBearing) * distance)!
        return .init(targetCoordinate: target, droneCoordinate: drone, receiverHeadingDegrees: nose - 90)
    }

    @Test("decisions: hover inside the standoff, forward inside ±45°, yaw = diff·0.01 clamped", arguments: [
        // (target bearing, distance m, nose, expected pitch, expected yaw; nil = hover)
        (0.0, 0.5, 0.0, nil, nil),
        (90.0, 0.99, 0.0, nil, nil),
        (0.0, 10.0, 0.0, Float(-0.2), Float(0)),
        (40.0, 10.0, 10.0, Float(-0.2), Float(0.3)),
        (100.0, 10.0, 10.0, Float(0), Float(0.9)),
        (180.0, 10.0, 30.0, Float(0), Float(1)),
        (250.0, 10.0, 0.0, Float(0), Float(-1)),
        (330.0, 10.0, 0.0, Float(-0.2), Float(-0.3)),
    ] as [(Double, Double, Double, Float?, Float?)])
    func decisions(bearing: Double, distance: Double, nose: Double, pitch: Float?, yaw: Float?) {
        let command = NaiveBaselineController.decide(
            input(targetBearing: bearing, distance: distance, nose: nose), parameters: .init()
        )
        switch command {
        case .hover:
            #expect(pitch == nil && yaw == nil)
        case let .move(roll, p, gaz, y):
            #expect(roll == 0 && gaz == 0)
            #expect(p == pitch)
            #expect(abs(y - (yaw ?? 99)) < 0.005)
        }
    }

    @Test("re-decides at 4 Hz and holds the command in between; no input means hover")
    func tickRate() {
        var c = NaiveBaselineController()
        let ahead = input(targetBearing: 0, distance: 10, nose: 0)
        let right = input(targetBearing: 90, distance: 10, nose: 0)
        #expect(c.update(nil, at: .zero) == .hover)
        #expect(c.update(ahead, at: MonotonicTime(seconds: 0.1)) == .hover)
        #expect(c.update(ahead, at: MonotonicTime(seconds: 0.25)) == .move(roll: 0, pitch: -0.2, gaz: 0, yaw: 0))
        #expect(c.update(right, at: MonotonicTime(seconds: 0.4)) == .move(roll: 0, pitch: -0.2, gaz: 0, yaw: 0))
        #expect(c.update(right, at: MonotonicTime(seconds: 0.5)) == .move(roll: 0, pitch: 0, gaz: 0, yaw: 0.9))
        #expect(c.update(nil, at: MonotonicTime(seconds: 0.75)) == .hover)
    }

    /// Closed loop: the baseline chasing a straight 1.4 m/s walker, perfect 1 Hz GPS with 0.3 s
    /// latency (docs/dynamics-and-follow.md §4.2). Returns the distance after `seconds`.
    private func chase(eulerAngleMax: String, seconds: Double) -> Double {
        let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7)!)
        var sim = DroneSimulator(startAirborne: true)
        sim.apply(.config(key: "control:euler_angle_max", value: eulerAngleMax), at: .zero)
        var model = GPSErrorModel.perfect(fixRateHertz: 1, latencySeconds: 0.3)
        model.onboard.mountOffsetDegrees = 90 // the phone is taped at 90°
        var gps = GPSPairSimulator(model: model, plane: plane, seed: 1)
        let person = StraightWalkScenario(startPlane: PlaneVector(east: 0, north: 5), bearingDegrees: 0)
        var controller = NaiveBaselineController()
        var target: GeoCoordinate?, drone: GeoCoordinate?, heading: Double?
        var t = MonotonicTime.zero
        while t.seconds < seconds {
            t = t.adding(seconds: 0.01)
            sim.advance(to: t)
            gps.update(now: t, target: person.state(atSeconds: t.seconds).gpsTruth, onboard: sim.gpsTruth)
            while let out = gps.nextOutput(readyBy: t) {
                switch out {
                case .fix(let f): if f.role == .target { target = f.coordinate } else { drone = f.coordinate }
                case .heading(let h): heading = h.headingDegrees
                }
            }
            if t.nanoseconds % 30_000_000 == 0 { // the appliance's 30 ms AT loop
                let decision = controller.update(
                    target.flatMap { tc in drone.flatMap { dc in heading.map { .init(targetCoordinate: tc, droneCoordinate: dc, receiverHeadingDegrees: $0) } } },
                    at: t
                )
                sim.apply(.ref(REFInput(flying: true, emergencyToggle: false)), at: t)
                sim.apply(decision.atCommand, at: t)
            }
        }
        return (person.state(atSeconds: t.seconds).positionPlane - sim.positionPlane).length
    }

    @Test("closed loop: at the default 12° it cannot keep up with a walker; at 0.52 rad it can")
    func closedLoop() {
        // pitch 0.2 × 12° = 2.4° tilt → 0.73 m/s steady, so the gap grows ≈0.67 m/s
        #expect(chase(eulerAngleMax: "0.2094", seconds: 120) > 50)
        // 0.2 × 0.52 rad → 1.8 m/s: it keeps within a few metres
        #expect(chase(eulerAngleMax: "0.52", seconds: 120) < 6)
    }
}
