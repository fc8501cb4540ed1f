import FollowCore

/// The vehicle's camera records our flight (docs/mavlink.md §7.15): once the flight is FollowMe's own
/// (`FlightOwner.isOurs`: armed or taken off by this run, or adopted) the session asks for CAMERA_INFORMATION
/// (MAV_CMD_REQUEST_MESSAGE, param1 259); a camera that answers with
/// `CAMERA_CAP_FLAGS_CAPTURE_VIDEO` is started (MAV_CMD_VIDEO_START_CAPTURE) when our own flight flies IN_AIR in
/// our mode and follows (the flight sends motion or a person to look at) and stopped (MAV_CMD_VIDEO_STOP_CAPTURE) once it is on the ground, or at once
/// when a pilot or the autopilot's failsafe takes the vehicle (released) or it stops being ours. Anything else
/// is said once as `.camera(state: .none, …)`: no camera FollowMe can drive.
///
/// Outside the flight's one-at-a-time request machine (§7.5): a camera command never delays a mode change or
/// a LAND. One camera command in flight at a time, re-sent after `commandAckTimeoutSeconds` without an ACK,
/// `commandMaxAttempts` sends at most, like the flight's commands. Nothing goes out while telemetry is lost, nor
/// to a vehicle that names another autopilot, nor in a dry run (which never makes a flight ours, and sends no
/// camera message at all: §7.3). The stop after a release is FollowMe undoing its own command, like
/// DO_SET_ROI_NONE (§7.11): a camera command is no flight command — ArduPilot handles it in AP_Camera, which no
/// flight mode reads.
extension MAVLinkSession {
    /// MAV_COMP_ID_CAMERA … MAV_COMP_ID_CAMERA6 (common.xml): a camera that speaks MAVLink itself (PX4's cameras;
    /// ArduPilot's newest relay of a MAVLink camera keeps that camera's id).
    static let cameraComponents: ClosedRange<UInt8> = 100...105
    /// How long after REQUEST_MESSAGE was ACCEPTED a missing CAMERA_INFORMATION means "no camera", seconds.
    /// ArduPilot sends the message from the same request (`GCS_MAVLINK::handle_command_request_message` →
    /// `send_message`) within a loop or two, or never when no camera back-end is configured (CAM1_TYPE 0). Our
    /// margin for a lost datagram is a second re-ask (`cameraInformationAsks`).
    static let cameraInformationWaitSeconds = 2.0
    /// REQUEST_MESSAGEs ACCEPTED without a CAMERA_INFORMATION before the camera counts as absent.
    static let cameraInformationAsks = 2

