import ArgumentParser
import FlightRecords
import FlightService
import Foundation

/// `followme config check FILE`: prints the effective config (exit 0) or every problem (exit 2).
/// `followme config keys [--markdown|--man]`: lists every key (the Markdown is docs/config-keys.md, the man page followme.toml(5)).
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Inspect configuration files.",
        subcommands: [Check.self, Keys.self]
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

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every config key with its type, unit, range and default.",
            discussion: "--markdown prints docs/config-keys.md (regenerate it with: followme config keys --markdown > docs/config-keys.md)."
        )

        @Flag(help: "Print the Markdown key table (docs/config-keys.md) instead of one tab-separated line per key.")
        var markdown = false

        @Flag(help: "Print the followme.toml(5) man page (roff) instead, as the package installs it.")
        var man = false

        @Option(help: "With --man: the page's date, YYYY-MM-DD (default: today, UTC).")
        var date: String?

        func run() {
            if man {
                print(ConfigKeys.manPage(date: date ?? Self.today(), version: FollowMeVersion.current), terminator: "")
            } else {
                print(markdown ? ConfigKeys.markdown() : ConfigKeys.plainList(), terminator: "")
            }
        }

        static func today() -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date())
        }
    }
}
