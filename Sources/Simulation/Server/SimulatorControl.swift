import Foundation
import FollowCore
import MAVLink
import NIOCore
import Links

/// A simulator output stream a fault can silence.
public enum SimulatorStream: String, Sendable, Hashable, CaseIterable {
    /// The person's receiver: every person NMEA sentence (RMC, GGA, GSA).
    case person
    /// The onboard receiver: every onboard NMEA sentence (RMC, GGA, GSA and HDT).
    case onboard
    /// Only the onboard receiver's heading (HDT); its fixes keep flowing.
    case heading
    /// Navdata packets (the drone still takes AT commands and registers navdata triggers).
    case navdata
    /// Everything the MAVLink Copter sends (`--protocol mavlink`; it still takes commands): a lost link.
    case mavlink
}

/// A bad navdata packet the simulator can send from its own navdata port to the navdata client.
///
/// Both claim EMERGENCY (state bit 31), LANDED and 1 % battery, so a client that accepted one
/// would visibly react (emergency state, landing).
public enum InjectedNavdata: String, Sendable, Hashable, CaseIterable {
    /// A well-formed demo packet with the next sequence number and a wrong checksum (docs/ardrone-protocol.md §3.5).
    case corrupt
    /// A well-formed demo packet whose sequence number is 5 below the last one sent (docs/ardrone-protocol.md §1.3: the
    /// client must drop non-increasing sequence numbers). Refused before 6 packets were sent.
    case staleSequence = "stale-sequence"
}

/// One command on the simulator's fault-injection control channel (`followme sim --control-port`).
///
/// Wire format: one JSON object per UDP datagram, answered with one JSON object to the sender
/// (`{"ok":true,"command":…,"t":…}` or `{"ok":false,"error":…}`; `t` is the simulator's
/// CLOCK_MONOTONIC seconds when the command took effect, the clock of `followme run`'s flight log):
///
/// | command | fields | effect |
/// |---|---|---|
/// | `silence` | `stream` (`person`/`onboard`/`heading`/`navdata`), `on` (bool) | stop/resume that output |
/// | `person-jump` | `meters` (> 0), `bearing_deg` (default 90) | the next person fix only is moved that far |
/// | `person-time-back` | `seconds` (> 0) | the next person fix only carries a UTC time that much earlier |
/// | `battery` | `percent` (0…100) | sets the battery charge now |
/// | `navdata-inject` | `kind` (`corrupt`/`stale-sequence`), `count` (1…100, default 1) | sends bad navdata now |
/// | `heading-glitch` | `degrees` (default 180), `count` (1…100, default 1) | the next `count` onboard headings (HDT) only are rotated by `degrees` |
/// | `heading-value` | `degrees` (0…360), `count` (1…100, default 1) | the next `count` onboard headings only read `degrees` (e.g. 0.0, what some compasses send when invalid) |
/// | `heading-offset` | `degrees` | every later onboard heading is rotated by `degrees` (a re-mounted receiver); 0 ends it |
/// | `land` | — | the drone starts an automatic landing now, on its own (landing reason `automatic`); refused unless airborne |
/// | `pilot-mode` | `mode` (`LOITER`/`BRAKE`/`RTL`/`LAND`/`GUIDED`/`STABILIZE`) | `--protocol mavlink` only: the Copter's RC pilot moves the mode switch (docs/mavlink.md §8.5); refused if the Copter cannot enter the mode |
/// | `pilot-takeoff` | `meters` (0 < m ≤ 100, default 5), `mode` (`LOITER`/`BRAKE`/`RTL`/`LAND`/`GUIDED`, default `LOITER`) | `--protocol mavlink` only: a pilot flies the Copter from their own ground station (system 255, component 190; `CopterPilot`): GUIDED, ARM, NAV_TAKEOFF to `meters`, and at that height the mode switch to `mode`; refused unless the Copter is disarmed on the ground |
/// | `pilot-land` | — | `--protocol mavlink` only: that pilot's station sends LAND (the Copter lands and disarms); refused unless it is armed in the air |
/// | `navdata-bootstrap` | `forget` (`navdata-demo`/`all`, default `navdata-demo`), `restart_sequence` (bool, default false) | navdata falls back to bootstrap now, as after a firmware restart (see below) |
/// | `status` | — | the simulator's state (`SimulatorSnapshot.controlStatusJSON`) |
///
/// `navdata-bootstrap`: from the next packet on, navdata is bootstrap (state bit 11, header and
/// checksum only, no demo option) until the client writes `general:navdata_demo` TRUE again, and the
/// drone forgets `general:navdata_demo` (`forget: navdata-demo`, bit 10 clear) or every config key
/// (`forget: all`: limits back to the indoor defaults) and any pending config ACK. With
/// `restart_sequence`, navdata is numbered from 1 again and the next AT sequence number is accepted
/// whatever it is. The drone keeps flying (hovering on its own while no progressive PCMD arrives).
public enum SimulatorControlCommand: Sendable, Hashable {
    case silence(SimulatorStream, on: Bool)
    case personJump(meters: Double, bearingDegrees: Double)
    case personTimeBack(seconds: Double)
    case setBattery(percent: Double)
    case injectNavdata(InjectedNavdata, count: Int)
    /// The next `count` heading reports rotated by `degrees`.
    case headingGlitch(degrees: Double, count: Int)
    /// The next `count` heading reports read `degrees`, whatever the truth.
    case headingValue(degrees: Double, count: Int)
    /// Every later heading report rotated by `degrees` (0 = none).
    case headingOffset(degrees: Double)
    /// The drone lands on its own now.
    case land
    /// The MAVLink Copter's pilot switches it to this mode (an RC mode switch).
    case pilotMode(ArduCopterMode)
    /// A pilot takes the MAVLink Copter off from their own ground station to `meters`, then switches to `mode`.
    case pilotTakeoff(meters: Double, mode: ArduCopterMode)
    /// That pilot lands the MAVLink Copter (LAND from their station).
    case pilotLand
    /// Navdata falls back to bootstrap; see the type doc.
    case navdataBootstrap(forget: DroneSimulator.ConfigurationLoss, restartSequence: Bool)
    case status

