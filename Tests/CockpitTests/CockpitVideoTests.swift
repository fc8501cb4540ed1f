@testable import Cockpit
import FlightRecords
import FollowCore
import Foundation
import Testing
import TestSupport

/// The last flight's video (`GET /video`, `POST /video/ticket`, `GET /video/last`): only a paired
/// phone gets it, never the recording in progress, streamed with its type and as an attachment
/// (docs/video.md §8). Loopback HTTP against the real server.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CockpitVideoTests {
    /// A directory of recordings: `ids` with a raw stream, an index and (when `mp4`) an MP4 of `mp4Bytes` bytes.
    static func recordings(_ ids: [String], mp4Bytes: Int = 300_000) throws -> String {
        let directory = NSTemporaryDirectory() + "followme-cockpit-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for id in ids {
            _ = FileManager.default.createFile(atPath: "\(directory)/\(id).h264", contents: Data([0, 0, 0, 1, 9, 0xF0]))
            let index = #"{"video":"ardrone-pave","t":100}"# + "\n" + #"{"frame":7,"t":100.5,"offset":0,"size":6}"# + "\n"
                + #"{"frame":8,"t":183.25,"offset":6,"size":6}"# + "\n"
            _ = FileManager.default.createFile(atPath: "\(directory)/\(id).video.jsonl", contents: Data(index.utf8))
            // Not a real MP4: bytes whose order a test can check (every 4-byte word its offset).
            let words = (0..<(mp4Bytes / 4)).flatMap { withUnsafeBytes(of: UInt32($0 * 4).littleEndian, Array.init) }
            _ = FileManager.default.createFile(atPath: "\(directory)/\(id).mp4", contents: Data(words))
        }
        return directory
    }

    static let older = "2026-12-07T150102Z", newer = "2026-12-07T160102Z"

    @Test("unpaired: 401 for the listing, the ticket and the file, with or without a made-up ticket; never a byte of the video")
    func unpairedRefused() async throws {
        let directory = try Self.recordings([Self.older])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await CockpitFixtures.withServer(videoDirectory: directory) { _, _, _, client in
            let listing = try await client.request("GET", "/video")
            #expect(listing.status == 401 && listing.body.contains("paired phone") && !listing.body.contains(Self.older), "\(listing.body)")
            #expect(try await client.request("POST", "/video/ticket").status == 401)
            #expect(try await client.request("POST", "/video/ticket", headers: ["X-FollowMe-Token": "0123456789abcdef.00"]).status == 401)
            for path in ["/video/last", "/video/last?ticket=00112233445566778899aabbccddeeff", "/video/last?ticket="] {
                let file = try await client.download(path)
                #expect(file.status == 401 && file.headers["content-type"] == "application/json", "\(path): \(file.status)")
                #expect(file.body.count < 1000, "\(path): \(file.body.count) bytes")
            }
        }
    }

    @Test("paired: the listing names the newest finished recording; a ticket downloads its MP4 once, streamed as an attachment")
    func pairedDownloads() async throws {
        let directory = try Self.recordings([Self.older, Self.newer], mp4Bytes: 3_000_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await CockpitFixtures.withServer(videoDirectory: directory) { _, board, _, client in
            board.publish(CockpitFixtures.landed)
            let token = try #require(try await client.pair("123456").token)
            let listing = try await client.request("GET", "/video", headers: ["X-FollowMe-Token": token])
            #expect(listing.status == 200, "\(listing.body)")
            #expect(listing.body.contains(#""id":"\#(Self.newer)""#) && listing.body.contains(#""mp4":true"#)
                && listing.body.contains(#""mp4_bytes":3000000"#) && listing.body.contains(#""seconds":82.8"#), "\(listing.body)")

            let ticket = try await client.request("POST", "/video/ticket", headers: ["X-FollowMe-Token": token])
            let url = try #require((try JSONSerialization.jsonObject(with: Data(ticket.body.utf8)) as? [String: Any])?["url"] as? String,
                                   "\(ticket.body)")
            let file = try await client.download(url)
            #expect(file.status == 200)
            #expect(file.headers["content-type"] == "video/mp4")
            #expect(file.headers["content-disposition"] == #"attachment; filename="followme-\#(Self.newer).mp4""#)
            #expect(file.headers["content-length"] == "3000000" && file.headers["transfer-encoding"] == nil)
            #expect(file.body == [UInt8](FileManager.default.contents(atPath: "\(directory)/\(Self.newer).mp4") ?? Data()))
            // A ticket is good once; the token's header works as well (scripts: curl -H)
            #expect(try await client.download(url).status == 401)
            #expect(try await client.download("/video/last", headers: ["X-FollowMe-Token": token]).body.count == 3_000_000)
        }
    }

    @Test("the recording being written (its raw file locked) is never offered: the one before it is the last; alone, there is none")
    func inProgressNeverServed() async throws {
        let directory = try Self.recordings([Self.older, Self.newer])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given the newer recording held as a recorder holds it
        let held = open("\(directory)/\(Self.newer).h264", O_WRONLY | O_CLOEXEC)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        try await CockpitFixtures.withServer(videoDirectory: directory) { _, board, _, client in
            board.publish(CockpitFixtures.landed)
            let token = try #require(try await client.pair("123456").token)
            let listing = try await client.request("GET", "/video", headers: ["X-FollowMe-Token": token])
            #expect(listing.body.contains(Self.older) && !listing.body.contains(Self.newer), "\(listing.body)")
            let file = try await client.download("/video/last", headers: ["X-FollowMe-Token": token])
            #expect(file.headers["content-disposition"]?.contains(Self.older) == true, "\(file.headers)")
            // When the older one is gone, nothing is offered while the newer records
            try FileManager.default.removeItem(atPath: "\(directory)/\(Self.older).mp4")
            try FileManager.default.removeItem(atPath: "\(directory)/\(Self.older).h264")
            try FileManager.default.removeItem(atPath: "\(directory)/\(Self.older).video.jsonl")
            #expect(try await client.request("GET", "/video", headers: ["X-FollowMe-Token": token]).status == 404)
            #expect(try await client.download("/video/last", headers: ["X-FollowMe-Token": token]).status == 404)
            // Then, closed, it is the last
            close(held)
            #expect(try await client.request("GET", "/video", headers: ["X-FollowMe-Token": token]).body.contains(Self.newer))
        }
    }

    @Test("no MP4 yet while the drone flies: 409 naming followme video mux ID, for the ticket and the file; nothing is muxed")
    func noMuxWhileFlying() async throws {
        let directory = try Self.recordings([Self.older])
        try FileManager.default.removeItem(atPath: "\(directory)/\(Self.older).mp4")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await CockpitFixtures.withServer(videoDirectory: directory) { _, board, _, client in
            board.publish(CockpitFixtures.following)
            let token = try #require(try await client.pair("123456").token)
            let listing = try await client.request("GET", "/video", headers: ["X-FollowMe-Token": token])
            #expect(listing.status == 200 && listing.body.contains(#""mp4":false"#) && listing.body.contains(#""raw_bytes":6"#), "\(listing.body)")
            let ticket = try await client.request("POST", "/video/ticket", headers: ["X-FollowMe-Token": token])
            #expect(ticket.status == 409 && ticket.body.contains("followme video mux \(Self.older)"), "\(ticket.body)")
            let file = try await client.download("/video/last", headers: ["X-FollowMe-Token": token])
            #expect(file.status == 409)
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/\(Self.older).mp4"))
        }
    }

    @Test("which states count as on the ground for making an MP4")
    func onGround() {
        #expect(CockpitRoutes.onGround(state: "preflight(waiting: start)") && CockpitRoutes.onGround(state: "landed"))
        for flying in ["taking-off", "climbing", "following", "holding(target-stale)", "landing(operator)", "released(mode:POSCTL)"] {
            #expect(!CockpitRoutes.onGround(state: flying), "\(flying)")
        }
    }

    @Test("tickets: one use, 60 s, 16 kept at most (the oldest forgotten)")
    func tickets() {
        let tickets = DownloadTickets()
        let t0 = MonotonicTime(seconds: 100)
        let a = tickets.issue(now: t0)
        #expect(a.count == 32 && tickets.redeem(a, now: t0.adding(seconds: 59)) && !tickets.redeem(a, now: t0.adding(seconds: 59)))
        let late = tickets.issue(now: t0)
        #expect(!tickets.redeem(late, now: t0.adding(seconds: 61)))
        let first = tickets.issue(now: t0)
        let rest = (1...16).map { tickets.issue(now: t0.adding(seconds: Double($0))) }
        #expect(!tickets.redeem(first, now: t0.adding(seconds: 20)) && tickets.redeem(rest[15], now: t0.adding(seconds: 20)))
    }
}

