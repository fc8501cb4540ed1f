import Foundation  // test-only: the fuzz corpus files
@testable import Links
import Logging
@testable import FollowCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a hostile gpsd (or anyone between FollowMe and a networked gpsd) can send: lines libgps
/// refuses must be dropped and counted, never stop the client (docs/fuzzing.md, finding gpsd-json 1).
@Suite("hostile gpsd lines")
struct HostileGPSDLineTests {
    /// A one-connection "gpsd" on loopback: accepts the client, sends `lines`, keeps the socket open.
    final class FakeGPSD: Sendable {
        let port: Int
        private let listener: Int32

        init(lines: [String]) throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0 && listen(fd, 1) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            listener = fd
            port = Int(UInt16(bigEndian: address.sin_port))
            let text = lines.joined()
            Thread.detachNewThread {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                _ = text.withCString { send(client, $0, strlen($0), 0) }
                sleep(30)  // keep the connection open; the test is over long before
                Glibc.close(client)
            }
        }

        deinit { Glibc.close(listener) }
    }

    static let fix = #"{"class":"TPV","device":"/dev/gpstarget","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":48.1,"lon":11.5}"# + "\r\n"

    @Test("A line libgps 3.22's gps_unpack would loop on forever is dropped and counted; the next fix still arrives",
          .timeLimit(.minutes(1)), arguments: [
              #"{x"class":"SKY"}"#,                    // the minimised libFuzzer finding
              #"{c"class":"DEVICE""#,
              #"{"class":"TPV","mode":3,x"class":"SKY"}"#,
              "30000 × {",                              // longer than the reader's buffer
          ])
    func hostileLineDropped(_ name: String) async throws {
        let hostile = name == "30000 × {" ? String(repeating: "{", count: 30_000) : name
        // Given a gpsd that sends its banner, the hostile line, then a valid fix
        let gpsd = try FakeGPSD(lines: [#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\r\n",
                                        hostile + "\r\n", Self.fix])
        let fixes = Mutex<[GPSFix]>([])
        let client = GPSClient(
            subscriptions: [ReceiverSubscription(role: .target, endpoint: GPSDAddress(host: "127.0.0.1", port: gpsd.port), device: nil)],
            logger: Logger(label: "HostileGPSDLineTests") { _ in SwiftLogNoOpLogHandler() },
            eventHandler: { event in if case .fix(let fix) = event { fixes.withLock { $0.append(fix) } } })
        client.start()
        defer { client.stop() }
        // When the client has had time to read all three lines
        let deadline = Date().addingTimeInterval(10)
        while fixes.withLock({ $0.isEmpty }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // Then the fix after the hostile line arrived, and the hostile line was dropped and counted
        #expect(fixes.withLock { $0.map(\.coordinate.latitudeDegrees) } == [48.1])
        #expect(client.statistics(for: .target)[.droppedLines] == 1)
    }

    @Test("Every gpsd-json corpus and finding input keeps the fuzz property (GPSDataMapper.fuzzViolation)")
    func corpusReplay() {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        var count = 0
        for folder in ["Fuzz/corpus/gpsd-json", "Fuzz/findings/gpsd-json"] {
            let directory = root.appendingPathComponent(folder)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            where !name.hasSuffix(".md") {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { continue }
                count += 1
                #expect(GPSDataMapper.fuzzViolation(jsonLines: [UInt8](data)) == nil, "\(folder)/\(name)")
            }
        }
        #expect(count >= 20)
    }
}
