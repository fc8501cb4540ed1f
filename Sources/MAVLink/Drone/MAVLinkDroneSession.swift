import FlightService
import ArgumentParser
import FollowCore
import Foundation
import Logging
import MAVLink
import Links
import Synchronization

/// A running `MAVLinkLink` to a PX4 or ArduPilot vehicle plus what it said last, for
/// `followme drone status|takeoff|land` with `[drone] protocol = "mavlink"` (docs/mavlink.md §7).
///
/// Shell logic only, like `DroneSession`: the link does the protocol (heartbeat, message rates,
/// GUIDED/ARM/NAV_TAKEOFF or the PX4 sequence, hold set-points, LAND); the session keeps the latest
/// telemetry and vehicle state, passes every event on (`events`, for `status`) and prints the
/// vehicle's warnings. Starting the link sends heartbeats and asks for message rates only: it never
/// arms, and it adopts a vehicle that is already flying (no LAND until `requestFlying(false)`).
final class MAVLinkDroneSession: BenchSession {
    struct Observed: Sendable {
        var telemetry: DroneTelemetry?
        var telemetryCount = 0
        var vehicle = VehicleState()
    }

    /// Where the link's handler (on its event loop) leaves what it saw.
    private final class Inbox: Sendable {
        let observed = Mutex(Observed())
        let continuation: AsyncStream<LinkEvent>.Continuation
        let printNotices: Bool

        init(continuation: AsyncStream<LinkEvent>.Continuation, printNotices: Bool) {
            self.continuation = continuation
            self.printNotices = printNotices
        }

        func handle(_ event: LinkEvent) {
            switch event {
            case .telemetry(let telemetry, _):
                observed.withLock { $0.telemetry = telemetry; $0.telemetryCount += 1 }
            case .notice(let text, let severity, _) where printNotices && (severity ?? Self.warning) <= Self.warning:
                printError("followme drone: vehicle: \(text)")
            case .configurationFailed(let key, let value, let reason, _) where printNotices:
                printError("followme drone: configuration \(key)=\(value) failed: \(reason)")
            default:
                break
            }
            continuation.yield(event)
        }

        /// MAV_SEVERITY_WARNING (4): notices at or above this severity (lower numbers) are printed.
        static let warning = 4
    }

    let link: MAVLinkLink
    let bench: MAVLinkBench
    /// Every link event in order; finishes when the session stops.
    let events: AsyncStream<LinkEvent>
    private let inbox: Inbox

    private init(bench: MAVLinkBench, quiet: Bool) {
        var logger = Logger(label: "followme.drone") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = quiet ? .error : .warning
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let inbox = Inbox(continuation: continuation, printNotices: !quiet)
        self.bench = bench
        self.events = events
        self.inbox = inbox
        link = MAVLinkLink(configuration: bench.link, logger: logger, eventHandler: { inbox.handle($0) })
    }

    /// Starts the link (exit 1 if it cannot bind); `quiet` prints errors only (for `--json`).
    static func start(_ bench: MAVLinkBench, quiet: Bool) async throws -> MAVLinkDroneSession {
        let session = MAVLinkDroneSession(bench: bench, quiet: quiet)
        do {
            try await session.link.start()
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(1)
        }
        return session
    }

    var snapshot: Observed { inbox.observed.withLock { $0 } }

    /// Waits for the first telemetry (GLOBAL_POSITION_INT); prints why and returns nil on timeout.
    func waitForFirstTelemetry(timeoutSeconds: Double) async -> Observed? {
        guard await waitUntil(timeoutSeconds: timeoutSeconds, { $0.snapshot.telemetry != nil }) else {
            let c = bench.link
            printError("followme drone: no telemetry from \(c.address):\(c.port) within \(timeoutSeconds) s: \(noTelemetryHint)")
            return nil
        }
        return snapshot
    }

    /// What to check when no telemetry came: the link (`LinkHint`) without a HEARTBEAT, else the autopilot's estimate.
    var noTelemetryHint: String {
        snapshot.vehicle.heartbeat == nil ? LinkHint.noHeartbeat(bench.link)
            : "its HEARTBEAT came but no GLOBAL_POSITION_INT: does the autopilot have a position estimate (GPS lock)?"
    }

    // MARK: BenchSession

