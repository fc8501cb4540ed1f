import Foundation
import Testing
import TestSupport

/// `followme watch` in a real terminal (tmux, as `WatchCommandTests`) showing the wind: a stand-in
/// publisher (python3, a plain Unix socket) serves a flight whose wind saturates the tilt.
@Suite(.serialized) struct WindWatchTests {
    static func publisher(socket: String) -> [String] {
        ["-c", """
        import os, socket, time
        server = socket.socket(socket.AF_UNIX); server.bind("\(socket)"); server.listen(1)
        conn, _ = server.accept()
        for i in range(200):
            conn.sendall(('{"t":%d,"flight_s":%d,"state":"following","dry_run":false,"transitions":[],'
                          '"wind":{"wind_mps":3.9,"wind_towards_deg":92,"wind_authority":0.98,"saturated_s":1.3}}\\n' % (i, i)).encode())
            time.sleep(0.25)
        """]
    }

    @Test("watch in tmux: a WIND row with speed, direction and share of the tilt, SATURATED while the clock runs",
          .timeLimit(.minutes(2)))
    func windRowInTmux() async throws {
        // (a socket, no directory: the publisher serves one flight and the socket goes with the test)
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("wind-\(UUID().uuidString.prefix(8)).sock").path
        defer { try? FileManager.default.removeItem(atPath: socket) }
        // Given a flight publishing a wind at 98 % of the tilt authority, its saturation clock at 1.3 s
        let publisher = try ChildProcess(name: "publisher", executable: "python3", arguments: Self.publisher(socket: socket))
        defer { _ = publisher.stop(signal: SIGKILL) }
        let tmux = try Tmux()
        // When `followme watch` shows it in a 100 × 30 terminal
        try tmux.start(command: "\(FollowMeBinary.url.path) watch --socket \(socket); sleep 300")
        let row = "WIND      3.9 m/s → 092° E, 98 % of tilt   SATURATED 1.3 s"
        let shown = await eventually(seconds: 20) { tmux.screen().contains(row) }
        // Then the wind has its row, the warning in capitals as the screen's other warnings
        #expect(shown, "screen:\n\(tmux.screen())")
        print("followme watch, a saturating wind (tmux 100 × 30):\n\(tmux.screen())")
    }
}
