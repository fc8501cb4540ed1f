@testable import FollowCore
@testable import Simulation
import Testing

/// Central-difference derivative of a scenario's position.
private func numericalVelocity(_ s: any PersonScenario, at t: Double, h: Double = 1e-4) -> PlaneVector {
    (s.state(atSeconds: t + h).positionPlane - s.state(atSeconds: t - h).positionPlane) / (2 * h)
}

@Suite("Person scenarios")
struct PersonScenarioTests {
    @Test("straight walk: 1.4 m/s along the bearing, reached at 4 m/s² from standing")
    func straight() {
        let s = StraightWalkScenario(startPlane: PlaneVector(east: 5, north: -5), bearingDegrees: 60)
        let state = s.state(atSeconds: 100)
        // 100 s at 1.4 m/s less the half of the 0.35 s start ramp's 1.4 m/s
        #expect(abs((state.positionPlane - PlaneVector(east: 5, north: -5)).length - (140 - 1.4 * 1.4 / 8)) < 1e-9)
        #expect(abs(s.state(atSeconds: 0.1).velocityENU.length - 0.4) < 1e-12)
        #expect(abs(state.velocityENU.length - 1.4) < 1e-12)
        #expect(abs((state.positionPlane - PlaneVector(east: 5, north: -5)).bearingDegrees - 60) < 1e-9)
        #expect(s.state(atSeconds: -3).velocityENU == .zero)
    }

    @Test("square walk: corners 40 m apart, 90° clockwise turns, back at the start after one lap", arguments: [true, false])
    func square(clockwise: Bool) {
        let s = SquareWalkScenario(initialBearingDegrees: 0, sideMeters: 40, turnsClockwise: clockwise)
        let sideSeconds = 40 / 1.4
        let east = clockwise ? 40.0 : -40.0
        let corners = [PlaneVector(east: 0, north: 40), PlaneVector(east: east, north: 40), PlaneVector(east: east, north: 0)]
        for (k, corner) in corners.enumerated() {
            #expect((s.state(atSeconds: sideSeconds * Double(k + 1)).positionPlane - corner).length < 1e-9)
        }
        #expect(s.state(atSeconds: 4 * sideSeconds + 1e-9).positionPlane.length < 1e-6)
        // Each side's velocity is 90° clockwise (or counter-clockwise) of the previous one.
        for k in 0..<4 {
            let v = s.state(atSeconds: sideSeconds * (Double(k) + 0.5)).velocityENU
            #expect(abs(v.length - 1.4) < 1e-12)
            #expect(abs(wrappedDegrees180(v.bearingDegrees - Double(k) * (clockwise ? 90 : -90))) < 1e-9)
        }
    }

    @Test("stop and go: walks 10 s, brakes at 4 m/s², stands 5 s; 14 m a cycle")
    func stopAndGo() {
        let s = StopAndGoScenario(bearingDegrees: 90)
        #expect(abs(s.state(atSeconds: 5).velocityENU.length - 1.4) < 1e-12)
        #expect(s.state(atSeconds: 12).velocityENU == .zero)
        #expect(s.state(atSeconds: 11).positionPlane == s.state(atSeconds: 14).positionPlane)
        #expect(abs(s.state(atSeconds: 150).positionPlane.east - 1.4 * 100) < 1e-9)
    }

    @Test("curve jog: 3 m/s everywhere, on the circle during the arc, 90° turned after it")
    func curveJog() {
        let s = CurveJogScenario(initialBearingDegrees: 0, leadInMeters: 30, radiusMeters: 20, arcDegrees: 90,
                                 accelerationMetersPerSecondSquared: nil)
        let center = PlaneVector(east: 20, north: 30)
        let arcStart = 10.0, arcEnd = 10 + s.arcLengthMeters / 3
        for t in stride(from: arcStart, through: arcEnd, by: 0.5) {
            let state = s.state(atSeconds: t)
            #expect(abs((state.positionPlane - center).length - 20) < 1e-9)
            #expect(abs(state.velocityENU.length - 3) < 1e-12)
        }
        let after = s.state(atSeconds: arcEnd + 10)
        #expect(abs(after.velocityENU.bearingDegrees - 90) < 1e-9)
        #expect((after.positionPlane - PlaneVector(east: 20 + 30, north: 50)).length < 1e-9)
    }

