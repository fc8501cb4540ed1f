import FlightService
import ArgumentParser

/// `followme drone land`: land the drone and wait until navdata reports LANDED (with `[drone]
/// protocol = "mavlink"`: LAND mode, until the autopilot reports ON_GROUND).
///
/// Modules: FollowMeConfig (the config, through `DroneConnectionOptions`), DroneLink (the link, through
/// `DroneSession`) and ServiceLifecycle (through `ShutdownSignals`: SIGTERM/SIGINT are received but do
/// not stop a landing half-way; `--timeout` bounds the wait).
struct DroneLandCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "land",
        abstract: "Land the drone and wait until navdata reports LANDED.",
        discussion: """
            Ctrl-C and SIGTERM are ignored while landing (abandoning a landing half-way is worse);
            --timeout bounds the wait. Exit 0 when landed (or already on the ground), 1 when not
            confirmed within --timeout.
            """
    )

    @OptionGroup var options: DroneWaitOptions<DroneLandCommand>

    func run() async throws {
        let timeout = options.timeout, connectTimeout = options.connection.connectTimeout
        // Ctrl-C must not abandon a landing half-way: signals are received, not obeyed.
        switch try options.connection.target() {
        case .ardrone(let configuration):
            try await DroneSession.run(configuration, connectTimeout: connectTimeout, shutdownSignals: true) { session, _ in
                try await land(session, timeout: timeout)
            }
        case .mavlink(let bench):
            try await MAVLinkDroneSession.run(bench, connectTimeout: connectTimeout, shutdownSignals: true) { session, _ in
                try await land(session, timeout: timeout)
            }
        }
    }
}

/// Lands unless already landed and waits up to `timeout` seconds for the landed state (exit 1 without it).
private func land(_ session: some BenchSession, timeout: Double) async throws {
    if session.isLanded {
        printProgress("already landed (\(session.stateDescription))")
        return
    }
    printProgress("landing… (\(session.stateDescription))")
    try confirmOrExit(
        await session.land(timeoutSeconds: timeout),
        confirmed: "landed (\(session.stateDescription))",
        failure: "followme drone land: LANDED not reported within \(timeout) s (state \(session.stateDescription))")
}

extension DroneLandCommand: DroneWaitHelp {
    static let timeoutHelp = "Seconds to wait for LANDED."
    static let defaultTimeoutSeconds = 20.0
}
