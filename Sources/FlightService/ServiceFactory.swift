import FollowCore
import Logging
import ServiceLifecycle

/// Builds the service graph for `followme run` from a validated config (docs/style.md habit 2:
/// `main` parses, loads config and calls this one factory).
public enum ServiceFactory {
    /// The flight service and the group that runs it with SIGTERM/SIGINT as graceful shutdown.
    public static func buildFlight(
        config: FollowMeConfiguration, options: FlightServiceOptions, logger: Logger
    ) throws -> FlightApplication {
        let flight = try FlightConfiguration(config)
        let service = FlightService(flight: flight, options: options, logger: logger)
        var groupConfig = ServiceGroupConfiguration(
            services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // The landing bound is the service's own; give the group a little more before it cancels.
        groupConfig.maximumGracefulShutdownDuration = .seconds(Int64(options.landTimeoutSeconds) + 5)
        return FlightApplication(service: service, group: ServiceGroup(configuration: groupConfig))
    }
}

/// The built `followme run` graph.
public struct FlightApplication: Sendable {
    let service: FlightService
    let group: ServiceGroup

    /// Runs until the flight service returns (after a confirmed landing on SIGTERM/SIGINT).
    public func run() async throws -> FlightOutcome? {
        try await group.run()
        return service.outcome
    }

    /// After `run()`, with `FlightServiceOptions.latencyReport`: the fix-to-datagram latency.
    public var fixLatency: LatencyHistogram? { service.fixLatency }
}
