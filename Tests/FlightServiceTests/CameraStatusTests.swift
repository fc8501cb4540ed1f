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

    @Test("a recording's length: camera_recording_s runs from the recording event's time while recording, and is absent otherwise")
    func recordingLength() throws {
        // Given a loop whose link has said nothing of a camera
        let machine = try FlightStateMachine(follow: FollowParameters(), failsafe: FailsafeParameters(), vehicle: .tiltLoop)
        var loop = FlightLoop(machine: machine, link: FakeDroneLink(), recorder: nil, options: FlightServiceOptions(),
                              logger: CapturedLog().logger(label: "test.flightloop"))
        let start = SystemClock.now()
        loop.start(now: start)
        func status(at seconds: Double) -> FlightStatus {
            loop.statusTracker.status(machine: loop.machine, decision: nil, dryRun: false, startedAt: start, now: start.adding(seconds: seconds))
        }
        #expect(status(at: 1).cameraRecordingSeconds == nil && status(at: 1).cameraSinceT == nil)

        // When the recording opens at 2 s (the event's own time) and is reported again at 5 s, with a new reason
        _ = loop.handle(.link(.camera(state: .recording, reason: "video recording out/video/a.h264", at: start.adding(seconds: 2))), now: start.adding(seconds: 2.1))
        _ = loop.handle(.link(.camera(state: .recording, reason: "recording (again)", at: start.adding(seconds: 5))), now: start.adding(seconds: 5))
        // Then at 65.5 s it has run 63.5 s, from its start, on the flight's clock
        let recording = status(at: 65.5)
        #expect(abs((recording.cameraRecordingSeconds ?? -1) - 63.5) < 1e-6, "\(recording.jsonLine())")
        #expect(abs((recording.cameraSinceT ?? 0) - (start.adding(seconds: 2)).seconds) < 1e-6)
        #expect(recording.jsonLine().contains(#""camera_recording_s":63.5"#), "\(recording.jsonLine())")
        #expect(FlightStatus.decode(jsonLine: recording.jsonLine()) == recording)

        // When it stops at 70 s: no length, and the state's time is the stop's
        _ = loop.handle(.link(.camera(state: .stopped, reason: "video recording closed", at: start.adding(seconds: 70))), now: start.adding(seconds: 70))
        let stopped = status(at: 71)
        #expect(stopped.cameraRecordingSeconds == nil && !stopped.jsonLine().contains("camera_recording_s"), "\(stopped.jsonLine())")
        #expect(abs((stopped.cameraSinceT ?? 0) - (start.adding(seconds: 70)).seconds) < 1e-6)

        // And a new recording at 80 s counts from 80 s
        _ = loop.handle(.link(.camera(state: .recording, reason: "video recording out/video/b.h264", at: start.adding(seconds: 80))), now: start.adding(seconds: 80))
        #expect(abs((status(at: 90).cameraRecordingSeconds ?? -1) - 10) < 1e-6)
    }
}
