import ArgumentParser

/// `followme drone …`: bench tools that talk to the AR.Drone 2.0 directly through `DroneLink` (and,
/// with `[drone] protocol = "mavlink"`, `status`/`takeoff`/`land` to a PX4 or ArduPilot vehicle
/// through `MAVLinkLink`, `MAVLinkDroneSession`).
///
/// The group only lists its subcommands, one file each beside this one: `status`
/// (DroneStatusCommand), `takeoff` (DroneTakeoffCommand), `land` (DroneLandCommand),
/// `emergency-reset` (DroneEmergencyResetCommand) and `decode` (DroneDecodeCommand). The four that
/// talk to a drone share `DroneConnectionOptions` (config + address overrides → a
/// `DroneLinkConfiguration`) and `DroneSession` (a running `DroneLink` and what its navdata said last).
struct DroneGroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drone",
        abstract: "Talk to the drone directly (AR.Drone 2.0 or MAVLink vehicle): status, take-off, land, emergency reset, decode navdata.",
        discussion: """
            The address and ports come from [drone] in --config (overridable with --address, --at-port, \
            --navdata-port); the flight limits written at start come from [drone] and [follow].

            With [drone] protocol = "mavlink", status, takeoff and land talk to the PX4 or ArduPilot \
            vehicle at [mavlink] address:port instead (--address overrides it), confirmed by its \
            telemetry (landed state IN_AIR, then ON_GROUND and disarmed); emergency-reset, --at-port, \
            --navdata-port and --flat-trim are AR.Drone-only and refused (exit 2).

            Never run these while `followme` itself flies the drone: two AT senders with two sequence \
            counters confuse it (node-ar-drone issue #36).

            Exit codes: 0 confirmed by navdata; 1 not confirmed / refused / no navdata; 2 bad usage, \
            configuration or file.
            """,
        subcommands: [
            DroneStatusCommand.self, DroneTakeoffCommand.self, DroneLandCommand.self,
            DroneEmergencyResetCommand.self, DroneDecodeCommand.self,
        ]
    )
}
