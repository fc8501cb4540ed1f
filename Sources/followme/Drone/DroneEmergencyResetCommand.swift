import FlightService
import ArgumentParser

/// `followme drone emergency-reset`: clear the drone's EMERGENCY state after a person inspected it.
///
/// Modules: FollowMeConfig (the config, through `DroneConnectionOptions`) and DroneLink (the link,
/// through `DroneSession`). The refusal to toggle REF bit 8 on a drone not in emergency (it would cut
/// the motors) is DroneLink's (`requestEmergencyToggle`); this command checks first to say why.
struct DroneEmergencyResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emergency-reset",
        abstract: "Clear the drone's EMERGENCY state (red LEDs) after inspecting it.",
        discussion: """
            Only when navdata shows EMERGENCY (state bit 31): REF bit 8 toggles, so on a healthy
            drone it would cut the motors. Exit 0 when bit 31 clears, 1 otherwise.
            """
    )

    @OptionGroup var options: DroneWaitOptions<DroneEmergencyResetCommand>

    func run() async throws {
        let timeout = options.timeout
        try await DroneSession.run(options.connection) { session, first in
            guard first.state.contains(.emergency) else {
                printError("""
                    followme drone emergency-reset: the drone is not in emergency (state bit 31 clear), so there is \
                    nothing to reset. Sending the emergency toggle (REF bit 8) now would cut the motors instead.
                    """)
                throw ExitCode(1)
            }
            do {
                try await session.link.requestEmergencyToggle()
            } catch {
                printError("followme drone emergency-reset: refused: \(error)")
                throw ExitCode(1)
            }
            let cleared = await session.wait(timeoutSeconds: timeout) {
                !($0.latest?.navdata.state.contains(.emergency) ?? true)
            }
            try confirmOrExit(
                cleared, confirmed: "emergency cleared (\(session.stateDescription))",
                failure: "followme drone emergency-reset: emergency still reported after \(timeout) s")
        }
    }
}

extension DroneEmergencyResetCommand: DroneWaitHelp {
    static let timeoutHelp = "Seconds to wait for the emergency bit to clear."
    static let defaultTimeoutSeconds = 5.0
}
