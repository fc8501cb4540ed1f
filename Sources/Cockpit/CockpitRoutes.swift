import FlightRecords
import FlightService
import FollowCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The cockpit's four routes: `GET /` the page, `GET /status` the latest status, `GET /events` the
/// status as Server-Sent Events, `POST /command` HOLD/RESUME/LAND/START and a change of follow mode (docs/commands.md §4.8 lists
/// every answer). Reads the board and submits to the inbox; nothing here waits for the flight but a
/// command's reply, which is bounded by `replyTimeout`.
struct CockpitRoutes: Sendable {
    let settings: CockpitSettings
    let board: FlightStatusBoard
    let commands: OperatorCommandInbox
    let logger: Logger
    let clock: @Sendable () -> MonotonicTime
    /// Where the reply timeouts are scheduled: the server's own event loop.
    let timers: any EventLoop
    let gate: CockpitCommandGate
    let streams: StreamSlots

    /// The largest `/command` body, bytes: our choice; `{"command":"resume","code":"…"}` is under 60,
    /// and a 128-byte file code fits many times over.
    static let maxBodyBytes = 1024
    /// How long a command waits for the flight's reply: our choice; the flight loop takes a command
    /// within one tick (33 ms), so 2 s only ever passes when the loop is stuck — then the page says so.
    static let replyTimeout = TimeAmount.seconds(2)
    /// How often a stream looks at the board: the status socket's 4 Hz (the board changes every 0.25 s).
    static let streamInterval = Duration.milliseconds(250)
    /// A comment line on an otherwise quiet stream (no flight, or a stalled one), so that proxies and
    /// the phone keep the connection, and the page can tell a live server from a dead one: our choice.
    static let heartbeatSeconds = 10.0
    /// A connection with no request in flight this long is closed: our choice; a phone's page keeps
    /// its stream open, and a client that connects and says nothing must not hold a slot.
    static let idleTimeout = TimeAmount.seconds(30)

    init(settings: CockpitSettings, board: FlightStatusBoard, commands: OperatorCommandInbox, logger: Logger,
         clock: @escaping @Sendable () -> MonotonicTime, timers: any EventLoop) {
        (self.settings, self.board, self.commands, self.logger, self.clock) = (settings, board, commands, logger, clock)
        self.timers = timers
        gate = CockpitCommandGate(code: settings.code, landWithoutCode: settings.landWithoutCode)
        streams = StreamSlots(limit: settings.maxStreams)
    }

