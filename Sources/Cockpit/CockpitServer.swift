import FlightService
import FollowCore
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What the cockpit serves, where, and to whom: built by `followme run` from `[web]`, by tests directly.
public struct CockpitSettings: Sendable {
    /// The address to listen on (`0.0.0.0`, `127.0.0.1`, `::`), and its TCP port (0 = any free port: tests).
    public var host: String
    public var port: Int
    /// The unit's secret: `POST /pair` trades it for a token; a command may carry it instead of a token.
    public var code: PairingCode
    /// `[web] land_without_code`: LAND passes without the code.
    public var landWithoutCode = false
    /// Live status streams (`GET /events`) served at once; one more gets 503 unless a paired phone
    /// asks (it takes the oldest unpaired one's place). Our choice: a field holds a few phones; 32
    /// leaves room for reloads and tabs while bounding the server's work.
    public var maxStreams = 32
    /// Live status streams one address may hold (unpaired): our choice, a phone's page and a few tabs.
    public var maxStreamsPerClient = 4
    /// The file `code` came from (`[web] code_file`), watched for a new secret (`followme pair --new`),
    /// which voids every token; nil for a code generated at start.
    public var codeFile: String?
    /// Where paired phones' tokens are kept across restarts (`$STATE_DIRECTORY/cockpit-tokens` under
    /// systemd); nil: for this run only. Only used with `codeFile`.
    public var tokenFile: String?
    /// The recordings' directory (`[video] directory`), whose last finished recording a paired phone may
    /// download as an MP4 (`GET /video/last`); nil: the cockpit offers no video.
    public var videoDirectory: String?

    public init(host: String, port: Int, code: PairingCode, landWithoutCode: Bool = false) {
        (self.host, self.port, self.code, self.landWithoutCode) = (host, port, code, landWithoutCode)
    }
}

/// Why the cockpit could not start: the flight goes on without it (logged), as without a status socket.
public enum CockpitError: Error, CustomStringConvertible {
    case cannotListen(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }
}

/// The phone cockpit: an HTTP server (Hummingbird) whose sockets run on its own one-thread event loop
/// group — never the shared group the 30 Hz flight loop runs on — and whose handlers (Swift tasks on
/// the cooperative pool) only read the `FlightStatusBoard` and submit to the `OperatorCommandInbox`,
/// so no client can slow the flight (docs/commands.md §4.8).
public final class CockpitServer: Sendable {
    /// The TCP port it listens on (the one asked for, or the one the system chose for port 0).
    public let port: Int
    /// Its own event loop group (one thread): the server's sockets and timers run there only.
    let group: MultiThreadedEventLoopGroup
    private let serving: Task<Void, Never>
    private let stopping: Atomic<Bool>

    private init(port: Int, group: MultiThreadedEventLoopGroup, serving: Task<Void, Never>) {
        (self.port, self.group, self.serving) = (port, group, serving)
        stopping = Atomic(false)
    }

    /// Starts serving; returns once the socket listens. `clock` is the flight's monotonic clock
    /// (`SystemClock.now`), for the command rate limit.
    public static func start(settings: CockpitSettings, board: FlightStatusBoard, commands: OperatorCommandInbox,
                             logger: Logger, clock: @escaping @Sendable () -> MonotonicTime) async throws(CockpitError) -> CockpitServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let routes = CockpitRoutes(settings: settings, board: board, commands: commands, logger: logger, clock: clock,
                                   timers: group.next())
        let (bound, boundContinuation) = AsyncStream<Int>.makeStream()
        let failure = Mutex<String?>(nil)
        let app = Application(
            router: routes.router(),
            server: .http1(configuration: .init(idleTimeout: CockpitRoutes.idleTimeout)),
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: nil, backlog: 256, reuseAddress: true,
                // No connection cap: Hummingbird's `MaximumAvailableConnections` left accepted-late
                // connections unanswered until some other one closed (CockpitServerLoadTests: 36 of 300
                // clients stalled), and a stalled LAND is worse than 1000 idle sockets, which the idle
                // timeout closes anyway. The streams, the only long requests, are bounded (`maxStreams`).
                availableConnectionsDelegate: nil),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? settings.port)
                boundContinuation.finish()
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger.cockpitServerLogger
        )
        let serving = Task {
            do { try await app.run() } catch { failure.withLock { $0 = "\(error)" } }
            boundContinuation.finish()
        }
        var iterator = bound.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await serving.value
            try? await group.shutdownGracefully()
            throw .cannotListen(host: settings.host, port: settings.port, reason: failure.withLock { $0 } ?? "the server stopped")
        }
        return CockpitServer(port: port, group: group, serving: serving)
    }

    /// Stops serving (open streams end, the socket closes) without waiting: safe in a `defer` of an
    /// async function. `waitUntilStopped()` waits for it.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        serving.cancel()
        let (serving, group) = (self.serving, self.group)
        Task {
            await serving.value
            try? await group.shutdownGracefully()
        }
    }

    /// Stops serving and waits until the server's task has ended and its thread is gone.
    public func waitUntilStopped() async {
        stop()
        await serving.value
        try? await group.shutdownGracefully()
    }
}

extension Logger {
    /// The server's own messages (connections, errors a client caused) at most at warning level would
    /// be noise in the journal at info; the cockpit's decisions are logged by `CockpitRoutes`.
    var cockpitServerLogger: Logger {
        var logger = self
        logger.logLevel = max(logger.logLevel, .warning)
        return logger
    }
}
