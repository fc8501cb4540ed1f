import Foundation
@testable import MAVLink
@testable import FollowCore
import Synchronization
import TestSupport

/// A small autopilot on 127.0.0.1 for the link's tests: a plain UDP socket (not NIO, not the
/// link's code) that decodes what it receives with the MAVLink codec, records every frame, answers
/// commands the way ArduPilot or PX4 would in the simplest case, and sends HEARTBEAT,
/// EXTENDED_SYS_STATE, GLOBAL_POSITION_INT and SYS_STATUS every 100 ms once it knows the link's port.
final class AutopilotPeer: @unchecked Sendable {
    struct Received: Sendable {
        let frame: MAVLinkFrame
        let at: MonotonicTime
        var message: (any MAVLinkMessage)? { MAVLinkMessages.message(in: frame) }
    }

    struct State: Sendable {
        var received: [Received] = []
        var linkPort: Int?
        var autopilot: MAVAutopilot
        var customMode: UInt32
        var armed = false
        var landed = MAVLandedState.onGround
        var relativeAltitudeMeters = 0.0
        /// Stop talking (the link should report telemetry lost).
        var silent = false
        /// Refuse this many ARMs with DENIED.
        var armsToDeny = 0
        /// What PARAM_REQUEST_READ is answered with (absent: no answer, as ArduPilot for an unknown
        /// name). PX4 integers go bytewise in the float. Default: losing the GCS lands the vehicle.
        var parameters: [String: Float] = ["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "COM_OBL_RC_ACT": 4, "COM_OF_LOSS_T": 1,
                                           "FS_GCS_TIMEOUT": 5, "FS_OPTIONS": 16, "WPNAV_ACCEL": 250, "PSC_JERK_XY": 5, "MPC_ACC_HOR": 3, "MPC_JERK_AUTO": 4]
        /// HEARTBEAT `type` (a Plane: fixed wing).
        var type = MAVType.quadrotor
        /// HEARTBEAT `system_status` while disarmed / armed; nil: STANDBY / ACTIVE.
        var systemStatus: MAVState?
        /// SYS_STATUS `battery_remaining` (−1 = unknown).
        var batteryPercent: Int8 = 87
        /// Also send HEARTBEATs as this second vehicle system.
        var secondVehicleSystem: UInt8?
        /// Ignore DO_SET_MODE and ACK it ACCEPTED to this station instead (another GCS's ACK for its
        /// own command, while ours is lost).
        var setModeAckTarget: MAVLinkTarget?
        /// Answer ARM with IN_PROGRESS, and ACCEPTED only this many seconds later.
        var armInProgressSeconds: Double?
        /// GLOBAL_POSITION_INT `time_boot_ms` (a reboot sets it back).
        var bootMilliseconds: UInt32 = 600_000
    }

    let socket: LoopbackUDPSocket
    let state: Mutex<State>
    private let stopped = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    init(autopilot: MAVAutopilot, customMode: UInt32) throws {
        socket = try LoopbackUDPSocket()
        state = Mutex(State(autopilot: autopilot, customMode: customMode))
        let thread = Thread { [self] in run() }
        thread.start()
    }

    var port: Int { socket.localPort }
    var received: [Received] { state.withLock { $0.received } }

    /// The flight's COMMAND_LONGs received, in order: every one but the camera's (REQUEST_MESSAGE, VIDEO_START/STOP_CAPTURE:
    /// their own machine, docs/mavlink.md §7.15), which `cameraCommands` has.
    var commands: [CommandLong] {
        received.compactMap { $0.message as? CommandLong }.filter { !Self.cameraCommandIDs.contains($0.command.rawValue) }
    }
    /// The camera's COMMAND_LONGs received.
    var cameraCommands: [CommandLong] {
        received.compactMap { $0.message as? CommandLong }.filter { Self.cameraCommandIDs.contains($0.command.rawValue) }
    }
    static let cameraCommandIDs: Set<UInt16> = [512, 2500, 2501]
    var setpoints: [(SetPositionTargetLocalNED, MonotonicTime)] {
        received.compactMap { r in (r.message as? SetPositionTargetLocalNED).map { ($0, r.at) } }
    }

