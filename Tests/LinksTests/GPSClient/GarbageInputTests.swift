@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// Bad NMEA through the real path (source → gpsd → libgps → client): whatever gpsd makes
/// of it, no fix may come out. Then valid sentences, to prove the pipeline was alive.
@Suite("garbage NMEA through gpsd")
struct GarbageInputTests {
    enum Junk: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// RMC status A and GGA quality 1, but empty lat/lon fields. gpsd 3.22 may emit a
        /// mode-3 TPV without lat/lon for such cycles (seen here with out-of-range fields).
        case emptyLatLon
        /// A plausible position (10° N 10° E) with a wrong checksum: gpsd must drop it.
        case badChecksum
        /// `nan` in the lat/lon fields, correct checksum.
        case nanFields
        /// `inf` / `-inf` in the lat/lon fields, correct checksum.
        case infinityFields
        /// 9999.999999 / 99999.999999 (99° + 166 min), correct checksum.
        case outOfRange
        /// Binary noise, truncated sentences, a NUL, no checksum.
        case noise

        var testDescription: String { rawValue }

        /// The position the junk would claim, if a parser believed it (never a valid fix).
        static let claimed = NMEAPosition(latitudeDegrees: 10, longitudeDegrees: 10)

        func cycle(_ index: Int) -> ScriptedNMEAServer.Cycle {
            let t = TestSources.time(index, periodCentiseconds: 10).field
            let d = NMEA.dateField
            switch self {
            case .emptyLatLon:
                return .init(text: NMEA.sentence("GPRMC,\(t),A,,,,,0.5,45.0,\(d),,,A")
                                 + NMEA.sentence("GPGGA,\(t),,,,,1,08,0.9,100.0,M,47.0,M,,"))
            case .badChecksum:
                return .init(text: NMEA.sentence("GPRMC,\(t),A,1000.000000,N,01000.000000,E,0.5,45.0,\(d),,,A", corruptChecksum: true)
                                 + NMEA.sentence("GPGGA,\(t),1000.000000,N,01000.000000,E,1,08,0.9,100.0,M,47.0,M,,", corruptChecksum: true))
            case .nanFields:
                return .init(text: NMEA.sentence("GPRMC,\(t),A,nan,N,nan,E,0.5,45.0,\(d),,,A")
                                 + NMEA.sentence("GPGGA,\(t),nan,N,nan,E,1,08,0.9,100.0,M,47.0,M,,"))
            case .infinityFields:
                return .init(text: NMEA.sentence("GPRMC,\(t),A,inf,N,-inf,E,0.5,45.0,\(d),,,A")
                                 + NMEA.sentence("GPGGA,\(t),inf,N,-inf,E,1,08,0.9,100.0,M,47.0,M,,"))
            case .outOfRange:
                return .init(text: NMEA.sentence("GPRMC,\(t),A,9999.999999,N,99999.999999,E,0.5,45.0,\(d),,,A")
                                 + NMEA.sentence("GPGGA,\(t),9999.999999,N,99999.999999,E,1,08,0.9,100.0,M,47.0,M,,"))
            case .noise:
                var bytes: [UInt8] = Array("$GPGGA,\(t),1000.0000,N,010".utf8) + [0x00, 0xff, 0xfe, 0x0d, 0x0a]
                bytes += Array("garbage without a dollar\r\n$$$$*00\r\n$GPRMC,\(t),A,1000.000000,N".utf8)
                bytes += (0..<64).map { UInt8(truncatingIfNeeded: ($0 * 97 + index * 31) ^ 0xa5) }
                bytes += Array("\r\n".utf8)
                return .init(bytes: bytes)
            }
        }
    }

    /// Junk cycles before the valid ones (2 s at 10 Hz).
    static let junkCycles = 20

    @Test("junk never produces a fix; valid data afterwards does", .timeLimit(.minutes(1)), arguments: Junk.allCases)
    func junkNeverFixes(_ junk: Junk) async throws {
        // Given a source that sends 2 s of junk, then a valid walk, read by gpsd.
        let dir = try TestDirectory(label: "junk")
        defer { dir.remove() }
        let valid = TestSources.walk(from: TestSources.targetStart, withHeading: false)
        let junkCycles = Self.junkCycles
        let source = try ScriptedNMEAServer(rateHz: 10) { index in
            index < junkCycles ? junk.cycle(index) : valid(index)
        }
        source.start()
        defer { source.stop() }
        let gpsd = try await GPSDProcesses.startGPSD(devices: [source.gpsdSource()], in: dir)
        defer { gpsd.process.stop() }

        // When the client reads it until three fixes arrived.
        let harness = ClientHarness.start([.local(.target, port: gpsd.port, device: source.gpsdSource())])
        defer { harness.stop() }
        let fixed = await harness.recorder.waitUntil(timeoutSeconds: 20) { $0.fixes.count >= 3 }
        let events = harness.events
        #expect(fixed, "no valid fixes after the junk: \(events.suffix(8))\ngpsd:\n\(gpsd.process.output())")

        // Then no fix was received before the first valid cycle was sent, and every fix is a
        // valid-phase position (never the junk's 10°/10°, never out of range).
        let sent = source.sentCycles
        #expect(sent.first?.index == 0, "the source did not start with junk")
        let firstValid = try #require(sent.first { $0.index >= Self.junkCycles })
        for fix in events.fixes {
            #expect(fix.receivedAt >= firstValid.sentAt,
                    "fix \(fix.coordinate) received \(firstValid.sentAt.seconds(since: fix.receivedAt)) s before any valid data")
            #expect(TestSources.cycle(latitudeDegrees: fix.coordinate.latitudeDegrees,
                                      longitudeDegrees: fix.coordinate.longitudeDegrees, in: sent) != nil,
                    "fix \(fix.coordinate) was never sent as a valid position")
            #expect(!Junk.claimed.matches(latitudeDegrees: fix.coordinate.latitudeDegrees,
                                          longitudeDegrees: fix.coordinate.longitudeDegrees, toleranceDegrees: 1e-3))
        }
        let stats = harness.client.statistics(for: .target)
        let junkLosses = events.losses.filter { $0.reason.isNoFix && $0.at < firstValid.sentAt }.count
        print("[junk] \(junk): during junk \(junkLosses) × .lost(.noFix), whole run \(stats[.ignoredNoPosition]) TPVs with mode ≥ 2 but no position, \(stats[.fixes]) fixes, \(stats[.linesRead]) lines")
    }
}
