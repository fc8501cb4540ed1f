import Logging
import MAVLink
import NIOCore
import FollowCore
import FlightRecords

/// The simulator's MAVLink side (`followme sim --protocol mavlink`): bytes from the UDP port go
/// through a `MAVLinkParser` into the `MAVLinkCopter`; what the copter answers and sends is
/// numbered and framed here, one message per datagram.
///
/// Who it talks to: every ground station that sent a HEARTBEAT, one per MAVLink system id (a later
/// HEARTBEAT of the same system from another address moves that station there, e.g. a restarted
/// FollowMe), as ArduPilot streams to each GCS link it has; telemetry goes to all of them, so a
/// second station (a pilot's, docs/mavlink.md §8.5) does not take the vehicle from the first. A
/// command's replies (COMMAND_ACK, PARAM_VALUE, STATUSTEXT it caused) go back to its sender; before
/// any HEARTBEAT telemetry goes nowhere.
struct MAVLinkVehicleEndpoint {
    /// What the endpoint counts (besides the parser's own counters).
    enum Counter: String, CaseIterable, Sendable, Hashable {
        case datagramsIn = "datagrams_in", framesIn = "frames_in", framesOut = "frames_out"
        case telemetrySuppressed = "telemetry_suppressed"
    }

    private(set) var copter: MAVLinkCopter
    /// The pilot of the control port's `pilot-takeoff` and `pilot-land`, stepped with the copter.
    private(set) var pilot = CopterPilot()
    private var parser = MAVLinkParser()
    private var sequence: UInt8 = 0
    /// The ground stations heard (HEARTBEAT sources), by system id, in the order they appeared.
    private(set) var groundStations: [(systemID: UInt8, address: SocketAddress)] = []
    /// The ground station the status shows: `SYSID_MYGCS`'s if heard, else the first one,
    /// e.g. `[IPv4]127.0.0.1/127.0.0.1:40000`.
    var peer: SocketAddress? {
        (groundStations.first { $0.systemID == copter.parameters.groundStationSystemID } ?? groundStations.first)?.address
    }
    private(set) var counts = Counts<Counter>()
    /// While true, nothing the copter sends leaves (a link-loss fault); commands still arrive.
    var silent = false

    init(copter: MAVLinkCopter) {
        self.copter = copter
    }

    /// Parser totals: bad checksums, unknown messages, garbage bytes.
    var parserCounters: MAVLinkParser.Counters { parser.counters }

    /// One datagram from `source` at `now`: the datagrams to send back, with where to.
    mutating func receive(_ bytes: [UInt8], from source: SocketAddress, now: MonotonicTime) -> [(bytes: [UInt8], to: SocketAddress)] {
        counts[.datagramsIn] += 1
        var out: [(bytes: [UInt8], to: SocketAddress)] = []
        for item in parser.parse(bytes) {
            guard case .frame(let frame) = item else { continue }
            counts[.framesIn] += 1
            if frame.messageID == Heartbeat.messageID { heard(frame.systemID, at: source) }
            // What fell due before the frame goes to every station, the replies to the sender only.
            let due = copter.advance(to: now)
            out += encode(due, to: groundStations.map(\.address))
            let replies = copter.receive(frame, at: now)
            out += encode(replies, to: [source])
        }
        return out
    }

    /// Advances the copter (and its pilot, `CopterPilot.step`) to `now`: the telemetry due, for every ground
    /// station (none before one is known), and the mode the pilot switched to now, if any.
    mutating func tick(now: MonotonicTime) -> (datagrams: [(bytes: [UInt8], to: SocketAddress)], pilotSwitched: ArduCopterMode?) {
        let stepped = pilot.step(copter: &copter, at: now)
        return (encode(stepped.messages, to: groundStations.map(\.address)), stepped.switched)
    }

    /// Runs `act` on the pilot and the copter (the control port's pilot commands) and returns what the copter
    /// sent every station meanwhile.
    mutating func withPilot(_ act: (inout CopterPilot, inout MAVLinkCopter) -> [any MAVLinkMessage]) -> [(bytes: [UInt8], to: SocketAddress)] {
        let due = act(&pilot, &copter)
        return encode(due, to: groundStations.map(\.address))
    }

    /// Runs `change` on the copter (fault hooks) and returns what it sent meanwhile.
    mutating func withCopter(_ change: (inout MAVLinkCopter) -> [any MAVLinkMessage]) -> [(bytes: [UInt8], to: SocketAddress)] {
        let due = change(&copter)
        return encode(due, to: groundStations.map(\.address))
    }

