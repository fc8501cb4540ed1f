import Foundation
import Testing

/// `followme run` end to end: the simulated drone (`followme sim`, real UDP protocol) serves the
/// drone's and the person's NMEA over TCP, a real gpsd reads both, and `followme run` flies:
/// takes off, follows, lands on SIGTERM confirmed by navdata, exits 0.
@Suite(.serialized) struct RunEndToEndTests {
    struct Ports: Decodable {
        let at_port: Int
        let navdata_port: Int
        let nmea_port: Int
        let person_nmea_port: Int?
    }

    static var gpsdPath: String? {
        ["/usr/sbin/gpsd", "/usr/bin/gpsd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("takes off, follows a walking person, lands on SIGTERM and exits 0", .timeLimit(.minutes(3)))
    func flyAndLandOnSIGTERM() async throws {
        let gpsd = try #require(Self.gpsdPath, "gpsd is not installed (apt-get install gpsd)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("followme-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        chmod(dir.path, 0o777)
        defer { try? FileManager.default.removeItem(at: dir) }

        // Given a simulated drone and a person walking straight at 1.4 m/s once the drone is up
        let sim = try ChildProcess(name: "sim", executable: FollowMeBinary.url.path, arguments: [
            "sim", "--at-port", "0", "--navdata-port", "0", "--nmea-port", "0", "--person-nmea-port", "0",
            "--person", "straight-walk", "--person-start", "airborne", "--json",
        ])
        defer { Task { await sim.stop() } }
        #expect(await eventually(seconds: 20) { sim.stdoutLines.lines.first?.contains("listening") == true },
                "sim did not start: \(sim.stderrText.text)")
        let first = try #require(sim.stdoutLines.lines.first)
        let ports = try JSONDecoder().decode(Ports.self, from: Data(first.utf8))
        let personPort = try #require(ports.person_nmea_port)

        // And a real gpsd reading both NMEA streams
        let gpsdPort = freeTCPPort()
        let targetDevice = "tcp://127.0.0.1:\(personPort)", onboardDevice = "tcp://127.0.0.1:\(ports.nmea_port)"
        var executable = gpsd
        var arguments = ["-N", "-n", "-S", String(gpsdPort), "-F", dir.appendingPathComponent("ctl.sock").path,
                         targetDevice, onboardDevice]
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // A root gpsd drops privileges and leaks its SHM segment; run it as nobody (reference/gpsd.md §2.3).
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", gpsd] + arguments
            executable = "/usr/bin/setpriv"
        }
        let daemon = try ChildProcess(
            name: "gpsd", executable: executable, arguments: arguments,
            environment: ["TMPDIR": dir.path, "GPSD_SHM_KEY": String(format: "0x4770%04X", gpsdPort)])
        defer { Task { await daemon.stop() } }

        // And a config pointing followme at them
        let log = dir.appendingPathComponent("flight.jsonl")
        let config = try temporaryConfig("""
            [gpsd]
            host = "127.0.0.1"
            port = \(gpsdPort)
            [target]
            device = "\(targetDevice)"
            [onboard]
            device = "\(onboardDevice)"
            mount_offset_deg = 90
            [drone]
            address = "127.0.0.1"
            at_port = \(ports.at_port)
            navdata_port = \(ports.navdata_port)
            """)
        defer { try? FileManager.default.removeItem(at: config.deletingLastPathComponent()) }

        // When followme runs
        let run = try ChildProcess(name: "run", executable: FollowMeBinary.url.path, arguments: [
            "run", "--config", config.path, "--flight-log", log.path, "--land-timeout", "40",
        ])
        defer { Task { await run.stop() } }
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        // Then it takes off and starts following within a minute
        let following = await eventually(seconds: 90) { logText().contains(#""to":"following""#) }
        #expect(following, "never reached following; stderr:\n\(run.stderrText.text.suffix(3000))")
        guard following else { return }
        try await Task.sleep(for: .seconds(8))
        #expect(run.process.isRunning)

        // When SIGTERM arrives it lands, navdata confirms, and it exits 0
        run.signal(SIGTERM)
        let status = await run.waitForExit(seconds: 60)
        #expect(status == 0, "exit \(String(describing: status)); stderr:\n\(run.stderrText.text.suffix(3000))")
        let text = logText()
        #expect(text.contains(#""to":"landing(shutdown)""#))
        #expect(text.contains(#""to":"landed""#))
        // And every line of the flight log parses
        for line in text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "bad line: \(line)")
        }
    }
}
