import Logging
import ServiceLifecycle

extension SimulatorServer {
    /// Runs a simulator until SIGINT or SIGTERM, then stops it (what `followme sim` does).
    ///
    /// `onStarted` gets the bound ports once every socket is listening; `onStatus` gets a snapshot
    /// (and the previous one, for rates) every `statusIntervalSeconds`. Returns normally after a
    /// signal; throws only if the server could not start.
    public static func runUntilSignalled(
        configuration: SimulatorConfiguration,
        logger: Logger,
        statusIntervalSeconds: Double = 1,
        onStarted: @escaping @Sendable (SimulatorPorts) -> Void,
        onStatus: @escaping @Sendable (SimulatorSnapshot, SimulatorSnapshot?) -> Void
    ) async throws {
        let server = try await SimulatorServer.start(configuration: configuration, logger: logger)
        onStarted(server.ports)
        let reporter = SimulatorStatusService(server: server, intervalSeconds: statusIntervalSeconds, onStatus: onStatus)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [reporter], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// Reports the simulator's status periodically until graceful shutdown.
struct SimulatorStatusService: Service {
    let server: SimulatorServer
    let intervalSeconds: Double
    let onStatus: @Sendable (SimulatorSnapshot, SimulatorSnapshot?) -> Void

    func run() async throws {
        let interval = Duration.milliseconds(Int64((max(intervalSeconds, 0.05) * 1000).rounded()))
        do {
            try await cancelWhenGracefulShutdown {
                var previous: SimulatorSnapshot?
                while true {
                    try await Task.sleep(for: interval)
                    let now = try await server.snapshot()
                    onStatus(now, previous)
                    previous = now
                }
            }
        } catch is CancellationError {
            // Graceful shutdown: the loop was cancelled on purpose.
        }
    }
}
