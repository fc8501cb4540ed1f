import ARDrone
import ArgumentParser
import Links
import FlightService
import MAVLink

/// `--config` plus bench overrides of the drone's address and ports, shared by every `followme drone`
/// subcommand that talks to a drone.
struct DroneConnectionOptions: ParsableArguments {
    @OptionGroup var configOption: ConfigOption

    @Option(name: .long, help: "Drone address (overrides [drone] address; [mavlink] address with protocol mavlink).")
    var address: String?

    @Option(name: .customLong("at-port"), help: "Drone AT command UDP port (overrides [drone] at_port).")
    var atPort: Int?

    @Option(name: .customLong("navdata-port"), help: "Drone navdata UDP port (overrides [drone] navdata_port).")
    var navdataPort: Int?

    @Option(name: .customLong("connect-timeout"), help: "Seconds to wait for the first navdata.")
    var connectTimeout: Double = 5

    func validate() throws {
        guard connectTimeout > 0 else { throw ValidationError("--connect-timeout must be positive") }
    }

    /// The drone `[drone] protocol` names, with the overrides (exit 2 on any problem).
    func target() throws -> DroneTarget {
        let config = loadConfigurationOrExit(path: configOption.config)
        guard config.drone.linkProtocol == .mavlink else { return .ardrone(try linkConfiguration(config)) }
        guard atPort == nil, navdataPort == nil else {
            printError("followme drone: --at-port and --navdata-port are AR.Drone ports; [drone] protocol is \"mavlink\"")
            throw ExitCode(2)
        }
        do {
            // The one config → link mapping `followme run` uses (FlightConfiguration).
            guard let link = try FlightConfiguration(config).link as? MAVLinkLinkConfiguration else { throw ExitCode(2) }
            return .mavlink(MAVLinkBench(link: try address.map { try link.with(address: $0) } ?? link,
                                         minBatteryPercent: Double(config.failsafe.minBatteryPercent)))
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(2)
        }
    }

    /// The validated config file plus overrides, as an AR.Drone link configuration (exit 2 on any
    /// problem, and for a MAVLink config: the AR.Drone-only commands never talk to an autopilot).
    func linkConfiguration() throws -> DroneLinkConfiguration {
        let config = loadConfigurationOrExit(path: configOption.config)
        guard config.drone.linkProtocol == .ardrone else {
            printError("followme drone: this command is for the AR.Drone 2.0 only; [drone] protocol is \"mavlink\"")
            throw ExitCode(2)
        }
        return try linkConfiguration(config)
    }

    private func linkConfiguration(_ config: FollowMeConfiguration) throws -> DroneLinkConfiguration {
        do {
            let limits = try FlightLimits(
                outdoor: config.drone.outdoor,
                // etc/followme.toml: outdoor = use the outdoor limit set *and* fly without the indoor hull.
                flightWithoutShell: config.drone.outdoor,
                eulerAngleMaxRadians: config.follow.eulerAngleMaxRadians,
                controlVzMaxMillimetersPerSecond: config.follow.maxClimbMillimetersPerSecond,
                controlYawRadiansPerSecond: config.follow.maxYawRateRadiansPerSecond,
                altitudeMaxMillimeters: config.drone.altitudeMaxMillimeters)
            return try DroneLinkConfiguration(
                address: address ?? config.drone.address,
                atPort: atPort ?? config.drone.atPort,
                navdataPort: navdataPort ?? config.drone.navdataPort,
                limits: limits)
        } catch {
            printError("followme drone: \(error)")
            throw ExitCode(2)
        }
    }
}

/// The drone a `followme drone` command talks to: `[drone] protocol`'s link and its settings.
enum DroneTarget {
    case ardrone(DroneLinkConfiguration)
    case mavlink(MAVLinkBench)
}

/// A PX4 or ArduPilot vehicle at the bench: the link's settings (`[mavlink]`, `--address` on top)
/// and the battery below which `takeoff` refuses (`[failsafe] min_battery_pct`, as `followme run`).
struct MAVLinkBench: Sendable {
    let link: MAVLinkLinkConfiguration
    let minBatteryPercent: Double
}

extension MAVLinkLinkConfiguration {
    /// This configuration sent to `address` instead (timing at the link's defaults, as the config file gives it).
    func with(address: String) throws -> MAVLinkLinkConfiguration {
        try MAVLinkLinkConfiguration(
            address: address, port: port, localPort: localPort, systemID: Int(systemID), componentID: Int(componentID),
            targetSystem: Int(targetSystem), autopilot: autopilot, positionSource: positionSource,
            setpoints: setpoints, takeoffAltitudeMeters: takeoffAltitudeMeters)
    }
}

/// What a drone command that waits for navdata to confirm something says about its `--timeout`.
protocol DroneWaitHelp {
    static var timeoutHelp: String { get }
    /// `--timeout`'s default, seconds.
    static var defaultTimeoutSeconds: Double { get }
}

/// `DroneConnectionOptions` plus `--timeout SECONDS` (positive), for `takeoff`, `land` and
/// `emergency-reset`; `Help` words the option and gives its default.
struct DroneWaitOptions<Help: DroneWaitHelp>: ParsableArguments {
    @OptionGroup var connection: DroneConnectionOptions

    @Option(name: .long, help: ArgumentHelp(Help.timeoutHelp))
    var timeout: Double = Help.defaultTimeoutSeconds

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }
}
