import ArgumentParser

/// `followme drone land`: land the drone and wait until navdata reports LANDED.
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
        let timeout = options.timeout
        // Ctrl-C must not abandon a landing half-way: signals are received, not obeyed.
        try await DroneSession.run(options.connection, shutdownSignals: true) { session, _ in
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
    }
}

extension DroneLandCommand: DroneWaitHelp {
    static let timeoutHelp = "Seconds to wait for LANDED."
    static let defaultTimeoutSeconds = 20.0
}