    func attach(linkPort: Int) { state.withLock { $0.linkPort = linkPort } }

    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        while !done.load(ordering: .sequentiallyConsistent) { usleep(5_000) }
    }

    private func run() {
        var parser = MAVLinkParser()
        var sender: UInt8 = 0
        var lastTelemetry = MonotonicTime.zero
        while !stopped.load(ordering: .sequentiallyConsistent) {
            if let bytes = try? socket.receive(timeoutSeconds: 0.01) {
                let now = TestClock.now()
                for case .frame(let frame) in parser.parse(bytes) {
                    state.withLock { $0.received.append(Received(frame: frame, at: now)) }
                    let from = MAVLinkTarget(system: frame.systemID, component: frame.componentID)
                    if let command = MAVLinkMessages.message(in: frame) as? CommandLong {
                        reply(to: command, from: from, sender: &sender)
                    } else if let read = MAVLinkMessages.message(in: frame) as? ParamRequestRead {
                        answer(read, sender: &sender)
                    }
                }
            }
            let now = TestClock.now()
            if let (due, ack) = delayedAck, now >= due, let port = state.withLock({ $0.linkPort }) {
                delayedAck = nil
                state.withLock { $0.armed = true }
                send(ack, sender: &sender, port: port)
            }
            if now.seconds(since: lastTelemetry) >= 0.1 {
                lastTelemetry = now
                sendTelemetry(sender: &sender)
            }
        }
        done.store(true, ordering: .sequentiallyConsistent)
    }

    private func send(_ message: some MAVLinkMessage, sender: inout UInt8, port: Int, system: UInt8 = 1) {
        socket.send(message.encoded(sequence: sender, systemID: system, componentID: 1), toPort: port)
        sender &+= 1
    }

    /// An ACK to send later (IN_PROGRESS, then the final result).
    private var delayedAck: (MonotonicTime, CommandAck)?

    /// PARAM_VALUE for a parameter in `parameters`; nothing for another name.
    private func answer(_ read: ParamRequestRead, sender: inout UInt8) {
        let (value, px4, port) = state.withLock { ($0.parameters[read.parameterID.string], $0.autopilot == .px4, $0.linkPort) }
        guard let value, let port else { return }
        let real = ["COM_OF_LOSS_T", "MPC_ACC_HOR", "MPC_JERK_AUTO"].contains(read.parameterID.string)
        let wire = px4 && !real ? Float(bitPattern: UInt32(bitPattern: Int32(value))) : value
        var answer = ParamValue()
        answer.value = wire
        answer.count = 900
        answer.parameterID = read.parameterID
        answer.type = real ? 9 : 6
        send(answer, sender: &sender, port: port)
    }

    private func sendTelemetry(sender: inout UInt8) {
        let s = state.withLock { $0 }
        guard let port = s.linkPort, !s.silent else { return }
        var flags: MAVLinkBitmask<MAVModeFlag> = [.customModeEnabled]
        if s.armed { flags.insert(.safetyArmed) }
        let heartbeat = Heartbeat {
            $0.customMode = s.customMode
            $0.type = .init(s.type)
            $0.autopilot = .init(s.autopilot)
            $0.baseMode = flags
            $0.systemStatus = .init(s.systemStatus ?? (s.armed ? .active : .standby))
            $0.mavlinkVersion = 3
        }
        send(heartbeat, sender: &sender, port: port)
        if let second = s.secondVehicleSystem { send(heartbeat, sender: &sender, port: port, system: second) }
        send(ExtendedSysState { $0.vtolState = .init(.undefined); $0.landedState = .init(s.landed) }, sender: &sender, port: port)
        var position = GlobalPositionInt()
        position.timeBootMilliseconds = s.bootMilliseconds
        position.latitudeLongitude = LatitudeLongitudeE7(latitudeE7: 473_977_420, longitudeE7: 85_455_940)
        position.altitudeMSLMillimeters = Int32((480 + s.relativeAltitudeMeters) * 1000)
        position.relativeAltitudeMillimeters = Int32(s.relativeAltitudeMeters * 1000)
        position.headingCentidegrees = 9000
        send(position, sender: &sender, port: port)
        var status = SysStatus()
        status.batteryRemainingPercent = s.batteryPercent
        send(status, sender: &sender, port: port)
    }

    /// ArduPilot/PX4 in the simplest case: message intervals and modes accepted, ARM accepted (or
    /// denied `armsToDeny` times), NAV_TAKEOFF when armed puts it in the air at param7.
    private func reply(to command: CommandLong, from: MAVLinkTarget, sender: inout UInt8) {
        var target = from
        let result: MAVResult = state.withLock { s in
            switch command.command.known {
            case .setMessageInterval?:
                return .accepted
            case .doSetMode?:
                if let other = s.setModeAckTarget {
                    // Our DO_SET_MODE lost; the ACK the link hears is another station's, for its own.
                    target = other
                    return .accepted
                }
                s.customMode = s.autopilot == .px4
                    ? PX4Mode(mainMode: UInt8(command.params[1]), subMode: UInt8(command.params[2])).customMode
                    : UInt32(command.params[1])
                if s.customMode == (s.autopilot == .px4 ? PX4Mode.autoLand.customMode : ArduCopterMode.land.rawValue), s.armed {
                    s.landed = .landing
                }
                return .accepted
            case .componentArmDisarm?:
                if s.armsToDeny > 0 {
                    s.armsToDeny -= 1
                    return .denied
                }
                if let seconds = s.armInProgressSeconds {
                    // Armed only with the final result (the HEARTBEAT shows it then).
                    s.armInProgressSeconds = nil
                    delayedAck = (TestClock.now().adding(seconds: seconds),
                                  CommandAck {
                                      $0.command = command.command
                                      $0.result = .init(.accepted)
                                      $0.target = from
                                  })
                    return .inProgress
                }
                s.armed = command.params[0] == 1
                return .accepted
            case .navTakeoff?:
                guard s.armed else { return .failed }
                s.landed = .inAir
                s.relativeAltitudeMeters = s.autopilot == .px4 ? Double(command.params[6]) - 480 : Double(command.params[6])
                if s.autopilot == .px4 { s.customMode = PX4Mode.autoLoiter.customMode }
                return .accepted
            default:
                return .unsupported
            }
        }
        guard let port = state.withLock({ $0.linkPort }) else { return }
        send(CommandAck { $0.command = command.command; $0.result = .init(result); $0.target = target }, sender: &sender, port: port)
    }
}
