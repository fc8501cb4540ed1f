import ArgumentParser
import DroneLink
import FollowMeConfig

/// `--config` plus bench overrides of the drone's address and ports, shared by every `followme drone`
/// subcommand that talks to a drone.
struct DroneConnectionOptions: ParsableArguments {
    @OptionGroup var configOption: ConfigOption

    @Option(name: .long, help: "Drone address (overrides [drone] address).")
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

    /// The validated config file plus overrides, as a link configuration (exit 2 on any problem).
    func linkConfiguration() throws -> DroneLinkConfiguration {
        let config = try loadConfigurationOrExit(path: configOption.config)
        do {
            let limits = try FlightLimits(
                outdoor: config.drone.outdoor,
                // etc/followme.toml: outdoor = use the outdoor limit set *and* fly without the indoor hull.
                flightWithoutShell: config.drone.outdoor,
                eulerAngleMaxRadians: config.follow.maxTiltRadians,
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
