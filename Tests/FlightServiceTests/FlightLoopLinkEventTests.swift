@testable import FollowCore
import ARDrone
@testable import FlightRecords
@testable import FlightService
import Foundation
import Logging
@testable import Links
import TestSupport
import Testing

/// How the flight loop turns a link's `LinkEvent`s into the core's inputs and flight-log lines
/// (docs/architecture.md §3.2), whatever the link.
@Suite("Flight loop: link events")
struct FlightLoopLinkEventTests {
    static func makeLoop(recorder: FlightRecorder? = nil) throws -> FlightLoop {
        var logger = Logger(label: "test.flightloop")
        logger.logLevel = .critical
        let machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: .tiltLoop)
        return FlightLoop(machine: machine, link: FakeDroneLink(), recorder: recorder, options: FlightServiceOptions(),
                          logger: logger)
    }

    @Test("pending from the start until the link's writes are complete; failed(key:) when one fails; pending again when the link says so",
          arguments: [
              (events: [String](), expected: DroneConfigurationStatus.pending),
              (["ack"], .pending),
              (["ack", "complete"], .done),
              (["failed"], .failed(key: "control:altitude_max")),
              (["failed", "complete-failed"], .failed(key: "control:altitude_max")),
              (["ack", "complete", "pending"], .pending),
              (["ack", "complete", "pending", "complete"], .done),
              (["failed", "complete-failed", "pending", "complete"], .done),
          ])
    func configurationStatus(events: [String], expected: DroneConfigurationStatus) throws {
        // Given a flight loop that started (the link writes its configuration once telemetry flows)
        var loop = try Self.makeLoop()
        let now = SystemClock.now()
        loop.start(now: now)

        // When the link reports these events
        for name in events {
            let event: LinkEvent = switch name {
            case "ack": .configurationAcknowledged(key: "general:navdata_demo", value: "TRUE", attempts: 1, at: now)
            case "failed": .configurationFailed(key: "control:altitude_max", value: "10000", reason: "not acknowledged", at: now)
            case "complete": .configurationComplete(failedKeys: [], at: now)
            case "complete-failed": .configurationComplete(failedKeys: ["control:altitude_max"], at: now)
            default: .configurationPending(reason: "bootstrap-bit", at: now)
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

    @Test("an onboard fix and heading the link delivers (an autopilot's own estimate) fly the drone exactly like gpsd's onboard receiver")
    func onboardFromTheLink() throws {
        // Given two rigs in the same world, one with the drone's fixes and heading from gpsd, the
        // other with the same values as the link's `.onboard` events
        var gpsd = try FlightRig(), link = try FlightRig()
        link.onboardFromLink = true
        gpsd.start()
        link.start()

        // When both fly 20 s (take-off, then follow the person 10 m north)
        gpsd.run(for: 20)
        link.run(for: 20)

        // Then the link's rig follows, through the same states with the same commands at the same ticks
        #expect(link.state == .following, "states: \(link.states)")
        #expect(link.flightStates == gpsd.flightStates)
        let firstDifference = zip(link.link.sent, gpsd.link.sent).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil && link.link.sent.count == gpsd.link.sent.count,
                "commands \(link.link.sent.count) vs \(gpsd.link.sent.count), first different: \(String(describing: firstDifference))")
        #expect(link.loop.statusTracker.lastFixAt(.onboard) == gpsd.loop.statusTracker.lastFixAt(.onboard))
    }

    @Test("a link speaks only for the drone: an .onboard event of another role is dropped", arguments: [
        (role: ReceiverRole.onboard, used: true), (.target, false),
    ])
    func onboardRoleOnly(role: ReceiverRole, used: Bool) throws {
        // Given a started loop
        var loop = try Self.makeLoop()
        let now = MonotonicTime(seconds: 100)
        loop.start(now: now)
        let fix = try #require(GPSFix(role: role, device: "autopilot", mode: .threeD, latitudeDegrees: 47.3769,
                                      longitudeDegrees: 8.5417, fixTime: FixTime(seconds: 1_700_000_000, nanoseconds: 0),
                                      receivedAt: now, ephMeters: 2))

        // When the link delivers a fix of this role as an onboard fix
        _ = loop.handle(.link(.onboard(.fix(fix))), now: now)

        // Then only an onboard one reaches the flight (never as the person's position)
        #expect((loop.statusTracker.lastFixAt(role) != nil) == used)
        #expect(loop.statusTracker.lastFixAt(.target) == nil)
    }

    @Test("a notice's severity (syslog scale) sets its log level", arguments: [
        (severity: Int?.none, level: Logger.Level.notice), (0, .error), (3, .error), (4, .warning), (5, .notice),
        (6, .info), (7, .debug),
    ])
    func noticeLevel(severity: Int?, level: Logger.Level) {
        #expect(FlightLoop.logLevel(severity: severity) == level)
    }

    @Test("a refused parameter is logged as a refusal that blocks take-off, with its key and value, never as a write")
    func configurationFailedLogLine() throws {
        // Given a loop logging to a capture
        let log = CapturedLog()
        let machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: .tiltLoop)
        var loop = FlightLoop(machine: machine, link: FakeDroneLink(), recorder: nil, options: FlightServiceOptions(),
                              logger: log.logger(label: "test.flightloop"))
        let now = SystemClock.now()
        loop.start(now: now)

        // When the MAVLink session refuses FS_OPTIONS, which it only read
        _ = loop.handle(.link(.configurationFailed(key: "FS_OPTIONS", value: "0", reason: "set FS_OPTIONS to 16", at: now)), now: now)

        // Then one error names the key, the value and what to set, and says nothing was written
        let errors = log.recorder.events.filter { $0.level == .error }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.message == "drone configuration refused: no take-off until it passes")
        #expect(errors.first?.message.contains("write") == false)
        #expect(errors.first?.metadata["key"] == "FS_OPTIONS")
        #expect(errors.first?.metadata["value"] == "0")
        #expect(errors.first?.metadata["reason"] == "set FS_OPTIONS to 16")
    }

    @Test("the flight log's link lines keep their names and fields for the neutral events")
    func linkLines() throws {
        // Given a loop with a flight log
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linkevents-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = MonotonicTime(seconds: 100)
        let recorder = try FlightRecorder(path: path, now: start)
        var loop = try Self.makeLoop(recorder: recorder)

        // When the link reports each kind of event
        let events: [LinkEvent] = [
            .telemetryLost(lastReceivedAt: start, at: start),
            .telemetryRestored(silenceSeconds: 1.5, at: start),
            .configurationAcknowledged(key: "control:altitude_max", value: "10000", attempts: 2, at: start),
            .configurationFailed(key: "control:outdoor", value: "TRUE", reason: "not acknowledged after 3 attempts", at: start),
            .configurationPending(reason: "bootstrap-bit", at: start),
            .configurationComplete(failedKeys: ["control:outdoor"], at: start),
            .flyingCleared(reason: "emergency", at: start),
            .socketClosed(socket: "at", error: "ENETUNREACH", at: start),
            .socketReopened(socket: "navdata", localPort: 5000, samePort: true, attempts: 3, downSeconds: 0.5, at: start),
            .notice(text: "PreArm: Need Position Estimate", severity: 4, at: start),
        ]
        for event in events { _ = loop.handle(.link(event), now: start) }
        #expect(recorder.close(timeoutSeconds: 5))

        // Then each is one `link` line as before the seam (the AR.Drone names), and a notice has its text
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { String($0.drop { $0 != "," }.dropFirst()) }   // without "t"
        #expect(lines == [
            #""kind":"link","event":"navdata-lost"}"#,
            #""kind":"link","event":"navdata-restored","silence_s":1.5}"#,
            #""kind":"link","event":"config-ack","key":"control:altitude_max","value":"10000","attempts":2}"#,
            #""kind":"link","event":"config-failed","key":"control:outdoor","reason":"not acknowledged after 3 attempts"}"#,
            #""kind":"link","event":"bootstrap-fallback","reason":"bootstrap-bit"}"#,
            #""kind":"link","event":"config-complete","failed":"control:outdoor"}"#,
            #""kind":"link","event":"flying-cleared","reason":"emergency"}"#,
            #""kind":"link","event":"socket-closed","socket":"at","error":"ENETUNREACH"}"#,
            #""kind":"link","event":"socket-reopened","socket":"navdata","local_port":5000,"same_port":true,"attempts":3,"down_s":0.5}"#,
            #""kind":"link","event":"notice","reason":"PreArm: Need Position Estimate"}"#,
        ])
    }
}
