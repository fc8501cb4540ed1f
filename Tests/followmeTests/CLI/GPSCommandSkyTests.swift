import Foundation
import Testing
import TestSupport

/// `followme gps` shows each receiver's satellites and HDOP from gpsd's SKY reports: a real receiver
/// log (gpsd's regression log of a BU-353S4 puck, Tests/LinksTests/GPSClient/Fixtures/PROVENANCE.md)
/// replayed by gpsfake into its own gpsd, read by the `followme` binary.
@Suite struct GPSCommandSkyTests {
    /// The log and what gpsd's own expected output (`bu353s4.log.chk`) says of its sky: five SKY
    /// reports, each listing 12 satellites, 8 used in the first two and 7 in the last three, HDOP 1.10.
    static let log = "Tests/LinksTests/GPSClient/Fixtures/bu353s4.log"
    static let (usedCounts, visible, hdop) = ([8, 7], 12, 1.10)

    @Test("--json writes sky lines (uSat, nSat, hdop); the text line ends `sats 7/12 hdop 1.1`", .timeLimit(.minutes(2)))
    func satellitesAndHDOP() async throws {
        // Given gpsfake looping the log (0.02 s a sentence) into a private gpsd on loopback, and a
        // configuration whose target reads any device on it (the onboard role points at a port with no
        // gpsd, so the two roles cannot share a gpsd with "any device").
        let dir = try TestDirectory(label: "gps-sky")
        defer { dir.remove() }
        let log = try dir.copy(RepositoryRoot.file(Self.log).path, as: "bu353s4.log")
        let gpsfake = try await GPSDProcesses.startGPSFake(logs: [log], in: dir, cycleSeconds: 0.02, oneShot: false)
        defer { gpsfake.process.stop() }
        let config = try temporaryConfig("""
            [gpsd]
            host = "127.0.0.1"
            port = \(gpsfake.port)
            [target]
            device = ""
            rate_hz = "device"
            [onboard]
            port = \(LoopbackPorts.freeTCPPort())
            """, directory: URL(fileURLWithPath: dir.path))

        // When `followme gps --json` runs for 12 fixes, and then in text mode (not a terminal: one
        // line per fix) for 12 more.
        let json = try FollowMeBinary.run(["gps", "--config", config.path, "--json", "--count", "12", "--timeout", "40"],
                                          timeoutSeconds: 60)
        let text = try FollowMeBinary.run(["gps", "--config", config.path, "--count", "12", "--timeout", "40"],
                                          timeoutSeconds: 60)

        // Then the JSON has sky lines with gpsd's counts and HDOP for the target role …
        #expect(json.exitCode == 0, "\(json.stderr)")
        let skies = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "sky" && $0["role"] as? String == "target" }
        let sky = try #require(skies.last, "no target sky line in:\n\(json.stdout.suffix(1500))")
        #expect(Self.usedCounts.contains(sky["uSat"] as? Int ?? -1) && sky["nSat"] as? Int == Self.visible, "\(sky)")
        #expect(abs((sky["hdop"] as? Double ?? 0) - Self.hdop) < 1e-9, "\(sky)")

        // … and the text lines show them once a SKY has arrived.
        #expect(text.exitCode == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").filter { $0.hasPrefix("target") }
        #expect(lines.contains { line in Self.usedCounts.contains { line.hasSuffix("sats \($0)/\(Self.visible) hdop 1.1") } },
                "target lines:\n\(text.stdout.suffix(1500))")
    }
}
