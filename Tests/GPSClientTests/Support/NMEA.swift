/// A latitude/longitude as the test NMEA sources send it.
struct NMEAPosition: Sendable, Hashable, CustomStringConvertible {
    var latitudeDegrees: Double
    var longitudeDegrees: Double

    var description: String { "(\(latitudeDegrees), \(longitudeDegrees))" }

    /// The position the NMEA text encodes (minutes rounded to 6 decimals, as `NMEA.latitude`
    /// writes them), i.e. what gpsd will decode; compare received fixes against this.
    var asEncoded: NMEAPosition {
        NMEAPosition(latitudeDegrees: NMEA.decodedDegrees(latitudeDegrees),
                     longitudeDegrees: NMEA.decodedDegrees(longitudeDegrees))
    }

    /// True if both coordinates are within `toleranceDegrees` of `other`'s.
    func matches(latitudeDegrees lat: Double, longitudeDegrees lon: Double, toleranceDegrees: Double) -> Bool {
        abs(lat - latitudeDegrees) <= toleranceDegrees && abs(lon - longitudeDegrees) <= toleranceDegrees
    }
}

/// NMEA 0183 sentence building for test sources, with correct (or deliberately wrong) checksums.
///
/// Sentence form `$<body>*<XOR of body bytes as 2 hex digits>\r\n` (NMEA 0183 §5.2.1;
/// gpsd `driver_nmea0183.c` rejects a mismatch). Field layouts follow gpsd's NMEA docs
/// ("NMEA Revealed", gpsd.gitlab.io/gpsd/NMEA.html): RMC, GGA, HDT.
enum NMEA {
    /// XOR of all bytes between `$` and `*`.
    static func checksum(_ body: String) -> UInt8 {
        body.utf8.reduce(0) { $0 ^ $1 }
    }

    /// `$body*HH\r\n`; with `corruptChecksum` the checksum is off by 0x55 (so always wrong).
    static func sentence(_ body: String, corruptChecksum: Bool = false) -> String {
        let sum = checksum(body) ^ (corruptChecksum ? 0x55 : 0)
        return "$\(body)*\(hex2(sum))\r\n"
    }

    /// A UTC time of day, hundredths of a second since midnight (wraps at 24 h).
    struct TimeOfDay: Sendable, Hashable {
        var centiseconds: Int

        init(centiseconds: Int) { self.centiseconds = ((centiseconds % 8_640_000) + 8_640_000) % 8_640_000 }

        /// `hhmmss.ss`
        var field: String {
            let cs = centiseconds % 100, s = centiseconds / 100
            return pad(s / 3600, 2) + pad((s / 60) % 60, 2) + pad(s % 60, 2) + "." + pad(cs, 2)
        }
    }

    /// RMC date field: 21 Nov 2026. Fixed because gpsd only needs *a* date; tests never
    /// compare receiver time with the wall clock (docs/gpsd.md §1.5 #5).
    static let dateField = "211126"

    /// `ddmm.mmmmmm` and N/S.
    static func latitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 2), degrees < 0 ? "S" : "N")
    }

    /// `dddmm.mmmmmm` and E/W.
    static func longitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 3), degrees < 0 ? "W" : "E")
    }

    /// $GPRMC: time, status A (valid), position, speed (knots), track (deg true), date, mode A.
    static func rmc(time: TimeOfDay, position: NMEAPosition, speedKnots: Double = 0.5,
                    trackDegrees: Double = 45, talker: String = "GP") -> String {
        let (lat, ns) = latitude(position.latitudeDegrees)
        let (lon, ew) = longitude(position.longitudeDegrees)
        return sentence("\(talker)RMC,\(time.field),A,\(lat),\(ns),\(lon),\(ew),\(fixed(speedKnots, 1)),\(fixed(trackDegrees, 1)),\(dateField),,,A")
    }

    /// $GPGGA: time, position, quality 1 (GPS fix), 8 satellites, HDOP 0.9, altitude MSL, geoid 47 m.
    static func gga(time: TimeOfDay, position: NMEAPosition, altitudeMSLMeters: Double = 100,
                    talker: String = "GP") -> String {
        let (lat, ns) = latitude(position.latitudeDegrees)
        let (lon, ew) = longitude(position.longitudeDegrees)
        return sentence("\(talker)GGA,\(time.field),\(lat),\(ns),\(lon),\(ew),1,08,0.9,\(fixed(altitudeMSLMeters, 1)),M,47.0,M,,")
    }

    /// $HCHDT: true heading, degrees, one decimal (talker HC = magnetic compass).
    static func hdt(headingDegrees: Double, talker: String = "HC") -> String {
        sentence("\(talker)HDT,\(fixed(headingDegrees, 1)),T")
    }

    /// The value gpsd decodes from `angle(_:degreeDigits:)`'s text: whole degrees plus
    /// minutes rounded to 6 decimals, divided by 60.
    static func decodedDegrees(_ degrees: Double) -> Double {
        let (whole, microMinutes) = split(abs(degrees))
        let value = Double(whole) + Double(microMinutes) / 1e6 / 60
        return degrees < 0 ? -value : value
    }

    /// `value` rounded to `decimals` places, without Foundation's String(format:).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = String(scaled / scale)
        return decimals == 0 ? sign + whole : sign + whole + "." + pad(scaled % scale, decimals)
    }

    private static func split(_ degrees: Double) -> (Int, Int) {
        var whole = Int(degrees)
        var micro = Int(((degrees - Double(whole)) * 60 * 1e6).rounded())
        if micro >= 60_000_000 { whole += 1; micro -= 60_000_000 }
        return (whole, micro)
    }

    private static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let (whole, micro) = split(degrees)
        return pad(whole, degreeDigits) + pad(micro / 1_000_000, 2) + "." + pad(micro % 1_000_000, 6)
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func hex2(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xf)]])
    }
}