    /// Once per tick: the pending camera command's re-send, then the next one the rules want.
    mutating func driveRecording(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let vehicleTarget, vehicle.heartbeat != nil, !autopilotMismatch, !isTelemetryLost, !configuration.dryRun,
              recordingFlightIsOurs || recording.ours || recording.pending != nil else { return }
        let target = MAVLinkTarget(system: vehicleTarget.system, component: recording.component)
        // The flight stopped being ours (released, disarmed, someone else's): a pending ask or start is dropped —
        // nothing but the stop of our own recording goes to someone else's flight. A start that may have reached
        // the camera (its ACK lost) is stopped.
        if let pending = recording.pending, !recordingFlightIsOurs, pending.message.command.known != .videoStopCapture {
            recording.pending = nil
            if pending.message.command.known == .videoStartCapture { recording.ours = true }
        }
        if var pending = recording.pending {
            guard now.seconds(since: pending.sentAt) >= configuration.timing.commandAckTimeoutSeconds else { return }
            guard pending.attempts < configuration.timing.commandMaxAttempts else {
                recording.pending = nil
                cameraCommandSettled(pending.message, result: nil, now: now, output: &output)
                return
            }
            pending.attempts += 1
            pending.message.confirmation = UInt8(clamping: pending.attempts - 1)
            pending.sentAt = now
            recording.pending = pending
            emit(.command(pending.message), into: &output)
            return
        }
        switch recording.discovery {
        case .notAsked:
            guard recordingFlightIsOurs else { return }
            sendCameraCommand(.requestMessage, [Float(CameraInformation.messageID), 0, 0, 0, 0, 0, 0], target: target,
                              now: now, output: &output)
            return
        case .accepted(let at, let asks):
            guard now.seconds(since: at) >= Self.cameraInformationWaitSeconds else { return }
            if asks < Self.cameraInformationAsks {
                recording.discovery = .notAsked
                return
            }
            let reason = recording.component == Self.autopilotComponent
                ? "no camera FollowMe can drive: the autopilot accepted REQUEST_MESSAGE CAMERA_INFORMATION but sent none (no camera configured: ArduPilot CAM1_TYPE 0)"
                : "no camera FollowMe can drive: camera component \(recording.component) accepted REQUEST_MESSAGE CAMERA_INFORMATION but sent none"
            recording.discovery = .absent
            reportCamera(.none, reason, now: now, output: &output)
            return
        case .absent:
            return
        case .capturesVideo:
            break
        }
        if recording.ours {
            stopRecordingIfDue(now: now, output: &output)
        } else if !recording.startedThisFlight, recordingWanted {
            // param1 0: every stream (ArduPilot: its primary camera); param2 0: no CAMERA_CAPTURE_STATUS stream.
            sendCameraCommand(.videoStartCapture, [0, 0, 0, 0, 0, 0, 0], target: target, now: now, output: &output)
        }
    }

    /// The flight is FollowMe's own (`FlightOwner.isOurs`) and not released: the camera may be asked and started.
    var recordingFlightIsOurs: Bool { owner.isOurs && !flight.released && !desired.released }

    /// Our recording is stopped on the ground, when released (a pilot's or a failsafe's flight is not ours to film),
    /// or when the flight is no longer ours. Called by the tick and at once for each message from the vehicle, so the
    /// stop goes out in the datagram's turn, before the flight hears of the landing (and may stop the link).
    mutating func stopRecordingIfDue(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard recording.ours, recording.pending == nil, let vehicleTarget, !configuration.dryRun, !isTelemetryLost,
              let why = recordingStopReason else { return }
        recording.stopReason = why
        sendCameraCommand(.videoStopCapture, [0, 0, 0, 0, 0, 0, 0],
                          target: MAVLinkTarget(system: vehicleTarget.system, component: recording.component), now: now, output: &output)
    }

    /// Our own flight follows: IN_AIR in our mode, flying wanted, not released, and the flight commands motion or
    /// looks at the person (`LinkCommand.motion`, `lookAt`: following, or holding with the person known) — not a
    /// bare take-off and hover (`followme drone takeoff`).
    var recordingWanted: Bool {
        desired.flying && (desired.motion != nil || desired.lookAt != nil) && recordingFlightIsOurs && vehicle.isArmed
            && vehicle.landedState == .inAir && isIn(profile.control)
    }

    /// Why the recording FollowMe started must stop now; nil while it goes on (landing included: the video
    /// keeps the landing).
    var recordingStopReason: String? {
        if flight.released || desired.released {
            return "the vehicle was released (a pilot or its failsafe flies it): FollowMe stops the recording it started"
        }
        if !vehicle.isArmed { return "the vehicle disarmed" }
        if vehicle.landedState == .onGround { return "landed" }
        if !owner.isOurs { return "the flight is no longer FollowMe's" }
        return nil
    }

    mutating func sendCameraCommand(_ command: MAVCommand, _ params: [Float], target: MAVLinkTarget, now: MonotonicTime,
                                    output: inout MAVLinkSessionOutput) {
        let message = CommandLong {
            $0.params = params
            $0.command = .init(command)
            $0.target = target
        }
        recording.pending = PendingCameraCommand(message: message, attempts: 1, sentAt: now)
        if command == .videoStartCapture { recording.startedThisFlight = true }
        emit(.command(message), into: &output)
    }

