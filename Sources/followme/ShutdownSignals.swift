import FlightService
import Logging
import ServiceLifecycle
import Synchronization

/// SIGTERM and SIGINT in the CLI: always swift-service-lifecycle's graceful shutdown.
///
/// `followme run` (FlightService's `ServiceFactory`) and `followme sim`
/// (`SimulatorServer.runUntilSignalled`) run a `ServiceGroup` with SIGTERM/SIGINT as graceful-shutdown
/// signals; the `followme drone` commands that fly (`takeoff`, `land`) run their work through
/// `run(name:_:)`, which does the same, so there is one signal path ("SIGTERM means land").
enum ShutdownSignals {
    /// Runs `body` as the only service of a `ServiceGroup` whose graceful-shutdown signals are SIGTERM
    /// and SIGINT, and returns what it returns (or throws what it throws).
    ///
    /// While `body` runs a signal does not end the process: it prints "`name`: signal received
    /// (SIGTERM/SIGINT)" to stderr and makes `requested` true; `body` decides what that means (take-off
    /// lands at once, a landing goes on). The group has no shutdown deadline: `body` bounds itself.
    static func run<T: Sendable>(name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let service = BodyService(name: name, body: body)
        var logger = Logger(label: "followme.signals") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        guard let result = service.result.withLock({ $0 }) else { throw CancellationError() }
        return result
    }

    /// Whether SIGTERM or SIGINT arrived during `run(name:_:)` (inside its `body`; false elsewhere).
    static var requested: Bool { Task.isShuttingDownGracefully }
}

/// `ShutdownSignals.run`'s body as a `Service`, keeping its result for after the group ends.
private final class BodyService<T: Sendable>: Service {
    let name: String
    let body: @Sendable () async throws -> T
    let result = Mutex<T?>(nil)

    init(name: String, body: @escaping @Sendable () async throws -> T) {
        self.name = name
        self.body = body
    }

    func run() async throws {
        let name = name
        let value = try await withGracefulShutdownHandler {
            try await body()
        } onGracefulShutdown: {
            printError("\(name): signal received (SIGTERM/SIGINT)")
        }
        result.withLock { $0 = value }
    }
}
