import ArgumentParser
import FlightRecords
import Foundation

extension CommandConfiguration {
    /// The root command of `followme` and of `followme-tools` (which answers as `followme`): one name,
    /// one version and one statement of the exit-code contract for both.
    package static func followme(abstract: String, subcommands: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "followme", abstract: abstract,
            discussion: """
                Exit codes: 0 success; 1 runtime failure; 2 bad configuration or usage; 3 (followme run) \
                stopped while a pilot or the autopilot's own failsafe flew the MAVLink vehicle (released: \
                FollowMe did not land it).
                """,
            version: FollowMeVersion.current, subcommands: subcommands)
    }
}

extension AsyncParsableCommand {
    /// The `main` of `followme` and `followme-tools`: like ArgumentParser's default, except that
    /// usage errors exit 2 (not 64): the exit-code contract is 0 success, 1 runtime failure,
    /// 2 bad configuration or usage.
    package static func runExitingTwoOnUsageErrors() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