    /// A COMMAND_ACK from the vehicle's system (`component`: its sender) for our pending camera command.
    mutating func noteRecordingAck(_ ack: CommandAck, component: UInt8, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let pending = recording.pending, ack.command.rawValue == pending.message.command.rawValue,
              component == pending.message.target.component, isAddressedToUs(ack) else { return }
        if ack.result.known == .inProgress, pending.message.command.known != .requestMessage { return }
        recording.pending = nil
        cameraCommandSettled(pending.message, result: ack.result, now: now, output: &output)
    }

    /// The outcome of a camera command: `result` nil when it was never answered.
    mutating func cameraCommandSettled(_ message: CommandLong, result: MAVLinkEnum<MAVResult>?, now: MonotonicTime,
                                       output: inout MAVLinkSessionOutput) {
        let accepted = result?.known == .accepted || result?.known == .inProgress
        let outcome = result.map { $0.known.map { "\($0)".uppercased() } ?? "result \($0.rawValue)" }
            .map { "refused (\($0))" } ?? "not answered after \(configuration.timing.commandMaxAttempts) sends"
        switch message.command.known {
        case .requestMessage?:
            guard case .notAsked = recording.discovery else { return }   // CAMERA_INFORMATION came first
            if accepted {
                recording.discoveryAsks += 1
                recording.discovery = .accepted(at: now, asks: recording.discoveryAsks)
                return
            }
            recording.discovery = .absent
            reportCamera(.none, "no camera FollowMe can drive: REQUEST_MESSAGE CAMERA_INFORMATION \(outcome) (an autopilot without the camera protocol: ArduPilot before 4.4, or one built without a camera library)",
                         now: now, output: &output)
        case .videoStartCapture?:
            if accepted {
                recording.ours = true
                reportCamera(.recording, "VIDEO_START_CAPTURE accepted: recording", now: now, output: &output)
            } else {
                reportCamera(.refused, "VIDEO_START_CAPTURE \(outcome): not recording; not asked again this flight",
                             now: now, output: &output)
            }
        case .videoStopCapture?:
            recording.ours = false
            let why = recording.stopReason ?? "stopped"
            if accepted {
                reportCamera(.stopped, "VIDEO_STOP_CAPTURE accepted (\(why))", now: now, output: &output)
            } else {
                reportCamera(.refused, "VIDEO_STOP_CAPTURE \(outcome) (\(why)): the camera may still be recording",
                             now: now, output: &output)
            }
        default:
            break
        }
    }

    /// A CAMERA_INFORMATION from the vehicle's system (`component`: its sender). A camera that records video is
    /// driven from the component that said so; one that cannot is "no camera FollowMe can drive".
    mutating func receive(_ information: CameraInformation, component: UInt8, now: MonotonicTime,
                          output: inout MAVLinkSessionOutput) {
        if case .capturesVideo = recording.discovery { return }
        let name = [information.vendorName.string, information.modelName.string].filter { !$0.isEmpty }.joined(separator: " ")
        let described = name.isEmpty ? "camera" : "camera \(name)"
        if information.capturesVideo {
            if recording.pending?.message.command.known == .requestMessage { recording.pending = nil }
            recording.component = component
            recording.discovery = .capturesVideo
            reportCamera(.ready, "\(described) (component \(component)) records video (CAMERA_CAP_FLAGS \(information.flags.rawValue))",
                         now: now, output: &output)
            return
        }
        if case .absent = recording.discovery { return }   // said already
        if recording.pending?.message.command.known == .requestMessage { recording.pending = nil }
        recording.discovery = .absent
        reportCamera(.none, "no camera FollowMe can drive: the \(described) (component \(component)) does not record video (CAMERA_CAP_FLAGS \(information.flags.rawValue), no CAPTURE_VIDEO: ArduPilot's servo, relay and older MAVLink camera, CAM1_TYPE 1, 2, 5, never say it; a MAVLink camera behind ArduPilot is CAM1_TYPE 6)",
                     now: now, output: &output)
    }