    /// A HEARTBEAT of system `systemID` came from `address`: a new station, or a known one moved.
    private mutating func heard(_ systemID: UInt8, at address: SocketAddress) {
        if let index = groundStations.firstIndex(where: { $0.systemID == systemID }) {
            groundStations[index].address = address
        } else {
            groundStations.append((systemID, address))
        }
    }

    /// Each message numbered once and sent to each of `addresses` (one datagram per message and address).
    private mutating func encode(_ messages: [any MAVLinkMessage], to addresses: [SocketAddress]) -> [(bytes: [UInt8], to: SocketAddress)] {
        guard !messages.isEmpty, !addresses.isEmpty else { return [] }
        guard !silent else {
            counts[.telemetrySuppressed] += messages.count
            return []
        }
        var out: [(bytes: [UInt8], to: SocketAddress)] = []
        for message in messages {
            defer { sequence &+= 1 }
            let bytes = message.encoded(sequence: sequence, systemID: copter.parameters.systemID,
                                        componentID: copter.parameters.componentID)
            for address in addresses {
                counts[.framesOut] += 1
                out.append((bytes, address))
            }
        }
        return out
    }

    /// The endpoint's state for the status JSON: mode, armed, landed state, peer, counters.
    var json: String {
        var j = JSONLine()
        j.add("mode", copter.modeName(of: copter.mode))
        j.add("armed", copter.isArmed)
        j.add("landed_state", Self.name(copter.landedState))
        j.add("gcs", peer.map { "\($0)" })
        j.add("ground_stations", groundStations.count)
        j.add("gcs_failsafe", copter.isGCSFailsafeActive)
        j.add("silent", silent)
        // DO_SET_ROI_LOCATION's point while one is set (`[mavlink] point_camera`).
        j.add("roi_lat", copter.regionOfInterest?.latitudeDegrees)
        j.add("roi_lon", copter.regionOfInterest?.longitudeDegrees)
        // The camera (CAM1_TYPE) and whether it records (docs/mavlink.md §8.7).
        j.add("camera_type", copter.parameters.cameraType)
        j.add("camera_recording", copter.isRecordingVideo)
        j.addRaw("camera_commands_by_system", Self.bySystem(copter.cameraCommandsBySystem))
        for counter in Counter.allCases { j.add(counter.rawValue, counts[counter]) }
        j.add("bad_checksums", parser.counters.badChecksums)
        for counter in MAVLinkCopterCounter.allCases { j.add(counter.rawValue, copter.counters[counter]) }
        // Who sent the commands and set-points the copter received: {"245": n, "255": m} by system id.
        j.addRaw("commands_by_system", Self.bySystem(copter.commandsBySystem))
        j.addRaw("setpoints_by_system", Self.bySystem(copter.setpointsBySystem))
        j.add("pilot_switch_pending", pilot.pending.map { MAVLinkCopter.name(of: $0.mode) })
        return j.string
    }

    /// Counts by MAVLink system id as a JSON object, ids ascending (`{}` when empty).
    static func bySystem(_ counts: [UInt8: Int]) -> String {
        var j = JSONLine()
        for (systemID, count) in counts.sorted(by: { $0.key < $1.key }) { j.add(String(systemID), count) }
        return j.string
    }

    /// Mode, armed or not, landed state: `GUIDED armed in-air`.
    var summary: String {
        "\(copter.modeName(of: copter.mode)) \(copter.isArmed ? "armed" : "disarmed") \(Self.name(copter.landedState))"
            + (peer == nil ? " no-gcs" : "")
    }

    /// `MAV_LANDED_STATE` as a lower-case name.
    static func name(_ state: MAVLandedState) -> String {
        switch state {
        case .undefined: "undefined"
        case .onGround: "on-ground"
        case .inAir: "in-air"
        case .takeoff: "takeoff"
        case .landing: "landing"
        }
    }
}

extension MAVLinkVehicleEndpoint {
    /// The copter's state in the AR.Drone simulator's words (status lines, the person's start):
    /// on the ground = landed, taking off, in the air (descending in LAND = landing).
    var flightPhase: DroneSimulator.FlightPhase {
        switch copter.landedState {
        case .onGround, .undefined: .landed
        case .takeoff: .takingOff
        case .inAir: .flying
        case .landing: .landing
        }
    }
}

