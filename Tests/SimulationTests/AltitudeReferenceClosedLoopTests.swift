@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// PX4 re-estimates its home altitude after take-off, and its `relative_alt` jumps with it: flown
/// closed loop (the simulated Copter with that home behaviour injected, `homeAltitudeShiftMeters`),
/// FollowMe's own height frame keeps the true height where it was.
@Suite("Altitude reference closed loop: a moving home does not move the drone")
struct AltitudeReferenceClosedLoopTests {
    @Test("following at altitude_m, the autopilot's home jumps 2.5 m up or down: the true height moves < 0.3 m", arguments: [2.5, -2.5])
    func homeJumps(shift: Double) throws {
        var rig = try OwnershipRig(takeOffOnStart: false)
        let reached = rig.run(within: 60) { $0.state == .following }
        try #require(reached, "\(rig.state.name)")
        rig.run(for: 8)
        let before = rig.copter.altitudeMeters
        rig.copter.homeAltitudeShiftMeters = shift
        var worst = 0.0
        for _ in 0..<(30 * 15) {
            rig.step()
            worst = max(worst, abs(rig.copter.altitudeMeters - before))
        }
        #expect(worst < 0.3, "the true height moved \(worst) m after a \(shift) m home jump")
        #expect(rig.state == .following, "\(rig.state.name)")
    }
}

extension AltitudeReferenceClosedLoopTests {
    @Test("killed and restarted in flight after the autopilot's home moved 2.5 m: with the kept frame the true height stays (< 0.3 m); without it the drone moves 2.5 m", arguments: [true, false])
    func restartKeepsTheFrame(keepingFrame: Bool) throws {
        var rig = try OwnershipRig(takeOffOnStart: false)
        let reached = rig.run(within: 60) { $0.state == .following }
        try #require(reached, "\(rig.state.name)")
        rig.run(for: 5)
        let before = rig.copter.altitudeMeters
        let kept = try #require(rig.session.flightFrameRecord)
        #expect(kept.systemID == rig.copter.parameters.systemID)
        rig.copter.homeAltitudeShiftMeters = 2.5
        rig.run(for: 3)
        try rig.restart(afterSeconds: 0.5, keepingFrame: keepingFrame)
        var worst = 0.0
        for _ in 0..<(30 * 20) {
            rig.step()
            worst = max(worst, abs(rig.copter.altitudeMeters - before))
        }
        #expect(rig.session.owner == .adopted && rig.state == .following, "\(rig.state.name)")
        if keepingFrame {
            #expect(worst < 0.3, "the true height moved \(worst) m across the restart")
            #expect(rig.session.flightFrameRecord?.homeMSLMeters == kept.homeMSLMeters)
        } else {
            // The new run's frame is the autopilot's moved home: what the record is for.
            #expect(worst > 2, "without the kept frame the height moved only \(worst) m")
        }
    }
}

extension AltitudeReferenceClosedLoopTests {
    @Test("the kept frame ends when the flight is on the ground, before the Copter disarms (FollowMe may exit on the landing)")
    func frameEndsOnTheGround() throws {
        var rig = try OwnershipRig(takeOffOnStart: false)
        let reached = rig.run(within: 60) { $0.state == .following }
        try #require(reached, "\(rig.state.name)")
        #expect(rig.session.flightFrameRecord != nil)
        rig.operatorSays(.land)
        let down = rig.run(within: 60) { $0.session.vehicle.landedState == .onGround }
        try #require(down, "\(rig.state.name)")
        #expect(rig.session.flightFrameRecord == nil, "armed \(rig.session.vehicle.isArmed)")
    }
}

extension AltitudeReferenceClosedLoopTests {
    /// `altitude_mode = "person"`, following a person whose ground has risen 6 m since take-off (0.2 m/s,
    /// walking uphill), settled.
    static func followingUpASlope() throws -> OwnershipRig {
        var rig = try OwnershipRig(takeOffOnStart: false, altitudeMode: .person)
        rig.personAltitudeMeters = 100
        let reached = rig.run(within: 60) { $0.state == .following }
        try #require(reached, "\(rig.state.name)")
        for _ in 0..<(30 * 30) {
            rig.personAltitudeMeters = min(106, (rig.personAltitudeMeters ?? 100) + 0.2 / 30)
            rig.step()
        }
        rig.run(for: 10)
        return rig
    }

    @Test("altitude_mode person, the person 6 m up a slope, killed and restarted 0.5 s later: with the kept frame the height and home stay; without it the drone sinks ~6 m towards the slope and home moves to where it was adopted",
          arguments: [true, false])
    func restartKeepsThePersonsRise(keepingFrame: Bool) throws {
        // Given a flight following a person whose ground has risen 6 m since take-off (0.2 m/s, walking uphill)
        var rig = try Self.followingUpASlope()
        let height = rig.copter.altitudeMeters
        #expect(abs(height - 9) < 0.5, "not 6 m above the 3 m altitude: \(height) m")
        // Home as a place (each run has its own local plane)
        let home = rig.plane.project(try #require(rig.core.machine.flightFrame?.home))
        #expect(rig.session.flightFrameRecord?.personRiseMeters.map { abs($0 - 6) < 0.5 } == true,
                "\(String(describing: rig.session.flightFrameRecord))")
        // When FollowMe is killed and started again 0.5 s later
        try rig.restart(afterSeconds: 0.5, keepingFrame: keepingFrame)
        var lowest = height
        for _ in 0..<(30 * 20) {
            rig.step()
            lowest = min(lowest, rig.copter.altitudeMeters)
        }
        #expect(rig.state == .following || rig.state.kind == .holding, "\(rig.state.name)")
        let homeAfter = rig.plane.project(try #require(rig.core.machine.flightFrame?.home))
        if keepingFrame {
            // Then it goes on at the person's height over the slope, with the take-off point as home
            #expect(lowest > height - 0.5, "sank from \(height) to \(lowest) m")
            #expect((homeAfter - home).length < 0.5, "home moved \((homeAfter - home).length) m")
        } else {
            // What the kept frame is for: the adoption re-zeroes the rise and takes home where it is
            #expect(lowest < height - 4, "lowest \(lowest) m from \(height) m")
            #expect((homeAfter - home).length > 2, "home moved only \((homeAfter - home).length) m")
        }
    }
}

extension AltitudeReferenceClosedLoopTests {
    @Test("right after a restart, before the person's altitude is known again, the record still carries the kept rise (a second crash keeps it)")
    func recordKeepsTheRiseAcrossASecondRestart() throws {
        var rig = try Self.followingUpASlope()
        try #require(rig.session.flightFrameRecord?.personRiseMeters.map { abs($0 - 6) < 0.5 } == true)
        try rig.restart(afterSeconds: 0.5)
        var rises: [String] = []
        for _ in 0..<(30 * 3) {
            rig.step()
            if let record = rig.session.flightFrameRecord {
                let text = record.personRiseMeters.map { String(format: "%.1f", $0) } ?? "nil"
                if rises.last != text { rises.append(text) }
            }
        }
        #expect(!rises.isEmpty && !rises.contains("nil"), "the record lost the kept rise: \(rises)")
    }
}
