import FlightRecords
import FollowCore
import Foundation
import Hummingbird
import NIOCore
import Synchronization

extension CockpitRoutes {
    /// How long a download ticket (`POST /video/ticket`) is good for, seconds: our choice; the page
    /// uses it at once, and an address left in a phone's history is dead by the time anyone looks.
    static let ticketLifetimeSeconds = 60.0
    /// The priority ffmpeg runs at when the cockpit makes an MP4 (`nice` 10): our choice, below the
    /// flight's and the server's threads.
    static let muxNiceness: Int32 = 10

    /// `GET /video` with a paired phone's token: the last finished recording, as
    /// `{"id":…,"mp4":true|false,"mp4_bytes":…,"raw_bytes":…,"seconds":…}`; 401 unpaired, 404 none.
    func lastVideo(_ request: Request) -> Response {
        guard isPaired(request) else { return Self.videoNotPaired() }
        switch findLast() {
        case .failure(let refusal): return refusal.response
        case .success(let last): return Self.json(.ok, Self.videoJSON(last))
        }
    }

    /// `POST /video/ticket` with a paired phone's token: `{"url":"/video/last?ticket=…","expires_s":60}`,
    /// a one-use address a browser can open as a download (a link cannot carry the token's header).
    func videoTicket(_ request: Request) -> Response {
        guard isPaired(request) else { return Self.videoNotPaired() }
        // What the download would refuse, said now, in JSON the page shows (a download cannot show it).
        switch findLast() {
        case .failure(let refusal): return refusal.response
        case .success(let last): if last.mp4Bytes == nil, let refusal = mp4Refusal(last) { return refusal.response }
        }
        let ticket = downloadTickets.issue(now: clock())
        return Self.json(.ok, #"{"expires_s":\#(Int(Self.ticketLifetimeSeconds)),"url":"/video/last?ticket=\#(ticket)"}"#)
    }

    /// `GET /video/last` with a paired phone's token, or `?ticket=` from `POST /video/ticket` (once,
    /// within its lifetime): the last finished recording's MP4, streamed from its file as
    /// `video/mp4`, `attachment`. Its missing MP4 is made first (ffmpeg `-c copy`, `nice` 10, one at a
    /// time) when the drone is on the ground (no status, preflight or landed); else 409 in any other
    /// state, 404 without ffmpeg, each naming `followme video mux ID`. 401 unpaired.
    func downloadLastVideo(_ request: Request, context: CockpitRequestContext) async -> Response {
        let byTicket = request.uri.queryParameters.get("ticket").map { downloadTickets.redeem($0, now: clock()) } ?? false
        guard byTicket || isPaired(request) else { return Self.videoNotPaired() }
        var last: LastRecording
        switch findLast() {
        case .failure(let refusal): return refusal.response
        case .success(let found): last = found
        }
        if last.mp4Bytes == nil {
            if let refusal = await makeMP4(last) { return refusal.response }
            last.mp4Bytes = 0
        }
        do {
            let body = try await FileIO().loadFile(path: last.mp4Path, context: context)
            logger.notice("cockpit: video download", metadata: ["client": "\(context.client)", "recording": "\(last.id)",
                                                              "bytes": "\(body.contentLength ?? 0)"])
            return Response(status: .ok, headers: [
                .contentType: "video/mp4", .contentDisposition: #"attachment; filename="followme-\#(last.id).mp4""#,
            ], body: body)
        } catch {
            return Self.error(.notFound, "the recording \(last.id) is gone (deleted for the [video] budget?)")
        }
    }

    // MARK: Parts

    /// A refusal of a video request, with its status code and words.
    struct VideoRefusal: Error {
        var status: HTTPResponse.Status
        var message: String
        var retryAfter: Int?

        var response: Response {
            CockpitRoutes.error(status, message, headers: retryAfter.map { [.retryAfter: "\($0)"] } ?? [:], retryAfter: retryAfter)
        }
    }

    private func isPaired(_ request: Request) -> Bool {
        authority.isPaired(request.headers[.init(Self.tokenHeaderName)!], now: clock())
    }

    static func videoNotPaired() -> Response {
        error(.unauthorized, "only a paired phone gets the video: pair this phone (sudo followme pair shows the code)")
    }

    private func findLast() -> Result<LastRecording, VideoRefusal> {
        guard let directory = settings.videoDirectory else {
            return .failure(VideoRefusal(status: .notFound, message: "this cockpit offers no video"))
        }
        guard let last = LastRecording.find(in: directory) else {
            return .failure(VideoRefusal(status: .notFound, message: "no finished recording in \(directory)"))
        }
        return .success(last)
    }

    /// Why `last`'s missing MP4 cannot be made now (nil: it can): no raw stream, the drone not on the
    /// ground, or no ffmpeg.
    private func mp4Refusal(_ last: LastRecording) -> VideoRefusal? {
        let command = "followme video mux \(last.id)"
        guard last.recording != nil else {
            return VideoRefusal(status: .notFound, message: "the recording \(last.id) has no MP4 and no raw stream")
        }
        if let state = board.current.status?.state, !Self.onGround(state: state) {
            return VideoRefusal(status: .conflict, message: "the drone is not on the ground (\(state)): the MP4 is made once it has landed "
                + "(or run \(command) on the ground unit)")
        }
        guard VideoMux.findFFmpeg() != nil else {
            return VideoRefusal(status: .notFound, message: "no ffmpeg on the ground unit to make the MP4: apt install ffmpeg, or run \(command)")
        }
        return nil
    }

    /// Makes `last`'s MP4 when it may; nil once it exists, else why not.
    private func makeMP4(_ last: LastRecording) async -> VideoRefusal? {
        if let refusal = mp4Refusal(last) { return refusal }
        let command = "followme video mux \(last.id)"
        guard let recording = last.recording, let ffmpeg = VideoMux.findFFmpeg() else {
            return VideoRefusal(status: .notFound, message: "no MP4 yet: run \(command) on the ground unit")
        }
        logger.notice("cockpit: making the MP4 a phone asked for", metadata: ["recording": "\(last.id)"])
        switch await muxing.run(recording, ffmpeg: ffmpeg, niceness: Self.muxNiceness) {
        case nil:
            return VideoRefusal(status: .serviceUnavailable, message: "an MP4 is being made: try again in a few seconds", retryAfter: 5)
        case .muxed?:
            return nil
        case .noFFmpeg?:
            return VideoRefusal(status: .notFound, message: "no ffmpeg on the ground unit: run \(command)")
        case .failed(let status, let message)?:
            logger.error("cockpit: ffmpeg could not make the MP4", metadata: ["recording": "\(last.id)", "status": "\(status)", "message": "\(message)"])
            return VideoRefusal(status: .internalServerError, message: "ffmpeg could not make the MP4 (exit \(status)): \(message)")
        }
    }

    /// Whether a flight state (`FlightStatus.state`) has the drone on the ground: preflight or landed.
    static func onGround(state: String) -> Bool {
        let kind = state.prefix { $0 != "(" }
        return kind == "preflight" || kind == "landed"
    }

    /// What `GET /video` answers for `last`.
    static func videoJSON(_ last: LastRecording) -> String {
        var fields: [String: Any] = ["id": last.id, "mp4": last.mp4Bytes != nil]
        if let bytes = last.mp4Bytes { fields["mp4_bytes"] = bytes }
        if let bytes = last.rawBytes { fields["raw_bytes"] = bytes }
        if let seconds = last.seconds { fields["seconds"] = (seconds * 10).rounded() / 10 }
        let encoded = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
        return encoded ?? "{}"
    }
}

/// One-use download tickets for paired phones: 128 random bits each, good for
/// `CockpitRoutes.ticketLifetimeSeconds`, at most `capacity` at once (the oldest is forgotten).
final class DownloadTickets: Sendable {
    /// The most tickets kept: our choice, a few phones each asking a few times.
    static let capacity = 16
    private let tickets = Mutex<[String: MonotonicTime]>([:])

