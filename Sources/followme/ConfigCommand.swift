import ArgumentParser
import FlightService

/// `followme config check FILE`: prints the effective config (exit 0) or every problem (exit 2).
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Inspect configuration files.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a config file: print the effective config, or its problems as FILE:LINE: KEY: message.",
            discussion: "Exit code 0 when valid, 2 when not."
        )

        @Argument(help: "The TOML config file to check.")
        var file: String

        func run() throws {
            let config = loadConfigurationOrExit(path: file)
            print("# \(file): valid. Effective configuration (defaults filled in):")
            print(config.renderedTOML(), terminator: "")
        }
    }
}
