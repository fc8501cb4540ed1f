@testable import FollowCore
@testable import Simulation
import Testing

/// The pure NMEA builder (Sources/Simulation/NMEASentence.swift): checksums against published
/// and captured sentences, field formatting, units, and calendar conversion.
@Suite("NMEA sentence builder")
struct NMEASentenceTests {
    struct KnownSentence: Sendable, CustomTestStringConvertible {
        var sentence: String
        var source: String
        var testDescription: String { source }
    }

    /// Sentences whose checksum someone else computed.
    static let knownSentences: [KnownSentence] = [
        // The classic examples of Dale DePriester's NMEA FAQ, quoted in gpsd's "NMEA Revealed".
        KnownSentence(sentence: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", source: "DePriester GGA"),
        KnownSentence(sentence: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A", source: "DePriester RMC"),
        // Real receiver output from gpsd's regression logs (Tests/LinksTests/GPSClient/Fixtures).
        KnownSentence(sentence: "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D", source: "bu353s4.log RMC"),
        KnownSentence(sentence: "$GPHDT,,T*1B", source: "hemi.log HDT"),
    ]

    @Test("checksum and framing reproduce published sentences", arguments: knownSentences)
    func checksumOfKnownSentence(_ known: KnownSentence) throws {
        // Given a sentence with a checksum computed elsewhere, split into body and checksum.
        let star = try #require(known.sentence.lastIndex(of: "*"))
        let body = String(known.sentence[known.sentence.index(after: known.sentence.startIndex)..<star])
        let expected = try #require(UInt8(known.sentence[known.sentence.index(after: star)...], radix: 16))
        // Then the builder computes the same checksum and frames the same text, CR LF terminated.
        #expect(NMEASentence.checksum(ofBody: body) == expected)
        #expect(NMEASentence.framed(body: body) == known.sentence + "\r\n")
    }

    struct CoordinateCase: Sendable, CustomTestStringConvertible {
        var degrees: Double
        var isLatitude: Bool
        var value: String
        var hemisphere: String
        var testDescription: String { "\(isLatitude ? "lat" : "lon") \(degrees)" }
    }

    static let coordinateCases: [CoordinateCase] = [
        // 48° 07.038′ N / 11° 31.000′ E, the DePriester fix, at six decimals of a minute.
        CoordinateCase(degrees: 48.1173, isLatitude: true, value: "4807.038000", hemisphere: "N"),
        CoordinateCase(degrees: 11.516666666666667, isLatitude: false, value: "01131.000000", hemisphere: "E"),
        // Southern and western hemispheres: the sign goes into the letter, never into the number.
        CoordinateCase(degrees: -33.8568, isLatitude: true, value: "3351.408000", hemisphere: "S"),
        CoordinateCase(degrees: -70.6483, isLatitude: false, value: "07038.898000", hemisphere: "W"),
        CoordinateCase(degrees: -151.2153, isLatitude: false, value: "15112.918000", hemisphere: "W"),
        CoordinateCase(degrees: -0.5, isLatitude: true, value: "0030.000000", hemisphere: "S"),
        // 59.99999999′ rounds up: carried into the degrees, never printed as 60 minutes.
        CoordinateCase(degrees: 2.9999999999, isLatitude: true, value: "0300.000000", hemisphere: "N"),
        CoordinateCase(degrees: 0, isLatitude: false, value: "00000.000000", hemisphere: "E"),
    ]

    @Test("latitude and longitude fields", arguments: coordinateCases)
    func coordinateFields(_ c: CoordinateCase) {
        let fields = c.isLatitude ? NMEASentence.latitudeFields(c.degrees) : NMEASentence.longitudeFields(c.degrees)
        #expect(fields.value == c.value)
        #expect(fields.hemisphere == c.hemisphere)
    }

    @Test("six decimals of a minute keep every position within 2 mm", arguments: [
        (48.858412345678, 2.294512345678), (-34.90622631, -56.16453219), (89.9999999, 179.9999999), (-0.00000049, -0.00000049),
    ])
    func positionRoundTrip(latitude: Double, longitude: Double) throws {
        // Given a coordinate written as NMEA fields, decoded the way gpsd does (degrees + minutes / 60).
        let lat = NMEASentence.latitudeFields(latitude)
        let lon = NMEASentence.longitudeFields(longitude)
        let decodedLat = try decode(lat.value, degreeDigits: 2, negative: lat.hemisphere == "S")
        let decodedLon = try decode(lon.value, degreeDigits: 3, negative: lon.hemisphere == "W")
        // Then the error is below 1e-6 minute, i.e. 1.9 mm of latitude.
        #expect(abs(decodedLat - latitude) * 60 <= 0.5e-6 + 1e-12)
        #expect(abs(decodedLon - longitude) * 60 <= 0.5e-6 + 1e-12)
    }

    private func decode(_ field: String, degreeDigits: Int, negative: Bool) throws -> Double {
        let degrees = try #require(Double(field.prefix(degreeDigits)))
        let minutes = try #require(Double(field.dropFirst(degreeDigits)))
        let value = degrees + minutes / 60
        return negative ? -value : value
    }

    @Test("speed is converted to knots (1 kn = 1852 m/h)", arguments: [
        (0.0, "0.000"), (1.0, "1.944"), (1852.0 / 3600.0, "1.000"), (10.0, "19.438"), (-3.0, "0.000"),
    ])
    func knots(metersPerSecond: Double, field: String) throws {
        #expect(abs(NMEASentence.knots(fromMetersPerSecond: 1852.0 / 3600.0) - 1) < 1e-12)
        // The RMC speed field (8th comma-separated field, index 7).
        let rmc = NMEASentence.rmc(time: NMEAUTCTime(unixSeconds: 0), coordinate: Self.paris,
                                   speedMetersPerSecond: metersPerSecond, trackDegrees: 90)
        #expect(fields(of: rmc)[7] == field)
    }

    static let paris = GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!

    struct TimeCase: Sendable, CustomTestStringConvertible {
        var unixSeconds: Int64
        var nanoseconds: Int32
        var time: String
        var date: String
        var testDescription: String { "\(unixSeconds)s + \(nanoseconds)ns" }
    }

    /// Expected values from Python's `datetime.utcfromtimestamp` (an independent implementation).
    static let timeCases: [TimeCase] = [
        TimeCase(unixSeconds: 0, nanoseconds: 0, time: "000000.000", date: "010170"),
        TimeCase(unixSeconds: 1_700_000_000, nanoseconds: 0, time: "221320.000", date: "141123"),
        // Leap day, last millisecond: truncated, never rounded up into the next day.
        TimeCase(unixSeconds: 951_868_799, nanoseconds: 999_999_999, time: "235959.999", date: "290200"),
        TimeCase(unixSeconds: 4_107_542_400, nanoseconds: 200_000_000, time: "000000.200", date: "010300"),
        TimeCase(unixSeconds: 4_107_542_400, nanoseconds: 7_999_999, time: "000000.007", date: "010300"),
        TimeCase(unixSeconds: -3600, nanoseconds: 0, time: "230000.000", date: "311269"),
        // Nanoseconds beyond a second carry into the seconds.
        TimeCase(unixSeconds: 59, nanoseconds: 1_500_000_000, time: "000100.500", date: "010170"),
    ]

    @Test("UTC time and date fields", arguments: timeCases)
    func utcFields(_ c: TimeCase) {
        let t = NMEAUTCTime(unixSeconds: c.unixSeconds, nanoseconds: c.nanoseconds)
        #expect(t.timeField == c.time)
        #expect(t.dateField == c.date)
    }

    @Test("HDT heading is normalised to [0, 360) after rounding", arguments: [
        (274.07, "274.07"), (-90.0, "270.00"), (359.999, "0.00"), (720.5, "0.50"), (0.0, "0.00"),
    ])
    func hdtHeading(headingDegrees: Double, field: String) {
        let sentence = NMEASentence.hdt(headingDegrees: headingDegrees)
        #expect(fields(of: sentence) == ["GPHDT", field, "T"])
        #expect(hasValidChecksum(sentence))
    }

    @Test("RMC and GGA of a fix carry its time, position, speed, track and altitude")
    func fixSentences() throws {
        // Given a southern/western fix moving at 2 m/s towards 225° at 12:34:56.40 UTC on 21 Nov 2026.
        let fix = try #require(GPSFix(
            role: .onboard, device: "sim", mode: .threeD, latitudeDegrees: -34.9062263, longitudeDegrees: -56.1645322,
            fixTime: FixTime(seconds: 1_795_264_496, nanoseconds: 400_000_000), receivedAt: .zero,
            altitudeHAEMeters: 42.5, trackDegrees: 225, speedMetersPerSecond: 2))
        // When it becomes NMEA with a 10 m geoid separation.
        let text = try #require(NMEASentence.fixSentences(fix, talker: .gnss, geoidSeparationMeters: 10))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        // Then GGA, GSA and RMC follow each other, each with a valid checksum.
        #expect(lines.count == 3)
        #expect(text.hasSuffix("\r\n"))
        #expect(lines.allSatisfy { hasValidChecksum($0 + "\r\n") })
        try #require(lines.count == 3)
        let gga = fields(of: lines[0] + "\r\n"), gsa = fields(of: lines[1] + "\r\n"), rmc = fields(of: lines[2] + "\r\n")
        #expect(gsa == ["GNGSA", "A", "3", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "", "", "1.6", "0.9", "1.3"])
        #expect(rmc == ["GNRMC", "123456.400", "A", "3454.373578", "S", "05609.871932", "W", "3.888", "225.00", "211126", "", "", "A"])
        #expect(gga == ["GNGGA", "123456.400", "3454.373578", "S", "05609.871932", "W", "1", "10", "0.9", "32.50", "M", "10.0", "M", "", ""])
    }

