import ArgumentParser
import Foundation
import FlightService

/// The `--config FILE` option every subcommand that needs the config shares.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "Path to the TOML config file.")
    var config: String = "etc/followme.toml"
}
