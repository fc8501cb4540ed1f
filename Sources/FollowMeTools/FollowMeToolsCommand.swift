import FlightService
import ArgumentParser
import FlightRecords
import Foundation

/// `followme-tools`: the development tools, `followme sim`, `followme bench` and `followme fuzz`,
/// in their own executable so a flight's binary carries only what flies (docs/architecture.md §1;
/// PERFORMANCE.md "Footprint"). Users keep calling them as `followme sim|bench|fuzz`: `followme` replaces itself
/// with this program (`ToolForwarding` in Sources/followme), which answers under the name `followme`.
@main
struct FollowMeToolsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.followme(
        abstract: "FollowMe's development tools: the simulated drone, the bench, the fuzzers.",
        subcommands: [SimCommand.self, BenchCommand.self, FuzzCommand.self]
    )

    /// As `followme`'s: usage errors exit 2 (not 64).
    static func main() async {
        await runExitingTwoOnUsageErrors()
    }
}
