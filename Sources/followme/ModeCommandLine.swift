import ArgumentParser
import FollowCore

/// `followme mode leash|angle|orbit [--angle-deg N] [--direction clockwise|counterclockwise]`: change
/// where round the person the running flight follows (docs/commands.md §4.7), through its status socket, as
/// `followme land` does (the same exit codes). The drone turns to the new place round the circle at
/// most at `[follow] orbit_speed_mps`, never across it.
struct ModeCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Change the running flight's follow mode (leash, angle, orbit), its angle or its orbit direction.",
        discussion: """
            Sent to the running flight through its status socket (--socket, else --config's [status] \
            socket, else \(StatusSocketOptions.installedSocketPath)); taken from preflight to holding, \
            refused from landing on, in an emergency and when the vehicle is released. The drone goes \
            round the person to the new place, never across. Logged in the flight log with its source \
            (cli and your uid) and shown on every view (the MODE row). --angle-deg is [follow] angle_deg \
            (0 in front of the person, 90 on their right, 180 behind, -90 on their left); --direction is \
            [follow] orbit_direction; either stays as it was when not given. Exit codes: 0 taken or \
            already so; 1 refused (the reply says why), no flight running, or no answer within \
            --timeout; 2 bad usage.
            """)

    @Argument(help: "leash, angle or orbit.")
    var mode: String

    @Option(name: .customLong("angle-deg"), help: "The angle from the person's direction of travel, degrees (-180…180).")
    var angleDegrees: Double?

    @Option(name: .long, help: "The orbit's direction seen from above: clockwise or counterclockwise.")
    var direction: String?

    @OptionGroup var target: StatusSocketOptions

    @Flag(name: .long, help: "Print the flight's reply as one JSON line.")
    var json = false

    @Option(name: .long, help: "Give up after this many seconds without a reply.")
    var timeout: Double = 5

    /// The change, validated as the flight validates it.
    func change() throws -> FollowModeChange {
        do throws(FollowModeChange.Invalid) {
            return try FollowModeChange(modeName: mode, angleDegrees: angleDegrees, directionName: direction)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600] s") }
        _ = try change()
    }

    func run() throws {
        try OperatorRequestExchange(target: target, json: json, timeout: timeout).run(.followMode(change()))
    }
}