    /// The command's name on the wire.
    public var name: String {
        switch self {
        case .silence: "silence"
        case .personJump: "person-jump"
        case .personTimeBack: "person-time-back"
        case .setBattery: "battery"
        case .injectNavdata: "navdata-inject"
        case .headingGlitch: "heading-glitch"
        case .headingValue: "heading-value"
        case .headingOffset: "heading-offset"
        case .land: "land"
        case .pilotMode: "pilot-mode"
        case .pilotTakeoff: "pilot-takeoff"
        case .pilotLand: "pilot-land"
        case .navdataBootstrap: "navdata-bootstrap"
        case .status: "status"
        }
    }

    /// Every command name, for error messages.
    public static let names = [
        "silence", "person-jump", "person-time-back", "battery", "navdata-inject", "heading-glitch", "heading-value",
        "heading-offset",
        "land", "pilot-mode", "pilot-takeoff", "pilot-land", "navdata-bootstrap", "status",
    ]

    /// Largest person jump accepted, metres (keeps the fix on the globe near the home).
    public static let maximumJumpMeters = 100_000.0
    /// Largest time shift accepted, seconds (one day).
    public static let maximumTimeBackSeconds = 86_400.0
    /// Most packets one `navdata-inject` sends, and most headings one `heading-glitch` rotates.
    public static let maximumInjectCount = 100
    /// Largest heading rotation accepted, degrees (one turn either way).
    public static let maximumRotationDegrees = 360.0
    /// Highest take-off a `pilot-takeoff` asks for, metres, and its default (the height the in-process
    /// pilot of the ownership tests takes off to).
    public static let maximumPilotTakeoffMeters = 100.0
    public static let defaultPilotTakeoffMeters = 5.0

    /// The fields of a control datagram, all optional (each command checks its own).
    private struct Fields: Decodable {
        var command: String?
        var stream: String?
        var on: Bool?
        var meters: Double?
        var bearingDegrees: Double?
        var seconds: Double?
        var percent: Double?
        var kind: String?
        var count: Double?
        var degrees: Double?
        var forget: String?
        var restartSequence: Bool?
        var mode: String?

        enum CodingKeys: String, CodingKey {
            case command, stream, on, meters, seconds, percent, kind, count, degrees, forget, mode
            case bearingDegrees = "bearing_deg"
            case restartSequence = "restart_sequence"
        }
    }

