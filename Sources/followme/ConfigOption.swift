import ArgumentParser
import Foundation
import FlightService

/// The `--config FILE` option every subcommand that needs the config shares.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Path to the TOML config file.",
        discussion: "Default: $FOLLOWME_CONFIG if set, else /etc/followme/followme.toml if it exists (the installed one), "
            + "else etc/followme.toml (a checkout)."))
    var config: String = defaultConfigPath(environment: ProcessInfo.processInfo.environment,
                                           exists: { FileManager.default.fileExists(atPath: $0) })
}
