import FlightService
import ArgumentParser
import ARDrone
import Links
import Foundation
import Logging
import FollowCore
import Synchronization

/// A running `DroneLink` plus what its events said last, for the `followme drone` commands that wait
/// on navdata (`takeoff`, `land`, `emergency-reset`; `status` reads `link.events` itself).
///
/// Shell logic only: the link does the protocol (bootstrap, config writes, REF/PCMD, watchdogs); the
/// session prints what a person at the bench needs and polls the latest navdata for a condition.
final class DroneSession: BenchSession {
    struct Observed: Sendable {
        var latest: ReceivedNavdata?
        var droneWasFlying: Bool?
        var failures: [String] = []

        /// Airborne per the latest navdata, take-off finished: the demo's control state is airborne
        /// (`ControlState.isAirborne`, the one definition) but not TRANS_TAKEOFF, because `takeoff`
        /// waits for hovering/flying before its hover time starts; without a known control state,
        /// the FLY bit. (`NavdataSummary.isAirborne`, the link's adopt-on-connect rule, also counts
        /// the take-off and, through the FLY bit, the landing.)
        var isAirborne: Bool {
            guard let navdata = latest?.navdata else { return false }
            if let control = navdata.demo?.controlState {
                return control.isAirborne && control != .transitionTakeoff
            }
            return navdata.state.contains(.flying)
        }

        /// Landed per the latest navdata: FLY bit clear and (if demo is present) state LANDED.
        var isLanded: Bool {
            guard let navdata = latest?.navdata, !navdata.state.contains(.flying) else { return false }
            return navdata.demo.map { $0.controlState == .landed } ?? true
        }
    }

    let link: DroneLink
    private let observed = Mutex(Observed())
    private let consumer: Mutex<Task<Void, Never>?> = Mutex(nil)

    private init(link: DroneLink) { self.link = link }

    /// Starts the link (exit 1 if it cannot bind); `quiet` logs errors only (for `--json`).
    static func start(_ configuration: DroneLinkConfiguration, quiet: Bool) async throws -> DroneSession {
        var logger = Logger(label: "followme.drone") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = quiet ? .error : .warning
        let link = DroneLink(configuration: configuration, logger: logger)
        let session = DroneSession(link: link)
        do {
            try await link.start()
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(1)
        }
        return session
    }

    /// Starts a session, waits for the first navdata (exit 1 without it), runs `body` with it and
    /// stops the link however `body` ends. With `shutdownSignals`, everything after the link started
    /// runs under `ShutdownSignals` (SIGTERM/SIGINT make `ShutdownSignals.requested` true instead of
    /// ending the process).
    static func run<T: Sendable>(
        _ connection: DroneConnectionOptions, shutdownSignals: Bool = false,
        _ body: @escaping @Sendable (DroneSession, NavdataSummary) async throws -> T
    ) async throws -> T {
        try await run(try connection.linkConfiguration(), connectTimeout: connection.connectTimeout,
                      shutdownSignals: shutdownSignals, body)
    }

    /// Starts recording events (for the commands that wait; `status` reads `link.events` itself).
    private func startObserving() {
        consumer.withLock { task in
            guard task == nil else { return }
            let events = link.events
            task = Task { [self] in
                for await event in events {
                    observed.withLock { state in
                        switch event {
                        case .navdata(let received): state.latest = received
                        case .connected(let wasFlying, _, _): state.droneWasFlying = wasFlying
                        case .configurationFailed(let write, let reason, _): state.failures.append("\(write): \(reason)")
                        default: break
                        }
                    }
                    if case .configurationFailed(let write, let reason, _) = event {
                        printError("followme drone: configuration \(write) failed: \(reason)")
                    }
                }
            }
        }
    }

    var snapshot: Observed { observed.withLock { $0 } }
    var isLanded: Bool { snapshot.isLanded }
    var isAirborne: Bool { snapshot.isAirborne }

    /// "LANDED, battery 80 %, altitude 0.00 m" or the state bits when no demo option came.
    var stateDescription: String {
        guard let navdata = snapshot.latest?.navdata else { return "no navdata" }
        if let demo = navdata.demo {
            return demo.controlStateName + String(format: ", battery %u %%, altitude %.2f m", demo.batteryPercent,
                                                  demo.altitudeMeters)
        }
        return "bits " + navdata.state.setBitNames.joined(separator: ",")
    }

    /// Waits for the first navdata; prints why and returns nil on timeout.
    func waitForFirstTelemetry(timeoutSeconds: Double) async -> NavdataSummary? {
        startObserving()
        let arrived = await wait(timeoutSeconds: timeoutSeconds) { $0.latest != nil }
        guard arrived, let navdata = snapshot.latest?.navdata else {
            let c = link.configuration
            printError("followme drone: no navdata from \(c.address):\(c.navdataPort) within \(timeoutSeconds) s: \(LinkHint.noNavdata(c))")
            return nil
        }
        return navdata
    }

