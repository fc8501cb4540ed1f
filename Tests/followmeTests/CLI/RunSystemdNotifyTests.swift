import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `followme run` under `Type=notify` with `WatchdogSec=` (etc/systemd/followme.service): systemd's
/// side is played by a datagram socket of the test's, named in `NOTIFY_SOCKET` exactly as systemd
/// names its own (sd_notify(3)), with `WATCHDOG_USEC` set as systemd sets it for `WatchdogSec=3`.
@Suite(.serialized) struct RunSystemdNotifyTests {
    /// systemd's end of the notification socket: every datagram, in order.
    final class NotifySocket: @unchecked Sendable {
        let path: String
        private let fd: Int32
        private(set) var messages: [String] = []

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0 else { throw CocoaError(.fileWriteUnknown) }
            chmod(path, 0o777)  // the child may run as nobody (ChildProcess drops root)
        }

        /// Reads what has arrived; returns every message so far.
        func drain() -> [String] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard n > 0 else { break }
                messages.append(String(decoding: buffer[..<n], as: UTF8.self))
            }
            return messages
        }

        /// Every `KEY=value` line of every message.
        var assignments: [String] { drain().flatMap { $0.split(separator: "\n").map(String.init) } }

        deinit { close(fd); unlink(path) }
    }

    @Test("READY once configured, STATUS with the state line, WATCHDOG from the loop, STOPPING on SIGTERM",
          .timeLimit(.minutes(3)))
    func readyStatusWatchdog() async throws {
        // Given the simulated field, and followme run started as systemd starts a Type=notify unit
        // with WatchdogSec=3 (WATCHDOG_USEC=3000000; no WATCHDOG_PID: the watchdog is the main process's)
        let (dir, notify, field, run) = try await Self.setUp("notify", log: "flight.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }

        // When it starts, flies to following, and is stopped with SIGTERM
        let ready = await eventually(seconds: 30) { notify.assignments.contains("READY=1") }
        let following = await eventually(seconds: 90) { notify.assignments.contains("STATUS=following") }
        let beforeStop = notify.assignments
        run.signal(SIGTERM)
        let termination = await run.waitForExit(seconds: 60)
        await run.terminate()
        await field.stop()
        let all = notify.assignments

        // Then systemd heard READY=1 once, the preflight line naming what was missing, every state
        // the flight went through, watchdog pings at about a third of WatchdogSec, and the stop.
        #expect(ready && following, "messages: \(all)\nstderr:\n\(run.stderrText.text.suffix(2000))")
        #expect(all.filter { $0 == "READY=1" }.count == 1)
        let statuses = all.filter { $0.hasPrefix("STATUS=") }
        #expect(statuses.first?.hasPrefix("STATUS=preflight: waiting ") == true, "\(statuses)")
        for state in ["taking-off", "climbing", "following", "landed"] {
            #expect(statuses.contains { $0 == "STATUS=\(state)" || $0.hasPrefix("STATUS=\(state):") }, "\(state) in \(statuses)")
        }
        #expect(statuses.contains { $0.hasPrefix("STATUS=landing: shutdown") }, "\(statuses)")
        #expect(all.contains("STOPPING=1"))
        if let stop = all.firstIndex(of: "STOPPING=1"), let landed = all.lastIndex(of: "STATUS=landed") { #expect(stop < landed) }
        // The pings came from the loop in every phase: preflight, flight, landing.
        let pings = beforeStop.filter { $0 == "WATCHDOG=1" }.count
        #expect(pings >= 3, "\(pings) WATCHDOG=1 before SIGTERM in \(beforeStop.count) lines")
        #expect(termination == 0, "exit \(String(describing: termination))")
    }

    /// A scratch directory, systemd's end of the socket in it, the simulated field on loopback, and
    /// `followme run` started in it as systemd starts it, its flight log `log`.
    static func setUp(_ label: String, log: String) async throws -> (URL, NotifySocket, SimField, ChildProcess) {
        let dir = try scratchDirectory(label: label)
        let notify = try NotifySocket(path: dir.appendingPathComponent("notify.sock").path)
        let field = try await SimField.start(in: dir, control: true)
        return (dir, notify, field, try startRun(field: field, dir: dir, notify: notify, log: log))
    }

    /// `followme run` as systemd starts it for a Type=notify unit with WatchdogSec=3.
    static func startRun(field: SimField, dir: URL, notify: NotifySocket, log: String) throws -> ChildProcess {
        let config = dir.appendingPathComponent("followme.toml")
        try field.configText().write(to: config, atomically: true, encoding: .utf8)
        return try ChildProcess(name: log, executable: "/bin/sh", arguments: [
            "-c", "NOTIFY_SOCKET='\(notify.path)' WATCHDOG_USEC=3000000 exec \"$0\" \"$@\"", FollowMeBinary.url.path,
            "run", "--config", config.path, "--flight-log", dir.appendingPathComponent(log).path,
        ])
    }

    @Test("a hung flight loop stops the pings; the drone hovers on its com watchdog; a restarted followme adopts it",
          .timeLimit(.minutes(4)))
    func hungLoopIsRestarted() async throws {
        let (dir, notify, field, first) = try await Self.setUp("notify-hang", log: "flight-1.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }
        func cleanUp() async {
            first.signal(SIGKILL)
            await first.terminate()
            await field.stop()
        }
        // Given a flight that follows the person
        let following = await eventually(seconds: 90) { notify.assignments.contains("STATUS=following") }
        #expect(following, "stderr:\n\(first.stderrText.text.suffix(2000))")
        guard following else { return await cleanUp() }

        // When its loop hangs (SIGSTOP: nothing of it runs any more)
        first.signal(SIGSTOP)
        let pingsAtHang = notify.assignments.filter { $0 == "WATCHDOG=1" }.count
        try await Task.sleep(for: .seconds(3.5))
        // Then no ping came for longer than WatchdogSec: systemd would now kill it (SIGABRT, then SIGKILL)
        #expect(notify.assignments.filter { $0 == "WATCHDOG=1" }.count == pingsAtHang, "a ping from a stopped loop")
        // and the drone, with no command for more than 2 s, hovers on its com watchdog, still airborne
        let hovering = try #require(try field.control?.status())
        #expect(hovering.comWatchdog && hovering.state != "landed", "\(hovering.raw)")
        first.signal(SIGKILL)
        await first.terminate()

        // When systemd restarts it (Restart=on-failure)
        let assignmentsBefore = notify.assignments.count
        let second = try Self.startRun(field: field, dir: dir, notify: notify, log: "flight-2.jsonl")
        // Then the new followme is READY, adopts the flying drone without landing it, and follows again
        // (only what the new process said counts: the first one's STATUS=following is in the list too)
        let adopted = await eventually(seconds: 60) {
            let since = notify.assignments.dropFirst(assignmentsBefore)
            return since.contains("READY=1") && since.contains("STATUS=following")
        }
        let secondLog = (try? String(contentsOf: dir.appendingPathComponent("flight-2.jsonl"), encoding: .utf8)) ?? ""
        #expect(adopted, "after restart: \(notify.assignments.suffix(10))\nstderr:\n\(second.stderrText.text.suffix(2000))")
        #expect(!secondLog.contains(#""to":"taking-off""#), "the restarted flight took off again instead of adopting")
        // and its commands clear the drone's com watchdog (within a few navdata packets)
        let cleared = try await eventually(seconds: 5) { try field.control?.status().comWatchdog == false }
        #expect(cleared)

        // And SIGTERM still lands it, confirmed, exit 0
        second.signal(SIGTERM)
        let code = await second.waitForExit(seconds: 60)
        await second.terminate()
        let landed = try field.control?.status().state
        #expect(code == 0 && landed == "landed", "exit \(String(describing: code)), sim \(String(describing: landed))")
        await field.stop()
    }
}
