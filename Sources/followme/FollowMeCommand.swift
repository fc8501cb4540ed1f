import ArgumentParser
import FlightRecords
import Foundation

/// `followme`: make a drone — a Parrot AR.Drone 2.0, or a PX4 or ArduPilot multicopter over MAVLink — follow
/// a person carrying a GPS.
///
/// Thin by design (docs/style.md habit 2): each subcommand lives in its own file, parses, loads the
/// config and hands over to a library module.
@main
struct FollowMeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.followme(
        abstract: "Make a drone follow a person carrying a GPS: a Parrot AR.Drone 2.0, or a PX4 or ArduPilot multicopter over MAVLink.",
        subcommands: [
            RunCommand.self,
            WatchCommand.self,
            OperatorCommandLine<LandKind>.self,
            OperatorCommandLine<HoldKind>.self,
            OperatorCommandLine<ResumeKind>.self,
            OperatorCommandLine<StartKind>.self,
            ModeCommandLine.self,
            GPSCommand.self,
            ConfigCommand.self,
            PinCommand.self,
            PairCommand.self,
            ToolStub<SimTool>.self,
            DroneGroupCommand.self,
            ToolStub<BenchTool>.self,
            LogCommand.self,
            ReportCommand.self,
            ToolStub<FuzzTool>.self,
            VideoCommand.self,
        ]
    )

    /// Like ArgumentParser's default, except that usage errors exit 2 (not 64): the exit-code
    /// contract is 0 success, 1 runtime failure, 2 bad configuration or usage.
    static func main() async {
        ToolForwarding.forwardIfTool(CommandLine.arguments)
        await runExitingTwoOnUsageErrors()
    }
}