    func router() -> Router<CockpitRequestContext> {
        let router = Router(context: CockpitRequestContext.self)
        router.add(middleware: CockpitHeaders())
        router.add(middleware: CockpitHostCheck())
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: CockpitPage.html(status: board.current.status))))
        }
        router.get("/status") { _, _ in
            guard let status = board.current.status else {
                return Self.error(.serviceUnavailable, "no status yet: the flight has not started its loop")
            }
            return Self.json(.ok, status.jsonLine())
        }
        router.get("/events") { _, context in events(client: context.client) }
        router.post("/command") { request, context in await command(request, client: context.client) }
        return router
    }

    // MARK: Commands

    private func command(_ request: Request, client: String) async -> Response {
        var command = ""
        do {
            // Every request takes a token; over the rate, only a LAND the gate lets through still goes
            // (a person pressing LAND again and again is never refused) — a wrong code is refused as
            // over the rate too, so guessing the code stays as slow as commanding.
            var overRate: CockpitCommandGate.Refusal?
            do { try gate.admit(client: client, now: clock()) } catch { overRate = error }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.maxBodyBytes {
                throw overRate ?? CommandFailure.tooLarge
            }
            let bytes: ByteBuffer
            do { bytes = try await request.body.collect(upTo: Self.maxBodyBytes) } catch { throw overRate ?? CommandFailure.tooLarge }
            let taken: OperatorRequest
            do {
                taken = try gate.command(body: bytes.readableBytesView, contentType: request.headers[.contentType])
            } catch {
                throw overRate ?? error
            }
            if let overRate, taken != .command(.land) { throw overRate }
            command = taken.name
            let source = "web \(client)"
            guard let reply = await submit(taken, source: source) else {
                logger.error("cockpit: the flight did not answer a command", metadata: ["command": "\(command)", "client": "\(client)"])
                return Self.error(.gatewayTimeout, "the flight loop did not answer within 2 s")
            }
            logger.notice("cockpit command", metadata: ["command": "\(command)", "client": "\(client)", "outcome": "\(reply.outcome)"])
            return Self.json(reply.outcome == "no-flight" ? .serviceUnavailable : .ok, reply.jsonLine())
        } catch CommandFailure.tooLarge {
            return Self.error(.contentTooLarge, "the body is over \(Self.maxBodyBytes) bytes")
        } catch CockpitCommandGate.Refusal.rateLimited(let message) {
            return Self.error(.tooManyRequests, message, headers: [.retryAfter: "1"])
        } catch CockpitCommandGate.Refusal.notJSON {
            return Self.error(.unsupportedMediaType, "send the command as Content-Type: application/json")
        } catch CockpitCommandGate.Refusal.badRequest(let message) {
            return Self.error(.badRequest, message)
        } catch CockpitCommandGate.Refusal.unauthorized(let refused) {
            logger.warning("cockpit: command refused, wrong or missing pairing code",
                           metadata: ["command": "\(refused)", "client": "\(client)"])
            return Self.error(.unauthorized, "wrong or missing pairing code: enter the code `followme run` printed (the journal has it)")
        } catch {
            return Self.error(.badRequest, "\(error)")
        }
    }

    /// What may go wrong with a command besides the gate's refusals.
    private enum CommandFailure: Error { case tooLarge }

    /// Hands the request to the flight and waits for its reply, at most `replyTimeout` (nil then).
    private func submit(_ command: OperatorRequest, source: String) async -> OperatorCommandReply? {
        await withCheckedContinuation { continuation in
            let waiter = ReplyWaiter(continuation)
            let timeout = timers.scheduleTask(in: Self.replyTimeout) { waiter.resume(nil) }
            commands.submit(command, source: source) { reply in
                timeout.cancel()
                waiter.resume(reply)
            }
        }
    }

    // MARK: The stream

    private func events(client: String) -> Response {
        guard let slot = streams.take() else {
            logger.warning("cockpit: live stream refused, too many open", metadata: ["client": "\(client)", "limit": "\(streams.limit)"])
            return Self.error(.serviceUnavailable,
                              "\(streams.limit) live views are open already: close a cockpit tab or another phone's page, then reload")
        }
        let (board, clock) = (self.board, ContinuousClock())
        let body = ResponseBody { writer in
            // The slot is released when this closure is gone: written to the end, or never run.
            _ = slot
            var sentGeneration = -1
            var lastWrite = clock.now
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            while !Task.isCancelled {
                let (status, generation) = board.current
                if let status, generation != sentGeneration {
                    sentGeneration = generation
                    try await writer.write(ByteBuffer(string: "data: \(status.jsonLine())\n\n"))
                    lastWrite = clock.now
                } else if clock.now - lastWrite >= .seconds(Self.heartbeatSeconds) {
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    lastWrite = clock.now
                }
                try await Task.sleep(for: Self.streamInterval)
            }
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }

    // MARK: Responses

    static func json(_ status: HTTPResponse.Status, _ line: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
    }

    /// `{"error":"…"}` with `status`: what a refusal says, in words a person can act on.
    static func error(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        let encoded = (try? JSONEncoder().encode(["error": message])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var response = json(status, encoded)
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// The continuation of one command waiting for the flight's reply, resumed once: by the reply or by
/// the timeout, whichever comes first (the other finds it gone).
private final class ReplyWaiter: Sendable {
    private let continuation: Mutex<CheckedContinuation<OperatorCommandReply?, Never>?>

    init(_ continuation: CheckedContinuation<OperatorCommandReply?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ reply: OperatorCommandReply?) {
        continuation.withLock { waiting in
            waiting?.resume(returning: reply)
            waiting = nil
        }
    }
}