    init() {}

    /// A new ticket issued at `now`.
    func issue(now: MonotonicTime) -> String {
        var generator = SystemRandomNumberGenerator()
        let ticket = PairedTokens.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        tickets.withLock { tickets in
            if tickets.count >= Self.capacity, let oldest = tickets.min(by: { $0.value < $1.value })?.key { tickets[oldest] = nil }
            tickets[ticket] = now
        }
        return ticket
    }

    /// Whether `ticket` is one issued within the lifetime before `now`; it is used up either way.
    func redeem(_ ticket: String, now: MonotonicTime) -> Bool {
        tickets.withLock { tickets in
            guard let issued = tickets.removeValue(forKey: ticket) else { return false }
            let age = now.seconds(since: issued)
            return age >= 0 && age <= CockpitRoutes.ticketLifetimeSeconds
        }
    }
}

/// Runs at most one ffmpeg mux at a time, on a thread of its own (it blocks until ffmpeg exits),
/// never on the server's event loop or the cooperative pool.
final class MuxSlot: Sendable {
    private let busy = Atomic(false)

    init() {}

    /// `VideoMux.mux(recording)`; nil when another mux is running.
    func run(_ recording: VideoMux.Recording, ffmpeg: String, niceness: Int32) async -> VideoMux.Outcome? {
        guard !busy.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { busy.store(false, ordering: .releasing) }
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: VideoMux.mux(recording, ffmpeg: ffmpeg, niceness: niceness)) }.start()
        }
    }
}
