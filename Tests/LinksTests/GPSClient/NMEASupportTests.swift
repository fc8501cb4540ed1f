@testable import Simulation
import Testing

/// The integration tests' NMEA sources (the product's `NMEASentence` plus the test-only corrupt
/// checksum and decoded position) against sentences from real receivers, so the sources are known
/// to speak valid NMEA when they mean to.
@Suite("NMEA test-source builder")
struct NMEASupportTests {
    @Test("checksums match real receivers' sentences", arguments: [
        // docs/gpsd.md §3 (quectel.log loss of fix), hemi.log, mtk-3301.log
        "$GPGGA,,,,,,0,,,,,,,,*66",
        "$GPRMC,,V,,,,,,,,,,N*53",
        "$GPHDT,,T*1B",
        "$GPVTG,0.00,T,,M,0.000,N,0.000,K,N*32",
        "$PMTK010,001*2E",
    ])
    func checksum(_ sentence: String) throws {
        let star = try #require(sentence.lastIndex(of: "*"))
        let body = String(sentence[sentence.index(after: sentence.startIndex)..<star])
        #expect(NMEA.sentence(body) == sentence + "\r\n")
        #expect(NMEA.sentence(body, corruptChecksum: true) != sentence + "\r\n")
    }

    @Test("angles are ddmm.mmmmmm / dddmm.mmmmmm with hemisphere")
    func angles() {
        #expect(NMEASentence.latitudeFields(48.8566) == ("4851.396000", "N"))
        #expect(NMEASentence.latitudeFields(-34.9062263) == ("3454.373578", "S"))
        #expect(NMEASentence.longitudeFields(2.3522) == ("00221.132000", "E"))
        #expect(NMEASentence.longitudeFields(-71.0323987) == ("07101.943922", "W"))
        #expect(NMEASentence.latitudeFields(0.99999999999) == ("0100.000000", "N"))  // 59.9999999 min rounds up
        #expect(NMEA.decodedDegrees(0.99999999999) == 1)
    }

    @Test("the decoded position is what the text encodes")
    func decoded() {
        let p = NMEAPosition(latitudeDegrees: 48.8566123456, longitudeDegrees: -2.3522987654).asEncoded
        #expect(abs(p.latitudeDegrees - (48 + 51.396741 / 60)) < 1e-12)
        #expect(abs(p.longitudeDegrees + (2 + 21.137926 / 60)) < 1e-12)
    }

    @Test("time of day, date and heading fields")
    func fields() {
        #expect(NMEA.TimeOfDay(centiseconds: 12 * 360_000 + 123).field == "120001.230")
        #expect(NMEA.TimeOfDay(centiseconds: 8_640_000 + 5).field == "000000.050")
        #expect(NMEA.TimeOfDay(centiseconds: 5).utc.dateField == NMEA.dateField)
        #expect(NMEA.hdt(headingDegrees: 123.4) == NMEA.sentence("HCHDT,123.40,T"))
    }
}