    @Test("curve jog with no curve (radius or arc 0) runs straight on, finite everywhere", arguments: [
        CurveJogScenario(radiusMeters: 0, accelerationMetersPerSecondSquared: nil),
        CurveJogScenario(arcDegrees: 0, accelerationMetersPerSecondSquared: nil),
        CurveJogScenario(radiusMeters: 0, turns: .alternating, accelerationMetersPerSecondSquared: nil),
    ])
    func curveJogWithoutCurve(s: CurveJogScenario) {
        for t in [5.0, 10, 25, 60] {
            let state = s.state(atSeconds: t)
            #expect((state.positionPlane - PlaneVector(east: 0, north: 3 * t)).length < 1e-9, "at \(t) s")
            #expect((state.velocityENU - PlaneVector(east: 0, north: 3)).length < 1e-12)
        }
    }

    @Test("S-curve far out: whole right+left pairs skipped give the arc-by-arc walk; an infinite time terminates")
    func sCurveFarOut() {
        let s = CurveJogScenario(initialBearingDegrees: 30, speedMetersPerSecond: 3, leadInMeters: 30, radiusMeters: 20,
                                 arcDegrees: 70, turns: .alternating, accelerationMetersPerSecondSquared: nil)
        // Given the walk done arc by arc (the definition), for a time 60 arcs after the lead-in
        let t = 700.0
        var remaining = t * 3 - 30
        var heading = 30.0, sign = 1.0
        var position = PlaneVector.unit(bearingDegrees: 30) * 30
        let arc = 20 * 70 * Double.pi / 180
        while remaining > 0 {
            let along = min(remaining, arc)
            let center = position + PlaneVector.unit(bearingDegrees: heading + sign * 90) * 20
            heading += sign * (along / 20 * 180 / .pi)
            position = center + PlaneVector.unit(bearingDegrees: heading - sign * 90) * 20
            remaining -= arc
            sign = -sign
        }
        // Then the scenario is there, heading the same way
        let state = s.state(atSeconds: t)
        #expect((state.positionPlane - position).length < 1e-6, "\(state.positionPlane) vs \(position)")
        #expect((state.velocityENU - PlaneVector.unit(bearingDegrees: heading) * 3).length < 1e-9)
        // And a time of infinity (or 1e12 s) returns instead of walking forever
        #expect(s.state(atSeconds: .infinity).positionPlane.isFinite)
        #expect(s.state(atSeconds: 1e12).velocityENU.isFinite)
    }

    @Test("people change velocity at most at the bound (4 m/s²); a stop dead is a choice (nil)")
    func boundedAcceleration() {
        let bounded: [any PersonScenario] = [
            StraightWalkScenario(bearingDegrees: 200, speedMetersPerSecond: 3),
            StopAndGoScenario(speedMetersPerSecond: 3, walkSeconds: 8, stopSeconds: 3),
            CurveJogScenario(),
            LegsScenario(legs: [PersonLeg(bearingDegrees: 0, speedMetersPerSecond: 3, seconds: 10), .stand(3),
                                PersonLeg(bearingDegrees: 180, speedMetersPerSecond: 1.4, seconds: 5)]),
        ]
        let dt = 0.01
        for s in bounded {
            var worst = 0.0
            var previous = s.state(atSeconds: -dt).velocityENU
            for k in 0...4000 {
                let v = s.state(atSeconds: Double(k) * dt).velocityENU
                worst = max(worst, (v - previous).length / dt)
                previous = v
            }
            // The curve jog's arc adds its centripetal 3²/20 = 0.45 m/s².
            #expect(worst <= 4 + 0.46, "\(type(of: s)): \(worst) m/s²")
            #expect(worst >= 3.9, "\(type(of: s)) never reaches the bound: \(worst) m/s²")
        }
        // Given the stop-dead variant, Then velocity jumps in one step
        let dead = StopAndGoScenario(speedMetersPerSecond: 3, walkSeconds: 8, stopSeconds: 3, accelerationMetersPerSecondSquared: nil)
        #expect(dead.state(atSeconds: 7.999).velocityENU.length == 3 && dead.state(atSeconds: 8.001).velocityENU == .zero)
        // And starting again at once, they move from the restart's very instant (11 s: a 1 Hz receiver's epoch
        // falls on it, and its Doppler says 3 m/s, not standing), still where they stood
        #expect(dead.state(atSeconds: 11).velocityENU.length == 3)
        #expect(dead.state(atSeconds: 11).positionPlane == dead.state(atSeconds: 10.5).positionPlane)
        #expect(dead.state(atSeconds: 10.999).velocityENU == .zero)
        // And at the bound the jogger covers 3²/(2·4) = 1.125 m braking
        let hard = StopAndGoScenario(speedMetersPerSecond: 3, walkSeconds: 8, stopSeconds: 3)
        let braked = hard.state(atSeconds: 9).positionPlane - hard.state(atSeconds: 8).positionPlane
        #expect(abs(braked.length - 1.125) < 1e-9)
    }

