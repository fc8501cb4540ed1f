import ArgumentParser
import FlightService

/// `--socket PATH` and `--config FILE`: which running flight's status socket a client command
/// (`watch`, `land`, `hold`, `resume`, `start`) talks to.
struct StatusSocketOptions: ParsableArguments {
    /// Where the installed service publishes (etc/systemd/followme.service: RuntimeDirectory=followme).
    static let installedSocketPath = "/run/followme/status.sock"

    @Option(name: .long, help: ArgumentHelp(
        "The flight's status socket (default: --config's [status] socket, else the installed \(installedSocketPath)).",
        valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("The flight flying this config (its [status] socket).", valueName: "file"))
    var config: String?

    /// `--socket`, else `--config`'s `[status] socket` (exit 2 if it has none), else the installed path.
    func socketPath(command: String) throws -> String {
        if let socket { return socket }
        guard let config else { return Self.installedSocketPath }
        let path = loadConfigurationOrExit(path: config).status.socketPath
        guard !path.isEmpty else {
            printError("followme \(command): \(config) has no [status] socket: that flight publishes no status (set one, or pass --socket)")
            throw ExitCode(2)
        }
        return path
    }
}
