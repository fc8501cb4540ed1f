import FlightRecords
import FlightService
import FollowCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The cockpit's routes: `GET /` the page, `GET /status` the latest status, `GET /events` the
/// status as Server-Sent Events, `POST /pair` the secret for a token, `GET /session` whether a token
/// is paired, `POST /command` HOLD/RESUME/LAND/START and a change of follow mode, and for a paired
/// phone `GET /video`, `POST /video/ticket` and `GET /video/last`, the last flight's MP4 (docs/commands.md
/// §4.8 lists every answer). Reads the board and submits to the inbox; nothing here waits for the flight but a
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
    let authority: CockpitAuthority
    let streams: StreamSlots
    let lockoutRefusals: LockoutRefusals
    let missingCodeRefusals: LockoutRefusals
    let downloadTickets: DownloadTickets
    let muxing: MuxSlot

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
        gate = CockpitCommandGate()
        authority = CockpitAuthority(code: settings.code, codeFile: settings.codeFile, tokenFile: settings.tokenFile)
        streams = StreamSlots(limit: settings.maxStreams, maxPerClient: settings.maxStreamsPerClient)
        lockoutRefusals = LockoutRefusals()
        missingCodeRefusals = LockoutRefusals()
        downloadTickets = DownloadTickets()
        muxing = MuxSlot()
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
        router.get("/events") { request, context in events(request, client: context.client) }
        router.post("/command") { request, context in await command(request, client: context.client) }
        router.post("/pair") { request, context in await pair(request, client: context.client) }
        router.get("/video") { request, _ in lastVideo(request) }
        router.post("/video/ticket") { request, _ in videoTicket(request) }
        router.get("/video/last") { request, context in await downloadLastVideo(request, context: context) }
        router.get("/session") { request, _ in
            Self.json(.ok, #"{"paired":\#(authority.isPaired(request.headers[.init(Self.tokenHeaderName)!], now: clock()))}"#)
        }
        return router
    }

    // MARK: Commands

    private func command(_ request: Request, client: String) async -> Response {
        var command = ""
        do {
            let now = clock()
            let token = request.headers[.init(Self.tokenHeaderName)!]
            let paired = authority.isPaired(token, now: now)
            // Every request takes a token from its sender's bucket (a paired phone's own, apart from the
            // addresses'); over the rate, only a LAND a paired phone or `land_without_code` sends still
            // goes: a LAND carrying the secret is checked like any other, or it would be an oracle.
            var overRate: CockpitCommandGate.Refusal?
            let sender = paired ? "paired:" + (token ?? "").prefix(16) : client
            do { try gate.admit(client: sender, now: now) } catch { overRate = error }
            let bytes = try await commandBody(request, overRate: overRate)
            let taken: OperatorRequest, code: String?
            do { (taken, code) = try gate.parse(body: bytes.readableBytesView, contentType: request.headers[.contentType]) } catch {
                throw overRate ?? error
            }
            let freeLand = taken == .command(.land) && (paired || settings.landWithoutCode)
            if let overRate, !freeLand { throw overRate }
            if !paired && !freeLand {
                if let failure = checkCode(code, hadToken: token != nil, command: taken.name, client: client, now: now) { return failure }
            }
            command = taken.name
            guard let reply = await submit(taken, source: "web \(client)") else {
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
        } catch {
            return Self.error(.badRequest, "\(error)")
        }
    }

    /// The body of a command, at most `maxBodyBytes`; over the rate, a body too large is a 429 (the
    /// rate answers first).
    private func commandBody(_ request: Request, overRate: CockpitCommandGate.Refusal?) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.maxBodyBytes {
            throw overRate ?? CommandFailure.tooLarge
        }
        do { return try await request.body.collect(upTo: Self.maxBodyBytes) } catch { throw overRate ?? CommandFailure.tooLarge }
    }

    /// Checks a command's secret (`"code"`) for a sender without a valid token: nil when it may go,
    /// else the refusal (401 wrong or missing, 429 during the lockout). A missing code is not a guess.
    private func checkCode(_ code: String?, hadToken: Bool, command: String, client: String, now: MonotonicTime) -> Response? {
        guard let code else {
            // Not a guess, so not limited unit-wide: summed every 10 s at most, or many addresses flood the journal.
            if let (count, last) = missingCodeRefusals.note(client: client, now: now) {
                logger.warning("cockpit: command refused, wrong or missing pairing code",
                               metadata: ["command": "\(command)", "client": "\(last)", "refused": "\(count)"])
            }
            return Self.error(.unauthorized, hadToken
                ? "this phone is not paired any more (the unit's pairing secret changed): pair again"
                : "wrong or missing pairing code: pair this phone (sudo followme pair shows the code and its QR code)")
        }
        switch authority.verify(code: code, client: client, now: now) {
        case .accepted: return nil
        case .wrong(let failures, let lockout):
            logWrongSecret(client: client, failures: failures, lockout: lockout, what: "command \(command)")
            return Self.error(.unauthorized, "wrong or missing pairing code: pair this phone (sudo followme pair shows it)")
        case .lockedOut(let seconds):
            return lockedOut(seconds, client: client)
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

    private func events(_ request: Request, client: String) -> Response {
        let token = Self.cookie(Self.tokenCookie, in: request.headers[values: .cookie])
        let paired = authority.isPaired(token, now: clock())
        let slot: StreamSlots.Slot
        switch streams.take(client: client, paired: paired, now: clock()) {
        case .success(let taken): slot = taken
        case .failure(let refusal):
            logger.warning("cockpit: live stream refused", metadata: ["client": "\(client)", "why": "\(refusal)"])
            let message = switch refusal {
            case .full(let limit): "\(limit) live views are open already: close a cockpit tab or another phone's page, "
                + "or pair this phone (a paired phone always gets one), then reload"
            case .tooManyFromClient(let limit): "this address has \(limit) live views open already: close a tab, then reload"
            }
            return Self.error(.serviceUnavailable, message)
        }
        let (board, clock, authority, streams) = (self.board, self.clock, self.authority, self.streams)
        let monotonic = ContinuousClock()
        let body = ResponseBody { writer in
            // The slot is released when this closure is gone: written to the end, or never run.
            var sentGeneration = -1
            // A paired phone is told of every wrong pairing code from now on, and of the last one if it is recent.
            var sentAlert = authority.alert.map { clock().seconds(since: .zero) - $0.atSeconds < Self.alertReplaySeconds ? $0.sequence - 1 : $0.sequence } ?? 0
            var lastWrite = monotonic.now
            var looks = 0
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            while !Task.isCancelled, !streams.mustEnd(slot, now: clock()) {
                let (status, generation) = board.current
                if let status, generation != sentGeneration {
                    sentGeneration = generation
                    try await writer.write(ByteBuffer(string: "data: \(status.jsonLine())\n\n"))
                    lastWrite = monotonic.now
                } else if monotonic.now - lastWrite >= .seconds(Self.heartbeatSeconds) {
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    lastWrite = monotonic.now
                }
                if paired, let alert = authority.alert, alert.sequence > sentAlert {
                    sentAlert = alert.sequence
                    try await writer.write(ByteBuffer(string: "event: security\ndata: \(Self.alertJSON(alert))\n\n"))
                }
                looks += 1
                // A rotated secret voids the token: the stream ends, and the page reconnects unpaired.
                if paired, looks % 4 == 0, !authority.isPaired(token, now: clock()) { break }
                try await Task.sleep(for: Self.streamInterval)
            }
            withExtendedLifetime(slot) {}
            // Ended by the server (evicted, past its lifetime, unpaired by a new secret): the response
            // ends, so the page's EventSource reconnects.
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }

    // MARK: Responses

    static func json(_ status: HTTPResponse.Status, _ line: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
    }

    /// `{"error":"…"}` with `status`: what a refusal says, in words a person can act on.
    static func error(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:], retryAfter: Int? = nil) -> Response {
        var fields: [String: Any] = ["error": message]
        if let retryAfter { fields["retry_after_s"] = retryAfter }
        let encoded = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
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