    @Test("velocity is the derivative of position away from corners", arguments: [3.3, 17.7, 29.1, 41.9, 75.5, 123.4])
    func consistency(t: Double) {
        let scenarios: [any PersonScenario] = [
            StraightWalkScenario(bearingDegrees: 200),
            SquareWalkScenario(initialBearingDegrees: 30, sideMeters: 25),
            StopAndGoScenario(walkSeconds: 8, stopSeconds: 3),
            CurveJogScenario(turns: .once(clockwise: false)),
        ]
        for s in scenarios {
            let v = s.state(atSeconds: t).velocityENU
            #expect((numericalVelocity(s, at: t) - v).length < 1e-6, "\(type(of: s)) at \(t) s")
        }
    }

    @Test("track: linear interpolation, segment velocity, standing before and after")
    func track() throws {
        let s = try TrackScenario(points: [
            TrackPoint(timeSeconds: 0, positionPlane: .zero),
            TrackPoint(timeSeconds: 10, positionPlane: PlaneVector(east: 10, north: 0)),
            TrackPoint(timeSeconds: 15, positionPlane: PlaneVector(east: 10, north: 15)),
        ])
        #expect(s.state(atSeconds: 5).positionPlane == PlaneVector(east: 5, north: 0))
        #expect(s.state(atSeconds: 5).velocityENU == PlaneVector(east: 1, north: 0))
        #expect(s.state(atSeconds: 12).positionPlane == PlaneVector(east: 10, north: 6))
        #expect(s.state(atSeconds: 12).velocityENU == PlaneVector(east: 0, north: 3))
        #expect(s.state(atSeconds: 10).positionPlane == PlaneVector(east: 10, north: 0))
        #expect(s.state(atSeconds: -1) == PersonState(positionPlane: .zero, velocityENU: .zero))
        #expect(s.state(atSeconds: 99) == PersonState(positionPlane: PlaneVector(east: 10, north: 15), velocityENU: .zero))
        #expect(s.durationSeconds == 15)
    }

    @Test("track from coordinates projects onto the plane")
    func trackFromCoordinates() throws {
        let origin = GeoCoordinate(latitudeDegrees: 52.52, longitudeDegrees: 13.405)!
        let plane = LocalPlane(origin: origin)
        let north100 = plane.unproject(PlaneVector(east: 0, north: 100))!
        let s = try TrackScenario(coordinates: [(0, origin), (100, north100)], plane: plane)
        #expect(abs(s.state(atSeconds: 50).positionPlane.north - 50) < 1e-6)
        #expect(abs(s.state(atSeconds: 50).velocityENU.north - 1) < 1e-8)
    }

    @Test("bad tracks are rejected with the offending point")
    func badTracks() {
        #expect(throws: TrackScenarioError.empty) { try TrackScenario(points: []) }
        #expect(throws: TrackScenarioError.nonIncreasingTime(index: 1, timeSeconds: 0, previousSeconds: 0)) {
            try TrackScenario(points: [TrackPoint(timeSeconds: 0, positionPlane: .zero), TrackPoint(timeSeconds: 0, positionPlane: .zero)])
        }
        #expect(throws: TrackScenarioError.nonFinite(index: 0)) {
            try TrackScenario(points: [TrackPoint(timeSeconds: .nan, positionPlane: .zero)])
        }
    }
}
