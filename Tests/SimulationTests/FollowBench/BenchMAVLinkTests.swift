@testable import Simulation
@testable import FollowCore
@testable import MAVLink
import Testing

@Suite("Bench runs on the MAVLink link (issue 16: both links side by side)")
struct BenchMAVLinkTests {
    typealias PositionSource = MAVLinkLinkConfiguration.PositionSource

    /// Short runs, as `BenchRunnerTests` (debug builds are slow).
    static func configuration(seed: UInt64 = 1, duration: Double = 60, positionSource: PositionSource = .autopilot)
        -> BenchConfiguration {
        var c = BenchConfiguration(seed: seed, durationSeconds: duration, personStartSeconds: 15, settleSeconds: 15)
        c.mavlinkPositionSource = positionSource
        return c
    }

    static func run(_ scenario: BenchScenario = .straightWalk(), _ noise: BenchNoise, link: BenchLink = .mavlink,
                    seed: UInt64 = 1, duration: Double = 60, positionSource: PositionSource = .autopilot) throws -> BenchResult {
        try BenchRunner.run(scenario, controller: .followMe, noise: noise,
                            configuration: configuration(seed: seed, duration: duration, positionSource: positionSource),
                            link: link)
    }

    @Test("FollowMe on MAVLink takes off through the session and follows a walk at the standoff, never inside the minimum separation",
          arguments: [PositionSource.autopilot, .receiver], BenchNoise.allCases)
    func followsWalk(source: PositionSource, noise: BenchNoise) throws {
        // Given a 1.4 m/s straight walk, the Copter landed the standoff behind the person
        // When FollowMe flies it for 90 s through MAVLinkSession (position from the autopilot or the receiver)
        let result = try Self.run(.straightWalk(), noise, duration: 90, positionSource: source)
        // Then it took off by itself (GUIDED, ARM, NAV_TAKEOFF to the follow altitude) and followed to the end
        #expect(result.link == .mavlink)
        let events = result.events.map(\.description)
        #expect(events.first?.hasSuffix(" → taking-off (prerequisites-met)") == true)
        #expect(events.dropFirst().prefix(2) == [
            "taking-off → climbing (airborne-confirmed)", "climbing → following (altitude-reached)",
        ])
        let top = result.track.compactMap(\.altitudeMeters).max() ?? 0
        #expect(abs(top - FollowParameters().altitudeMeters) < 0.2)
        #expect(result.metrics.followingFraction == 1)
        #expect(result.finalControllerState == "following")
        #expect(result.finalDroneState == "flying")
        // at the standoff within 2 m RMS / 2.5 m p95 (the AR.Drone's bounds are tighter: its plant is the controller's model)
        #expect(result.metrics.rangeErrorRMSMeters < 2)
        #expect(result.metrics.rangeErrorP95Meters < 2.5)
        // and never closer than the minimum separation
        let minimum = BenchConfiguration().failsafe.minSeparationMeters
        #expect(result.metrics.minSeparationMeters >= minimum)
        #expect(result.metrics.secondsBelowMinSeparation == 0)
    }

    @Test("a MAVLink run is deterministic for a seed, and another seed changes it")
    func deterministic() throws {
        // Given realistic noise and seed 7 on the square
        let a = try Self.run(.square(), .realistic, seed: 7, duration: 40)
        let b = try Self.run(.square(), .realistic, seed: 7, duration: 40)
        // Then the same run twice is identical in every metric, event and track sample
        #expect(a == b)
        #expect(a.track.count > 100)
        // and seed 8 is another run
        let c = try Self.run(.square(), .realistic, seed: 8, duration: 40)
        #expect(c.track != a.track)
    }

    @Test("the MAVLink run is another plant than the AR.Drone run with the same scenario, noise and seed",
          arguments: BenchNoise.allCases)
    func differsFromARDrone(noise: BenchNoise) throws {
        let ardrone = try Self.run(.square(), noise, link: .ardrone, duration: 40)
        let mavlink = try Self.run(.square(), noise, link: .mavlink, duration: 40)
        #expect(ardrone.link == .ardrone)
        #expect(mavlink.link == .mavlink)
        // The person is the same…
        #expect(ardrone.track.map(\.personPlane) == mavlink.track.map(\.personPlane))
        // …the drone is not: its track and the errors differ
        #expect(ardrone.track.map(\.dronePlane) != mavlink.track.map(\.dronePlane))
        #expect(ardrone.metrics.rangeErrorRMSMeters != mavlink.metrics.rangeErrorRMSMeters)
    }

    @Test("the bench's MAVLink drone is flown by the session: GUIDED, armed, NAV_TAKEOFF, then LOCAL_NED velocity set-points")
    func sessionFliesTheCopter() throws {
        // Given the bench's MAVLink drone, nose east, and the flight's take-off command (once it has seen
        // telemetry, as `FlightLoopCore` sends), the link ticking every control period
        let c = BenchConfiguration()
        var drone = try MAVLinkBenchDrone(configuration: c, plane: LocalPlane(origin: BenchScenario.straightWalk().origin),
                                          positionPlane: .zero, noseHeadingDegrees: 90)
        let takeOff = LinkCommand(flying: true)
        var t: Int64 = 0
        var telemetry = 0
        func fly(_ command: LinkCommand, seconds: Double) {
            let end = t + Int64(seconds * 1e9)
            while t < end {
                t += 5_000_000
                drone.advance(to: MonotonicTime(nanoseconds: t))
                telemetry += drone.takeEvents().filter { if case .telemetry = $0 { true } else { false } }.count
                if t % 30_000_000 == 0 {
                    let now = MonotonicTime(nanoseconds: t)
                    _ = drone.tick(at: now)
                    if telemetry > 0 { _ = drone.send(command, immediately: false, at: now) }
                }
            }
        }
        // When it runs 10 s
        fly(takeOff, seconds: 10)
        // Then the session put the Copter in GUIDED, armed it and took it off to the follow altitude
        #expect(telemetry > 50)
        #expect(drone.airframe.mode == .guided)
        #expect(drone.airframe.isArmed)
        #expect(abs(drone.airframe.altitudeMeters - FollowParameters().altitudeMeters) < 0.1)
        #expect(drone.phaseName == "flying")
        // When FollowMe asks for 1.6 m/s east for 5 s
        let start = drone.airframe.positionPlane
        fly(LinkCommand(flying: true, motion: MotionCommand(velocity: PlaneVector(east: 1.6, north: 0), climbMetersPerSecond: 0,
                                                            yawRateDegreesPerSecond: 0)), seconds: 5)
        // Then the Copter moved east at about that speed (less its acceleration from rest)
        let moved = drone.airframe.positionPlane - start
        #expect(moved.east > 5 && moved.east < 10)
        #expect(abs(moved.north) < 0.5)
        #expect(drone.airframe.counters[.setpoints] > 100)
        // When FollowMe wants to land, the session switches the Copter to LAND and it lands and disarms
        fly(LinkCommand(flying: false, land: true), seconds: 12)
        #expect(drone.phaseName == "landed")
        #expect(!drone.airframe.isArmed)
    }
}