/// A real recording made into an MP4 on a paired phone's request, after the landing.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CockpitVideoIntegrationTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try ToolRun.run(arguments)
        return (run.status, run.output)
    }

    @Test("landed, no MP4 yet: a paired phone's download makes it (ffmpeg) and gets an MP4 ffprobe reads; an unpaired one gets 401")
    func pairedGetsAnMP4() async throws {
        let directory = NSTemporaryDirectory() + "followme-cockpit-mp4-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Given a raw H.264 recording (ffmpeg's testsrc, 2 s) with no MP4
        let id = "2026-12-07T170102Z"
        let encoded = try Self.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                    "-i", "testsrc=size=1280x720:rate=30", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-g", "30", "-bf", "0", "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264",
                                    "\(directory)/\(id).h264"])
        #expect(encoded.status == 0, "ffmpeg (apt install ffmpeg)")
        try await CockpitFixtures.withServer(videoDirectory: directory) { _, board, _, client in
            board.publish(CockpitFixtures.landed)
            // When an unpaired client asks: refused, and nothing is made
            let refused = try await client.download("/video/last")
            #expect(refused.status == 401 && !FileManager.default.fileExists(atPath: "\(directory)/\(id).mp4"))
            // When the paired phone asks
            let token = try #require(try await client.pair("123456").token)
            let file = try await client.download("/video/last", headers: ["X-FollowMe-Token": token])
            #expect(file.status == 200 && file.headers["content-type"] == "video/mp4", "\(file.status) \(file.headers)")
            // Then what it got is an MP4 ffprobe reads as h264 1280x720, and it is the one kept beside the recording
            let downloaded = "\(directory)/downloaded.mp4"
            _ = FileManager.default.createFile(atPath: downloaded, contents: Data(file.body))
            let probe = try Self.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                      "stream=codec_name,width,height:format=format_name,duration", "-of", "default=noprint_wrappers=1", downloaded])
            #expect(probe.output.contains("codec_name=h264") && probe.output.contains("width=1280") && probe.output.contains("format_name=mov,mp4"),
                    "\(probe.output)")
            #expect(file.body == [UInt8](FileManager.default.contents(atPath: "\(directory)/\(id).mp4") ?? Data()))
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/\(id).muxing.mp4"))
        }
    }
}
