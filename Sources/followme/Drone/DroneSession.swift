import ArgumentParser
import ARDroneProtocol
import DroneLink
import Foundation
import Logging
import Observations
import ShellSupport
import Synchronization

/// A running `DroneLink` plus what its events said last, for the `followme drone` commands that wait
/// on navdata (`takeoff`, `land`, `emergency-reset`; `status` reads `link.events` itself).
///
/// Shell logic only: the link does the protocol (bootstrap, config writes, REF/PCMD, watchdogs); the
/// session prints what a person at the bench needs and polls the latest navdata for a condition.
final class DroneSession: Sendable {
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
        let session = try await start(try connection.linkConfiguration(), quiet: false)
        let connectTimeout = connection.connectTimeout
        let work: @Sendable () async throws -> T = {
            do {
                guard let first = await session.waitForNavdata(timeoutSeconds: connectTimeout) else {
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
    func waitForNavdata(timeoutSeconds: Double) async -> NavdataSummary? {
        startObserving()
        let arrived = await wait(timeoutSeconds: timeoutSeconds) { $0.latest != nil }
        guard arrived, let navdata = snapshot.latest?.navdata else {
            let c = link.configuration
            printError("followme drone: no navdata from \(c.address):\(c.navdataPort) within \(timeoutSeconds) s (is this machine on the drone's Wi-Fi?)")
            return nil
        }
        return navdata
    }

    /// Polls every 50 ms until `condition` holds or `timeoutSeconds` pass; when `interruptible`, also
    /// until SIGTERM/SIGINT (`ShutdownSignals.requested`).
    func wait(timeoutSeconds: Double, interruptible: Bool = false, until condition: (Observed) -> Bool) async -> Bool {
        startObserving()
        let deadline = SystemClock.now().adding(seconds: timeoutSeconds)
        while SystemClock.now() < deadline {
            if condition(snapshot) { return true }
            if interruptible && ShutdownSignals.requested { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(snapshot)
    }

    /// Asks the link to land (REF bit 9 clear, hover) and waits up to `timeoutSeconds` for LANDED.
    /// Signals never interrupt it: abandoning a landing half-way is worse; the timeout bounds it.
    func land(timeoutSeconds: Double) async -> Bool {
        link.setDesired(flying: false, pilot: .hover, sendImmediately: true)
        return await wait(timeoutSeconds: timeoutSeconds) { $0.isLanded }
    }

    func stop() async {
        await link.stop()
        let task = consumer.withLock { $0 }
        await task?.value
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
