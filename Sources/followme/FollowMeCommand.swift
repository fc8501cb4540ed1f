import ArgumentParser

/// `followme`: make a Parrot AR.Drone 2.0 follow a person carrying a GPS.
///
/// Thin by design (STYLE.md habit 2): each subcommand lives in its own file, parses, loads the
/// config and hands over to a library module.
@main
struct FollowMeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followme",
        abstract: "Make a Parrot AR.Drone 2.0 follow a person carrying a GPS.",
        discussion: """
            Exit codes: 0 success; 1 runtime failure; 2 bad configuration or usage.
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self,
            GPSCommand.self,
            ConfigCommand.self,
            SimCommand.self,
            DroneCommand.self,
        ]
    )
}
