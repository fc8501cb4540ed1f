import ArgumentParser

/// `followme drone land`: land the drone and wait until navdata reports LANDED.
///
/// Wires `DroneConnectionOptions` (config → `DroneLinkConfiguration`), `DroneSession` (a running
/// `DroneLink` and its latest navdata) and `ShutdownSignals`: SIGTERM/SIGINT are received but do not
/// stop a landing half-way; `--timeout` bounds the wait.
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

    @OptionGroup var connection: DroneConnectionOptions

    @Option(name: .long, help: "Seconds to wait for LANDED.")
    var timeout: Double = 20

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        let timeout = timeout
        // Ctrl-C must not abandon a landing half-way: signals are received, not obeyed.
        try await DroneSession.run(connection, shutdownSignals: true) { session, _ in
            if session.isLanded {
                printProgress("already landed (\(session.stateDescription))")
                return
            }
            printProgress("landing… (\(session.stateDescription))")
            guard await session.land(timeoutSeconds: timeout) else {
                printError("followme drone land: LANDED not reported within \(timeout) s (state \(session.stateDescription))")
                throw ExitCode(1)
            }
            printProgress("landed (\(session.stateDescription))")
        }
    }
}