    /// Parses one datagram. Unknown fields are ignored; a field of the wrong JSON type is an error.
    public init(json bytes: [UInt8]) throws(SimulatorControlError) {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let context) {
            throw .invalidValue(field: context.codingPath.map(\.stringValue).joined(separator: "."), value: "?",
                                requirement: "of the documented JSON type")
        } catch {
            throw .notAJSONObject
        }
        guard let command = fields.command else { throw .missingField(command: "?", field: "command") }
        func required(_ value: Double?, _ field: String) throws(SimulatorControlError) -> Double {
            guard let value else { throw .missingField(command: command, field: field) }
            return value
        }
        func countField() throws(SimulatorControlError) -> Int {
            let count = fields.count ?? 1
            guard count == count.rounded(), count >= 1, count <= Double(Self.maximumInjectCount) else {
                throw .invalidValue(field: "count", value: "\(count)", requirement: "an integer 1...\(Self.maximumInjectCount)")
            }
            return Int(count)
        }
        func rotation(_ degrees: Double) throws(SimulatorControlError) -> Double {
            guard degrees.isFinite, abs(degrees) <= Self.maximumRotationDegrees else {
                throw .invalidValue(field: "degrees", value: "\(degrees)",
                                    requirement: "-\(Self.maximumRotationDegrees)...\(Self.maximumRotationDegrees)")
            }
            return degrees
        }
        switch command {
        case "silence":
            guard let streamName = fields.stream else { throw .missingField(command: command, field: "stream") }
            guard let stream = SimulatorStream(rawValue: streamName) else {
                throw .invalidValue(field: "stream", value: streamName,
                                    requirement: SimulatorStream.allCases.map(\.rawValue).joined(separator: "|"))
            }
            guard let on = fields.on else { throw .missingField(command: command, field: "on") }
            self = .silence(stream, on: on)
        case "person-jump":
            let meters = try required(fields.meters, "meters")
            guard meters.isFinite, meters > 0, meters <= Self.maximumJumpMeters else {
                throw .invalidValue(field: "meters", value: "\(meters)", requirement: "0 < meters <= \(Self.maximumJumpMeters)")
            }
            let bearing = fields.bearingDegrees ?? 90
            guard bearing.isFinite else { throw .invalidValue(field: "bearing_deg", value: "\(bearing)", requirement: "finite") }
            self = .personJump(meters: meters, bearingDegrees: bearing)
        case "person-time-back":
            let seconds = try required(fields.seconds, "seconds")
            guard seconds.isFinite, seconds > 0, seconds <= Self.maximumTimeBackSeconds else {
                throw .invalidValue(field: "seconds", value: "\(seconds)",
                                    requirement: "0 < seconds <= \(Self.maximumTimeBackSeconds)")
            }
            self = .personTimeBack(seconds: seconds)
        case "battery":
            let percent = try required(fields.percent, "percent")
            guard percent.isFinite, (0...100).contains(percent) else {
                throw .invalidValue(field: "percent", value: "\(percent)", requirement: "0...100")
            }
            self = .setBattery(percent: percent)
        case "navdata-inject":
            guard let kindName = fields.kind else { throw .missingField(command: command, field: "kind") }
            guard let kind = InjectedNavdata(rawValue: kindName) else {
                throw .invalidValue(field: "kind", value: kindName,
                                    requirement: InjectedNavdata.allCases.map(\.rawValue).joined(separator: "|"))
            }
            self = .injectNavdata(kind, count: try countField())
        case "heading-glitch":
            self = .headingGlitch(degrees: try rotation(fields.degrees ?? 180), count: try countField())
        case "heading-value":
            let degrees = try required(fields.degrees, "degrees")
            guard degrees.isFinite, (0...360).contains(degrees) else {
                throw .invalidValue(field: "degrees", value: "\(degrees)", requirement: "0...360")
            }
            self = .headingValue(degrees: degrees, count: try countField())
        case "heading-offset":
            self = .headingOffset(degrees: try rotation(try required(fields.degrees, "degrees")))
        case "land":
            self = .land
        case "pilot-mode":
            guard let name = fields.mode else { throw .missingField(command: command, field: "mode") }
            guard let mode = MAVLinkCopter.mode(named: name) else {
                throw .invalidValue(field: "mode", value: name,
                                    requirement: ArduCopterMode.allCases.map(MAVLinkCopter.name(of:)).joined(separator: "|"))
            }
            self = .pilotMode(mode)
        case "pilot-takeoff":
            let meters = fields.meters ?? Self.defaultPilotTakeoffMeters
            guard meters.isFinite, meters > 0, meters <= Self.maximumPilotTakeoffMeters else {
                throw .invalidValue(field: "meters", value: "\(meters)",
                                    requirement: "0 < meters <= \(Self.maximumPilotTakeoffMeters)")
            }
            let name = fields.mode ?? MAVLinkCopter.name(of: .loiter)
            guard let mode = MAVLinkCopter.mode(named: name), CopterPilot.modesAfterTakeOff.contains(mode) else {
                throw .invalidValue(field: "mode", value: name,
                                    requirement: CopterPilot.modesAfterTakeOff.map(MAVLinkCopter.name(of:)).joined(separator: "|"))
            }
            self = .pilotTakeoff(meters: meters, mode: mode)
        case "pilot-land":
            self = .pilotLand
        case "navdata-bootstrap":
            let forgetName = fields.forget ?? DroneSimulator.ConfigurationLoss.navdataDemo.rawValue
            guard let forget = DroneSimulator.ConfigurationLoss(rawValue: forgetName) else {
                throw .invalidValue(field: "forget", value: forgetName,
                                    requirement: DroneSimulator.ConfigurationLoss.allCases.map(\.rawValue).joined(separator: "|"))
            }
            self = .navdataBootstrap(forget: forget, restartSequence: fields.restartSequence ?? false)
        case "status":
            self = .status
        default:
            throw .unknownCommand(command)
        }
    }
}

/// Why a control datagram was refused.
public enum SimulatorControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The datagram is not one JSON object.
    case notAJSONObject
    /// No such command.
    case unknownCommand(String)
    /// A field the command needs is absent (or of the wrong JSON type).
    case missingField(command: String, field: String)
    /// A field is present but out of range.
    case invalidValue(field: String, value: String, requirement: String)
    /// The command is valid but cannot be carried out now.
    case notNow(command: String, reason: String)

    public var description: String {
        switch self {
        case .notAJSONObject: "the datagram is not one JSON object"
        case .unknownCommand(let c):
            "unknown command '\(c)' (\(SimulatorControlCommand.names.joined(separator: ", ")))"
        case .missingField(let c, let f): "\(c): missing field '\(f)'"
        case .invalidValue(let f, let v, let r): "\(f) = \(v): must be \(r)"
        case .notNow(let c, let r): "\(c): \(r)"
        }
    }
}