    /// IN_AIR (the take-off finished: ArduPilot reports TAKEOFF until it reached the altitude).
    var isAirborne: Bool { snapshot.telemetry?.flightState == .flying }
    /// ON_GROUND (or, without a landed state, disarmed) and disarmed: the AR.Drone's LANDED means
    /// motors off, and a person may walk up to a landed drone. ArduPilot disarms at touchdown in
    /// LAND, PX4 2 s after it (`COM_DISARM_LAND`), both within `land`'s timeout.
    var isLanded: Bool {
        let observed = snapshot
        return observed.telemetry?.flightState == .landed && !observed.vehicle.isArmed
    }

    /// "FLYING, GUIDED, armed, battery 80 %, altitude 3.00 m" (battery "?" before SYS_STATUS said it).
    var stateDescription: String {
        let observed = snapshot
        guard let telemetry = observed.telemetry else { return "no telemetry" }
        let battery = observed.vehicle.batteryPercent.map { String(format: "%.0f", $0) } ?? "?"
        return [telemetry.flightState.statusName, modeName(observed.vehicle), observed.vehicle.isArmed ? "armed" : "disarmed",
                "battery \(battery) %", String(format: "altitude %.2f m", telemetry.altitudeMeters)]
            .joined(separator: ", ")
    }

    /// `flying` true: take off (the link's sequence for the configured autopilot) and hold (zero
    /// velocity); false: LAND while airborne, whoever took it off (an explicit `drone land`).
    func requestFlying(_ flying: Bool) {
        guard flying else {
            // An explicit land: also a vehicle this command did not take off (`MAVLinkLink.land`).
            link.land()
            return
        }
        link.send(LinkCommand(flying: flying), immediately: true, reflecting: nil)
    }

    /// Reads the vehicle's state (mode, armed, battery) from the link.
    func refresh() async {
        guard let vehicle = await link.vehicleState() else { return }
        inbox.observed.withLock { $0.vehicle = vehicle }
    }

    func stop() async {
        await link.stop()
        inbox.continuation.finish()
    }

    /// The HEARTBEAT's mode by the configured autopilot's names ("GUIDED", "AUTO.LAND"); "no heartbeat" before one.
    func modeName(_ vehicle: VehicleState) -> String {
        vehicle.customMode.map { bench.link.autopilot.modeName($0) } ?? "no heartbeat"
    }

    /// Why the vehicle must not take off now (EMERGENCY, battery under `[failsafe] min_battery_pct`), or nil.
    var takeoffRefusal: String? {
        let observed = snapshot
        if observed.vehicle.isEmergency {
            return "the vehicle reports EMERGENCY (HEARTBEAT system_status \(Self.systemStatusName(observed.vehicle)))"
        }
        guard let battery = observed.vehicle.batteryPercent else {
            return "the vehicle reports no battery level (SYS_STATUS battery_remaining); refusing to take off"
        }
        if battery < bench.minBatteryPercent {
            return String(format: "battery %.0f %% is under [failsafe] min_battery_pct %.0f %%; refusing to take off",
                          battery, bench.minBatteryPercent)
        }
        return nil
    }

    /// EXTENDED_SYS_STATE `landed_state` as the simulator's status names it ("on-ground", "in-air",
    /// "takeoff", "landing"); "undefined" without one.
    static func landedStateName(_ vehicle: VehicleState) -> String {
        switch vehicle.landedState {
        case .onGround?: "on-ground"
        case .inAir?: "in-air"
        case .takeoff?: "takeoff"
        case .landing?: "landing"
        case .undefined?, nil: "undefined"
        }
    }

    /// HEARTBEAT `system_status` in lower case ("standby", "active", "emergency"); "unknown" without one.
    static func systemStatusName(_ vehicle: VehicleState) -> String {
        guard let status = vehicle.heartbeat?.systemStatus else { return "unknown" }
        return status.known.map { "\($0)".lowercased() } ?? "state \(status.rawValue)"
    }
}

extension DroneFlightState {
    /// The AR.Drone's CTRL_STATES word for the same state (`NavdataDemo.controlStateName`), so
    /// `followme drone` prints both drones alike.
    var statusName: String {
        switch self {
        case .landed: "LANDED"
        case .takingOff: "TAKING OFF"
        case .flying: "FLYING"
        case .hovering: "HOVERING"
        case .landing: "LANDING"
        case .unknown: "UNKNOWN"
        }
    }
}