    /// `waitUntil` on the latest navdata (`Observed`).
    func wait(timeoutSeconds: Double, interruptible: Bool = false, until condition: (Observed) -> Bool) async -> Bool {
        await waitUntil(timeoutSeconds: timeoutSeconds, interruptible: interruptible) { condition($0.snapshot) }
    }

    /// REF bit 9 set (take off, stay up) or clear (land), with hover, sent at once.
    func requestFlying(_ flying: Bool) {
        link.setDesired(flying: flying, pilot: .hover, sendImmediately: true)
    }

    /// Navdata arrives by itself once observing; this only starts observing.
    func refresh() async { startObserving() }

    func stop() async {
        await link.stop()
        let task = consumer.withLock { $0 }
        await task?.value
    }
}

/// What `takeoff` and `land` need of a running link, whatever the drone: the state its latest
/// telemetry shows, a way to ask for flying or landed, and stopping. `DroneSession` (the AR.Drone)
/// and `MAVLinkDroneSession` (PX4 or ArduPilot) conform.
protocol BenchSession: AnyObject, Sendable {
    /// What the link is started with.
    associatedtype Settings: Sendable
    /// What the first telemetry gives the command (`run`'s body).
    associatedtype FirstTelemetry: Sendable
    /// Starts the link (exit 1 if it cannot); `quiet` prints errors only (for `--json`).
    static func start(_ settings: Settings, quiet: Bool) async throws -> Self
    /// Waits for the first telemetry; prints why and returns nil on timeout.
    func waitForFirstTelemetry(timeoutSeconds: Double) async -> FirstTelemetry?
    /// Airborne with the take-off finished (the hover time starts now).
    var isAirborne: Bool { get }
    /// On the ground, as the drone itself reports it.
    var isLanded: Bool { get }
    /// The latest state for a person, e.g. "LANDED, battery 80 %, altitude 0.00 m".
    var stateDescription: String { get }
    /// Asks the link to take off and hold (true) or to land (false), sending at once.
    func requestFlying(_ flying: Bool)
    /// Brings what `isAirborne`, `isLanded` and `stateDescription` read up to date.
    func refresh() async
    func stop() async
}

extension BenchSession {
    /// Polls every 50 ms until `condition` holds or `timeoutSeconds` pass; when `interruptible`, also
    /// until SIGTERM/SIGINT (`ShutdownSignals.requested`).
    func waitUntil(timeoutSeconds: Double, interruptible: Bool = false, _ condition: (Self) -> Bool) async -> Bool {
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        while SystemClock.now() < deadline {
            await refresh()
            if condition(self) { return true }
            if interruptible && ShutdownSignals.requested { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        await refresh()
        return condition(self)
    }

    /// Asks the link to land and waits up to `timeoutSeconds` for the landed state. Signals never
    /// interrupt it: abandoning a landing half-way is worse; the timeout bounds it.
    func land(timeoutSeconds: Double) async -> Bool {
        requestFlying(false)
        return await waitUntil(timeoutSeconds: timeoutSeconds) { $0.isLanded }
    }

    /// Starts a session, waits up to `connectTimeout` seconds for the first telemetry (exit 1
    /// without it), runs `body` with it and stops the link however `body` ends. With
    /// `shutdownSignals`, everything after the link started runs under `ShutdownSignals`
    /// (SIGTERM/SIGINT make `ShutdownSignals.requested` true instead of ending the process).
    static func run<T: Sendable>(
        _ settings: Settings, connectTimeout: Double, shutdownSignals: Bool,
        _ body: @escaping @Sendable (Self, FirstTelemetry) async throws -> T
    ) async throws -> T {
        let session = try await start(settings, quiet: false)
        let work: @Sendable () async throws -> T = {
            do {
                guard let first = await session.waitForFirstTelemetry(timeoutSeconds: connectTimeout) else {
                    throw ExitCode(1)
                }
                let result = try await body(session, first)
                await session.stop()
                return result
            } catch {
                await session.stop()
                throw error
            }
        }
        return shutdownSignals ? try await ShutdownSignals.run(name: "followme drone", work) : try await work()
    }
}

/// The end of a drone command: `confirmed` on stdout when navdata confirmed what it waited for,
/// else `failure` on stderr and exit code 1.
func confirmOrExit(_ ok: Bool, confirmed: @autoclosure () -> String, failure: @autoclosure () -> String) throws {
    guard ok else {
        printError(failure())
        throw ExitCode(1)
    }
    printProgress(confirmed())
}