    @Test("GSA lists at most twelve satellites and pads the rest")
    func gsaPadding() {
        let full = NMEASentence.gsa(satellitePRNs: Array(1...14))
        #expect(fields(of: full).count == 18)
        #expect(fields(of: full)[14] == "12")
        let few = NMEASentence.gsa(satellitePRNs: [7])
        #expect(fields(of: few)[3...5] == ["07", "", ""])
        #expect(hasValidChecksum(full) && hasValidChecksum(few))
    }

    @Test("a fix standing still has an empty track field")
    func standingStillTrack() throws {
        let rmc = NMEASentence.rmc(time: NMEAUTCTime(unixSeconds: 0), coordinate: Self.paris,
                                   speedMetersPerSecond: 0, trackDegrees: nil)
        #expect(fields(of: rmc)[8] == "")
        #expect(hasValidChecksum(rmc))
    }

    @Test("talkers are two capital letters", arguments: [("GP", true), ("HC", true), ("gp", false), ("G", false), ("GPS", false), ("G1", false), ("", false)])
    func talkerValidation(text: String, valid: Bool) {
        #expect((NMEATalker(text) != nil) == valid)
    }

    @Test("decimal formatting rounds half away from zero and never prints -0", arguments: [
        (-0.004, 2, "0.00"), (-2.5, 0, "-3"), (0.125, 2, "0.13"), (35.0, 2, "35.00"), (-12.25, 1, "-12.3"), (Double.nan, 2, ""),
    ])
    func decimalFormatting(value: Double, digits: Int, text: String) {
        #expect(NMEASentence.decimal(value, fractionDigits: digits) == text)
    }

    // MARK: Helpers (an independent reading of the text)

    /// Comma-separated fields between `$` and `*`.
    private func fields(of sentence: String) -> [String] {
        guard let star = sentence.lastIndex(of: "*") else { return [] }
        return sentence[sentence.index(after: sentence.startIndex)..<star]
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// Recomputes the XOR checksum with its own loop and compares it with the `*hh` digits.
    private func hasValidChecksum(_ sentence: String) -> Bool {
        let bytes = Array(sentence.utf8)
        guard bytes.first == UInt8(ascii: "$"), bytes.suffix(2) == [13, 10],
              let star = bytes.lastIndex(of: UInt8(ascii: "*")), star + 5 == bytes.count
        else { return false }
        var sum: UInt8 = 0
        for b in bytes[1..<star] { sum ^= b }
        let digits = String(decoding: bytes[(star + 1)..<(star + 3)], as: UTF8.self)
        return UInt8(digits, radix: 16) == sum && digits == digits.uppercased()
    }
}
