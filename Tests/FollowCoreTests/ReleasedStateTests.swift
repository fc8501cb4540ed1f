@testable import FollowCore
import Testing


/// A vehicle a pilot or the autopilot's own failsafe took (issue 22, defect 1): released, for good.
@Suite("Released: a pilot's or the autopilot's take-over is never taken back")
struct ReleasedStateTests {
    static let loiter = ReleaseReason.vehicleLeftControl(mode: "LOITER")

    /// A following world whose vehicle a pilot has just taken (the fake firmware no longer obeys us).
    static func releasedWorld() throws -> World {
        var world = try World.following()
        world.firmwareFollowsIntent = false
        world.linkReports(.released(mode: "LOITER", reason: "a pilot took over", at: world.now))
        world.step()
        return world
    }

    @Test("following → released(mode:LOITER): intent release, no motion, no PCMD")
    func entersReleased() throws {
        let world = try Self.releasedWorld()
        #expect(world.state == .released(Self.loiter))
        #expect(world.state.name == "released(mode:LOITER)")
        #expect(world.transitions.last?.reason == .vehicleReleased)
        #expect(world.command == DroneCommand(intent: .release))
        #expect(world.command?.intent.wantsAirborne == false)
    }

    @Test("released, nothing of ours lands it: the person walks off, goes silent, the battery drops, SIGTERM, the fence",
          arguments: ["far", "stale", "battery", "shutdown", "navdata"])
    func nothingLandsIt(cause: String) throws {
        // Given a released vehicle
        var world = try Self.releasedWorld()
        // When any of our failsafes' causes arises, for longer than every hold and land clock
        switch cause {
        case "far": world.person = PlaneVector(east: 0, north: 400)
        case "stale": world.sendsTarget = false
        case "battery": world.battery = 3
        case "shutdown": world.shutdown()
        default: world.sendsNavdata = false
        }
        world.run(for: 60)
        // Then it stays released and commands nothing (the old core held target-too-far and then landed the pilot's vehicle)
        #expect(world.state == .released(Self.loiter), "\(world.state.name)")
        #expect(world.command == DroneCommand(intent: .release))
        #expect(!world.transitions.contains { if case .land = $0.reason { true } else { false } })
    }

    @Test("released while we were landing: our LAND is not re-asserted either")
    func releasedWhileLanding() throws {
        var world = try World.following()
        world.shutdown()
        world.step()
        #expect(world.state.kind == .landing)
        world.firmwareFollowsIntent = false
        world.linkReports(.released(mode: "RTL", reason: "the autopilot's failsafe", at: world.now))
        world.run(for: 1)
        #expect(world.state == .released(.vehicleLeftControl(mode: "RTL")))
        #expect(world.command?.intent == .release)
    }

    @Test("released → landed once telemetry says the vehicle is on the ground (whoever landed it); then it stays landed")
    func landsByPilot() throws {
        var world = try Self.releasedWorld()
        world.flightState = .landed
        world.altitude = 0
        world.run(for: 1)
        #expect(world.state == .landed)
        #expect(world.transitions.last?.reason == .landedWhileReleased)
        world.run(for: 5)
        #expect(world.command?.intent == .stayLanded)
    }

    @Test("a release heard in preflight (someone else's vehicle armed on the ground) does not stop the flight by itself")
    func preflightIgnoresRelease() throws {
        var world = try World()
        world.linkReports(.released(mode: "LOITER", reason: "a pilot took over", at: world.now))
        world.run(for: 0.5)
        #expect(world.state.kind == .preflight || world.state.kind == .takingOff)
    }

    @Test("the emergency bit still wins over released")
    func emergencyWins() throws {
        var world = try Self.releasedWorld()
        world.emergency = true
        world.run(for: 0.5)
        #expect(world.state == .emergency)
    }
}

extension ReleasedStateTests {
    @Test("a release heard before any telemetry: found airborne → adopted as released, never followed")
    func releaseBeforeTelemetryAirborne() throws {
        // Given a restarted FollowMe that hears "someone else flies it" before the first telemetry
        var world = try World()
        world.sendsNavdata = false
        world.firmwareFollowsIntent = false
        world.linkReports(.released(mode: "LOITER", reason: "a pilot took over", at: world.now))
        world.run(for: 0.3)
        // When telemetry shows it airborne
        world.flightState = .flying
        world.altitude = 5
        world.sendsNavdata = true
        world.run(for: 1)
        // Then it is released, not adopted and followed
        #expect(world.state == .released(Self.loiter), "\(world.state.name)")
        #expect(!world.transitions.contains { $0.to == .following })
    }
}
