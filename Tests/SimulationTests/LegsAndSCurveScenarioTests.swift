@testable import FollowCore
@testable import Simulation
import Testing

@Suite("Person legs (stop dead, turn back) and S-curve jog")
struct LegsAndSCurveScenarioTests {
    @Test("legs: walk north, stop dead, walk back south past the start")
    func legs() {
        let s = LegsScenario(legs: [
            PersonLeg(bearingDegrees: 0, speedMetersPerSecond: 1.4, seconds: 10),
            .stand(3),
            PersonLeg(bearingDegrees: 180, speedMetersPerSecond: 1.4, seconds: 5),
        ], accelerationMetersPerSecondSquared: nil)
        #expect(s.state(atSeconds: -1).positionPlane == .zero)
        #expect(abs(s.state(atSeconds: 5).positionPlane.north - 7) < 1e-9)
        // standing: 14 m north, velocity zero (a dead stop, no deceleration ramp)
        #expect(abs(s.state(atSeconds: 11).positionPlane.north - 14) < 1e-9)
        #expect(s.state(atSeconds: 11).velocityENU == .zero)
        // walking back; the last leg goes on past its duration
        #expect(abs(s.state(atSeconds: 13 + 5).positionPlane.north - 7) < 1e-9)
        #expect(abs(s.state(atSeconds: 13 + 20).positionPlane.north - (14 - 28)) < 1e-9)
        #expect(abs(s.state(atSeconds: 20).velocityENU.north + 1.4) < 1e-9)
    }

    @Test("legs at the bound: the turn back brakes and speeds up at 4 m/s², a stand between")
    func boundedLegs() {
        let s = LegsScenario(legs: [
            PersonLeg(bearingDegrees: 0, speedMetersPerSecond: 1.4, seconds: 10),
            .stand(3),
            PersonLeg(bearingDegrees: 180, speedMetersPerSecond: 1.4, seconds: 5),
        ])
        // 0.35 s to 1.4 m/s, then on: 14 m less the ramp's 0.245 m at 10 s; braking over the stand's first 0.35 s
        #expect(abs(s.state(atSeconds: 10).positionPlane.north - (14 - 0.245)) < 1e-9)
        #expect(abs(s.state(atSeconds: 10.175).velocityENU.north - 0.7) < 1e-9)
        #expect(abs(s.state(atSeconds: 12).positionPlane.north - 14) < 1e-9)
        #expect(s.state(atSeconds: 12).velocityENU == .zero)
        #expect(abs(s.state(atSeconds: 13.1).velocityENU.north + 0.4) < 1e-9)
    }

    @Test("S-curve: continuous path, constant speed, velocity tangent to the path, alternating turns")
    func sCurve() {
        let s = CurveJogScenario(initialBearingDegrees: 0, speedMetersPerSecond: 3, leadInMeters: 30, radiusMeters: 20,
                                 arcDegrees: 90, turns: .alternating, accelerationMetersPerSecondSquared: nil)
        var previous = s.state(atSeconds: 0)
        var t = 0.05
        var turnSigns: [Double] = []
        while t < 120 {
            let now = s.state(atSeconds: t)
            let moved = now.positionPlane - previous.positionPlane
            #expect(moved.length <= 3 * 0.05 + 1e-6, "jump at \(t) s")
            #expect(abs(now.velocityENU.length - 3) < 1e-9)
            if t > 0.1 { #expect(abs(wrappedDegrees180(moved.bearingDegrees - now.velocityENU.bearingDegrees)) < 1) }
            let turn = wrappedDegrees180(now.velocityENU.bearingDegrees - previous.velocityENU.bearingDegrees)
            if abs(turn) > 1e-6, t > 0.1 {
                let sign: Double = turn > 0 ? 1 : -1
                if turnSigns.last != sign { turnSigns.append(sign) }
            }
            previous = now
            t += 0.05
        }
        // right first, then left, right, … (each arc 31.4 m ≈ 10.5 s at 3 m/s)
        #expect(turnSigns.count >= 8)
        #expect(turnSigns.first == 1)
        #expect(zip(turnSigns, turnSigns.dropFirst()).allSatisfy { $0 == -$1 })
        // after one right and one left arc the runner heads north again
        let endOfSecondArc = (30 + 2 * 20 * Double.pi / 2) / 3
        #expect(abs(wrappedDegrees180(s.state(atSeconds: endOfSecondArc - 0.001).velocityENU.bearingDegrees)) < 0.01)
        #expect(wrappedDegrees180(s.state(atSeconds: endOfSecondArc + 1).velocityENU.bearingDegrees) > 5) // third arc: right again
    }
}
