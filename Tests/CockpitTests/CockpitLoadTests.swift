@testable import Cockpit
import FlightRecords
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Many clients at once (bounded: 300 connections on 127.0.0.1, 40 streams, for a few seconds)
/// while a 30 Hz ticker runs on the shared event loop group, where the flight loop runs: every client
/// gets an answer (none waits for another to close), the extra streams get 503, and the ticker is
/// never held up by the server.
@Suite(.timeLimit(.minutes(1))) struct CockpitServerLoadTests {
    /// Seconds the 30 Hz ticker may slip at most: our choice, several ticks, far above what the
    /// scheduler costs on a loaded 2-core machine and far below what a blocked loop would show.
    static let maxTickGapSeconds = 0.25

    @Test("300 clients and 40 streams at once: all answered, 8 streams refused, the shared loop's 30 Hz ticker keeps time")
    func manyClients() async throws {
        let (server, board, _) = try await CockpitFixtures.server()
        defer { server.stop() }
        board.publish(CockpitFixtures.following)
        let ticks = Mutex<[ContinuousClock.Instant]>([])
        let ticker = MultiThreadedEventLoopGroup.singleton.next().scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(33)) { _ in
            ticks.withLock { $0.append(ContinuousClock.now) }
            board.publish(CockpitFixtures.following)  // the flight publishes from its loop, too
        }
        defer { ticker.cancel() }

        let port = server.port
        let (statuses, streamStatuses) = try await offPool { () -> ([Int], [Int]) in
            // From 40 addresses: one address holds at most 4 (`maxStreamsPerClient`).
            let streams = try (0..<40).map { try LoopbackSocket(port: port, timeoutSeconds: 5, source: "127.0.1.\($0 + 1)") }
            defer { streams.forEach { $0.close() } }
            for stream in streams { try stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
            let clients = try (0..<300).map { _ in try LoopbackSocket(port: port, timeoutSeconds: 5) }
            defer { clients.forEach { $0.close() } }
            for (index, client) in clients.enumerated() {
                let request = index % 3 == 0 ? "POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{garbage}"
                    : "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                try client.send(request)
            }
            let statuses = clients.map { (try? LoopbackHTTP.parse($0.readToEnd()).status) ?? -1 }
            let streamStatuses = streams.map { Int($0.readLine()?.split(separator: " ").dropFirst().first ?? "") ?? 0 }
            return (statuses, streamStatuses)
        }
        ticker.cancel()

        #expect(statuses.filter { $0 == 200 }.count == 200, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count)) missing: \(statuses.indices.filter { statuses[$0] == -1 })")
        // Garbage from one address: the first 4 are read (400), the rest wait their turn (429).
        #expect(statuses.filter { $0 == 400 }.count == 4 && statuses.filter { $0 == 429 }.count == 96)
        #expect(streamStatuses.filter { $0 == 200 }.count == 32 && streamStatuses.filter { $0 == 503 }.count == 8, "\(streamStatuses)")
        let times = ticks.withLock { $0 }
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1) / .seconds(1) }
        #expect(times.count > 5)
        #expect((gaps.max() ?? 0) < Self.maxTickGapSeconds, "the shared loop's ticker slipped \(gaps.max() ?? 0) s")
        await server.waitUntilStopped()
    }
}
