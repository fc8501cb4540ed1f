@testable import FollowCore
import Testing

/// A fix's own age (`GPSFix.age`) decides the instant it describes; without one, the configured latency does.
@Suite("Fix age: the estimators date each fix by its own age")
struct FixAgeEstimationTests {
    static let walk = PlaneVector(east: 1.4, north: 0)

    /// The walker's estimated position minus the truth at the last fix's arrival, east metres, for fixes taken
    /// at 5 Hz and delivered 2 ms later, read by an estimator configured for 0.3 s.
    static func leadMeters(givenAge: Double?) -> Double {
        var estimator = TargetEstimator(latencySeconds: 0.3)
        var last = MonotonicTime.zero
        for k in 0...100 {
            let t = Double(k) / 5
            last = MonotonicTime(seconds: t + 0.002)
            estimator.ingest(position: walk * t, reportedVelocity: walk, fixTime: FixFeeder.fixTime(t), receivedAt: last,
                             ageSeconds: givenAge)
        }
        let estimate = estimator.estimate(at: last)!
        return (estimate.position - walk * last.seconds).east
    }

    @Test("a fix delivered 2 ms after its epoch and aged so is placed where the walker is")
    func measuredAgeRemovesTheLead() {
        // Given a walker at 1.4 m/s whose receiver delivers each fix 2 ms after its epoch
        // When the fixes carry that age
        let measured = Self.leadMeters(givenAge: 0.002)
        // Then the estimate is on the walker
        #expect(abs(measured) < 0.01, "\(measured) m")
        // And without it, the configured 0.3 s puts the estimate 1.4 × 0.298 m ahead
        let configured = Self.leadMeters(givenAge: nil)
        #expect(abs(configured - 1.4 * 0.298) < 0.01, "\(configured) m")
    }

    static let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)

    static func fix(_ role: ReceiverRole, receivedAt t: Double, age: Double?) -> GPSFix {
        let c = plane.unproject(PlaneVector(east: 0, north: 10))!
        var fix = GPSFix(role: role, device: "/dev/test", mode: .threeD,
                         latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                         fixTime: FixFeeder.fixTime(t), receivedAt: MonotonicTime(seconds: t), ephMeters: 3)!
        fix.age = age.flatMap { FixAge(seconds: $0, source: .clock(.toff)) }
        return fix
    }

    @Test("the state machine hands each receiver's fix age to its estimator; without one, that receiver's configured latency",
          arguments: [ReceiverRole.target, .onboard])
    func machineUsesTheFixAge(role: ReceiverRole) throws {
        // Given a machine configured for 0.25 s (person) and 0.2 s (drone)
        var follow = FollowParameters.testDefault
        follow.assumedGPSLatencySeconds = 0.25
        follow.assumedOnboardGPSLatencySeconds = 0.2
        var machine = try FlightStateMachine(follow: follow, failsafe: FailsafeParameters(gpsRelativeErrorMeters: 0), vehicle: .tiltLoop)
        func filterTime() -> MonotonicTime? { role == .target ? machine.target.filter?.time : machine.drone.filter?.time }
        // When the first fix arrives at 10 s aged 0.15 s
        machine.handle(.fix(Self.fix(role, receivedAt: 10, age: 0.15)), now: MonotonicTime(seconds: 10))
        // Then it describes 9.85 s
        #expect(filterTime() == MonotonicTime(seconds: 10).adding(seconds: -0.15))
        // And a fix without an age, at 11 s, describes 11 s less the receiver's configured latency
        machine.handle(.fix(Self.fix(role, receivedAt: 11, age: nil)), now: MonotonicTime(seconds: 11))
        let configured = role == .target ? 0.25 : 0.2
        #expect(filterTime() == MonotonicTime(seconds: 11).adding(seconds: -configured))
    }
}
