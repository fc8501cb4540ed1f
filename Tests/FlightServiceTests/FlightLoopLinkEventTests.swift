import DroneLink
import FollowCore
@testable import FlightService
import Logging
import ShellSupport
import Observations
import Testing

/// How the flight loop turns the link's configuration events into the core's
/// `droneConfiguration` input (take-off waits for `.done`).
@Suite("Flight loop: drone configuration status from link events")
struct FlightLoopLinkEventTests {
    static let demo = ConfigurationWrite.navdataDemo
    static let altitude = ConfigurationWrite(key: "control:altitude_max", value: "10000")

    static func makeLoop() throws -> FlightLoop {
        let link = DroneLink(configuration: try DroneLinkConfiguration(
            address: "127.0.0.1", atPort: 9, navdataPort: 10,   // never started: nothing is sent
            limits: try FlightLimits(outdoor: true, eulerAngleMaxRadians: 0.35, controlVzMaxMillimetersPerSecond: 700,
                                     controlYawRadiansPerSecond: 2, altitudeMaxMillimeters: 10_000)))
        var logger = Logger(label: "test.flightloop")
        logger.logLevel = .critical
        let machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters())
        return FlightLoop(machine: machine, link: link, recorder: nil, options: FlightServiceOptions(), logger: logger)
    }

    @Test("pending from the start until the link's writes are complete; failed(key:) when one fails; pending again on a bootstrap fallback",
          arguments: [
              (events: [String](), expected: DroneConfigurationStatus.pending),
              (["ack"], .pending),
              (["ack", "complete"], .done),
              (["failed"], .failed(key: "control:altitude_max")),
              (["failed", "complete-failed"], .failed(key: "control:altitude_max")),
              (["ack", "complete", "fallback"], .pending),
              (["ack", "complete", "fallback", "complete"], .done),
              (["failed", "complete-failed", "fallback", "complete"], .done),
          ])
    func configurationStatus(events: [String], expected: DroneConfigurationStatus) throws {
        // Given a flight loop that started (the link writes its configuration once navdata flows)
        var loop = try Self.makeLoop()
        let now = SystemClock.now()
        loop.start(now: now)

        // When the link reports these events
        for name in events {
            let event: DroneLinkEvent = switch name {
            case "ack": .configurationAcknowledged(Self.demo, attempts: 1, at: now)
            case "failed": .configurationFailed(Self.altitude, reason: .notAcknowledged(attempts: 3), at: now)
            case "complete": .configurationComplete(failedKeys: [], at: now)
            case "complete-failed": .configurationComplete(failedKeys: [Self.altitude.key], at: now)
            default: .bootstrapFallback(.bootstrapBit, at: now)
            }
            _ = loop.handle(.link(event), now: now)
        }

        // Then the core holds the expected status, and anything but done keeps take-off waiting
        #expect(loop.machine.droneConfiguration == expected)
        _ = loop.handle(.tick, now: now)
        if case .preflight(let waiting) = loop.machine.state {
            #expect(waiting.contains(.droneConfigured) == (expected != .done))
        } else {
            Issue.record("not in preflight: \(loop.machine.state)")
        }
    }
}
