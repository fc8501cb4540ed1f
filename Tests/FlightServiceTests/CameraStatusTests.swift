import ARDrone
@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
@testable import Links
import Logging
import TestSupport
import Testing

/// The link's `.camera` event (the MAVLink vehicle's camera, docs/mavlink.md §7.15) reaches the log and the
/// status: `camera` and `camera_reason`, absent before the link knows.
@Suite("Status: the vehicle's camera")
struct CameraStatusTests {
    @Test("no camera: said once in the log (notice) and in the status; a refusal is a warning; absent before any report")
    func cameraInLogAndStatus() throws {
        // Given a loop logging to a capture
        let log = CapturedLog()
        let machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: .tiltLoop)
        var loop = FlightLoop(machine: machine, link: FakeDroneLink(), recorder: nil, options: FlightServiceOptions(),
                              logger: log.logger(label: "test.flightloop"))
        let now = SystemClock.now()
        loop.start(now: now)
        func status() -> FlightStatus {
            loop.statusTracker.status(machine: loop.machine, decision: nil, dryRun: false, startedAt: now, now: now)
        }
        #expect(status().camera == nil && !status().jsonLine().contains("camera"))

        // When the link says there is no camera FollowMe can drive
        let reason = "no camera FollowMe can drive: the autopilot accepted REQUEST_MESSAGE CAMERA_INFORMATION but sent none"
        _ = loop.handle(.link(.camera(state: .none, reason: reason, at: now)), now: now)
        // Then one notice says so, and the status carries it
        let lines = log.recorder.events.filter { $0.message.hasPrefix("camera") }
        #expect(lines.count == 1 && lines.first?.level == .notice && lines.first?.metadata["reason"] == reason, "\(lines)")
        let line = status().jsonLine()
        #expect(line.contains(#""camera":"none""#) && line.contains(#""camera_reason":"\#(reason)""#), "\(line)")
        #expect(FlightStatus.decode(jsonLine: line) == status())

        // When a camera refuses to stop: a warning, and the status says refused
        _ = loop.handle(.link(.camera(state: .refused, reason: "VIDEO_STOP_CAPTURE refused (FAILED)", at: now)), now: now)
        #expect(log.recorder.events.last?.level == .warning)
        #expect(status().camera == "refused")
    }
}