    /// A HEARTBEAT from a camera component of the vehicle's system (PX4's cameras speak MAVLink themselves):
    /// asked for its CAMERA_INFORMATION once, unless a camera that records video is known already.
    mutating func noteCameraComponent(_ heartbeat: Heartbeat, component: UInt8) {
        guard heartbeat.type.known == .camera, recording.askedComponents.insert(component).inserted else { return }
        if case .capturesVideo = recording.discovery { return }
        if recording.pending?.message.command.known == .requestMessage { recording.pending = nil }
        recording.component = component
        recording.discovery = .notAsked
        recording.discoveryAsks = 0
    }

    /// Says `state` once per change (the flight logs it and shows it in the status).
    mutating func reportCamera(_ state: CameraRecordingState, _ reason: String, now: MonotonicTime,
                               output: inout MAVLinkSessionOutput) {
        guard recording.reported != state else { return }
        recording.reported = state
        output.events.append(.camera(state: state, reason: reason, at: now))
    }

    /// Disarmed: the next flight may record again (a stopped or refused camera is ready for it).
    mutating func resetRecordingForNextFlight() {
        recording.startedThisFlight = false
        if !recording.ours, recording.reported == .stopped || recording.reported == .refused,
           case .capturesVideo = recording.discovery {
            recording.reported = .ready
        }
    }

    /// A rebooted vehicle may have gained or lost its camera: asked again, unless FollowMe is recording.
    mutating func rediscoverCamera() {
        guard !recording.ours, recording.pending == nil else { return }
        recording.discovery = .notAsked
        recording.discoveryAsks = 0
    }
}

/// What the session knows and did with the vehicle's camera recording (MAVLinkSession+Recording.swift).
struct CameraRecording: Sendable {
    enum Discovery: Sendable, Equatable {
        /// CAMERA_INFORMATION is to be asked for.
        case notAsked
        /// REQUEST_MESSAGE was accepted at `at` (the `asks`-th time); CAMERA_INFORMATION is awaited.
        case accepted(at: MonotonicTime, asks: Int)
        /// No camera FollowMe can drive (said once).
        case absent
        /// A camera that records video: commands go to `component`.
        case capturesVideo
    }

    var discovery = Discovery.notAsked
    var discoveryAsks = 0
    /// Where camera commands go: the autopilot (ArduPilot's AP_Camera answers there) or a camera component.
    var component = MAVLinkSession.autopilotComponent
    /// Camera components heard (HEARTBEAT type CAMERA), each asked once.
    var askedComponents: Set<UInt8> = []
    var pending: PendingCameraCommand?
    /// FollowMe started a recording it has not stopped.
    var ours = false
    /// A VIDEO_START_CAPTURE went out in this flight (never a second: a refusal would refuse again).
    var startedThisFlight = false
    /// Why the last stop was sent.
    var stopReason: String?
    /// The state last reported (`.camera`).
    var reported: CameraRecordingState?
}

/// A camera command sent and not yet answered.
struct PendingCameraCommand: Sendable {
    var message: CommandLong
    var attempts: Int
    var sentAt: MonotonicTime
}

extension MAVLinkSession {
    /// A frame from a camera component of the vehicle's system: its HEARTBEAT, CAMERA_INFORMATION and the
    /// COMMAND_ACKs of our camera commands; nothing else of it is read.
    mutating func receiveFromCamera(_ message: any MAVLinkMessage, component: UInt8, now: MonotonicTime,
                                    output: inout MAVLinkSessionOutput) {
        switch message {
        case let heartbeat as Heartbeat: noteCameraComponent(heartbeat, component: component)
        case let information as CameraInformation: receive(information, component: component, now: now, output: &output)
        case let ack as CommandAck: noteRecordingAck(ack, component: component, now: now, output: &output)
        default: break
        }
    }
}