/// The MAVLink side of `SimulatorCore` (on its event loop, like the rest of it).
extension SimulatorCore {
    /// One datagram arrived on the MAVLink port from `source` at `now`.
    func receiveMAVLink(_ bytes: [UInt8], from source: SocketAddress, now: MonotonicTime) {
        guard var endpoint = mavlink else { return }
        endpoint.silent = faults.mavlinkSilent
        let peerBefore = endpoint.peer
        let out = endpoint.receive(bytes, from: source, now: now)
        mavlink = endpoint
        if endpoint.peer != peerBefore, let peer = endpoint.peer {
            logger.info("MAVLink ground station", metadata: ["gcs": "\(peer)"])
        }
        write(out)
    }

    /// Advances the copter and its pilot to `now` and sends the telemetry due.
    func tickMAVLink(now: MonotonicTime) {
        guard var endpoint = mavlink else { return }
        endpoint.silent = faults.mavlinkSilent
        let out = endpoint.tick(now: now)
        mavlink = endpoint
        if let mode = out.pilotSwitched {
            logger.info("the pilot switched the Copter's mode", metadata: ["mode": "\(MAVLinkCopter.name(of: mode))"])
        }
        write(out.datagrams)
    }

    /// The control port's `pilot-takeoff` or `pilot-land` at `now`; why it was refused (nil = done).
    func pilotMAVLinkCopter(_ command: SimulatorControlCommand, now: MonotonicTime) -> String? {
        guard var endpoint = mavlink else { return "no MAVLink Copter" }
        if case .pilotTakeoff = command, endpoint.copter.parameters.autopilot != .ardupilot {
            return "pilot-takeoff flies an ArduPilot Copter (its GUIDED take-off); this one runs \(endpoint.copter.parameters.autopilot.rawValue)"
        }
        endpoint.silent = faults.mavlinkSilent
        var refusal: String?
        let out = endpoint.withPilot { pilot, copter in
            let result: (messages: [any MAVLinkMessage], refusal: String?)
            switch command {
            case .pilotTakeoff(let meters, let mode): result = pilot.takeOff(to: meters, then: mode, copter: &copter, at: now)
            case .pilotLand: result = pilot.land(copter: &copter, at: now)
            default: return []
            }
            refusal = result.refusal
            return result.messages
        }
        mavlink = endpoint
        write(out)
        return refusal
    }

    /// Runs a fault hook on the copter and sends what it produced.
    func sendMAVLink(_ change: (inout MAVLinkCopter) -> [any MAVLinkMessage]) {
        guard var endpoint = mavlink else { return }
        let out = endpoint.withCopter(change)
        mavlink = endpoint
        write(out)
    }

    /// The `land` fault on the copter: LAND on its own. False unless airborne.
    func landMAVLinkCopter(now: MonotonicTime) -> Bool {
        var started = false
        sendMAVLink { copter in
            let result = copter.beginAutomaticLanding(at: now)
            started = result.started
            return result.messages
        }
        return started
    }

    /// `snapshot` with the copter's ground truth and state in place of the (idle) AR.Drone's.
    func withMAVLinkCopter(_ snapshot: SimulatorSnapshot, now: MonotonicTime) -> SimulatorSnapshot {
        guard let endpoint = mavlink else { return snapshot }
        let copter = endpoint.copter
        var s = snapshot
        s.flightPhase = endpoint.flightPhase
        s.positionPlane = copter.positionPlane
        s.coordinate = copter.plane.unproject(copter.positionPlane)
        s.velocityENU = copter.velocityENU
        s.altitudeMeters = copter.altitudeMeters
        s.noseHeadingDegrees = copter.noseHeadingDegrees
        s.batteryPercent = copter.batteryPercent
        s.mavlinkJSON = endpoint.json
        s.mavlinkSummary = endpoint.summary
        return s
    }

    private func write(_ datagrams: [(bytes: [UInt8], to: SocketAddress)]) {
        guard let channel = mavlinkChannel, !datagrams.isEmpty else { return }
        for datagram in datagrams {
            var buffer = channel.allocator.buffer(capacity: datagram.bytes.count)
            buffer.writeBytes(datagram.bytes)
            channel.write(AddressedEnvelope(remoteAddress: datagram.to, data: buffer), promise: nil)
        }
        channel.flush()
    }
}
