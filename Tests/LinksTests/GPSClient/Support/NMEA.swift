@testable import FollowCore
@testable import Simulation

/// A latitude/longitude as the test NMEA sources send it.
struct NMEAPosition: Sendable, Hashable, CustomStringConvertible {
    var latitudeDegrees: Double
    var longitudeDegrees: Double

    var description: String { "(\(latitudeDegrees), \(longitudeDegrees))" }

    /// The position the NMEA text encodes (minutes rounded to `NMEASentence.minuteFractionDigits`
    /// decimals, as `NMEASentence` writes them), i.e. what gpsd will decode; compare received
    /// fixes against this.
    var asEncoded: NMEAPosition {
        NMEAPosition(latitudeDegrees: NMEA.decodedDegrees(latitudeDegrees),
                     longitudeDegrees: NMEA.decodedDegrees(longitudeDegrees))
    }

    /// True if both coordinates are within `toleranceDegrees` of `other`'s.
    func matches(latitudeDegrees lat: Double, longitudeDegrees lon: Double, toleranceDegrees: Double) -> Bool {
        abs(lat - latitudeDegrees) <= toleranceDegrees && abs(lon - longitudeDegrees) <= toleranceDegrees
    }
}

/// The integration tests' NMEA 0183 sources, written by the product's `NMEASentence` (the
/// simulator's builder), plus what only a test needs: a deliberately wrong checksum, and the
/// position gpsd decodes from the text.
enum NMEA {
    /// `$body*HH\r\n`; with `corruptChecksum` the checksum is off by 0x55 (so always wrong).
    static func sentence(_ body: String, corruptChecksum: Bool = false) -> String {
        guard corruptChecksum else { return NMEASentence.framed(body: body) }
        let wrong = NMEASentence.checksum(ofBody: body) ^ 0x55
        let digits = Array("0123456789ABCDEF")
        return "$\(body)*" + String([digits[Int(wrong >> 4)], digits[Int(wrong & 0xf)]]) + "\r\n"
    }

    /// Unix seconds of 2026-11-21 00:00:00 UTC: the date of every test cycle. Fixed because gpsd
    /// only needs *a* date; tests never compare receiver time with the wall clock (docs/gpsd.md §1.5 #5).
    static let dayUnixSeconds: Int64 = 1_795_219_200

    /// RMC date field of `dayUnixSeconds`.
    static let dateField = "211126"

    /// A UTC time of day, hundredths of a second since midnight (wraps at 24 h).
    struct TimeOfDay: Sendable, Hashable {
        var centiseconds: Int

        init(centiseconds: Int) { self.centiseconds = ((centiseconds % 8_640_000) + 8_640_000) % 8_640_000 }

        /// The instant on `NMEA.dayUnixSeconds`'s date.
        var utc: NMEAUTCTime {
            NMEAUTCTime(unixSeconds: NMEA.dayUnixSeconds + Int64(centiseconds / 100),
                        nanoseconds: Int32(centiseconds % 100) * 10_000_000)
        }

        /// `hhmmss.sss`
        var field: String { utc.timeField }
    }

    /// $GPRMC: status A (valid), 0.5 kn, track 45° true (`NMEASentence.rmc`).
    static func rmc(time: TimeOfDay, position: NMEAPosition) -> String {
        NMEASentence.rmc(time: time.utc, coordinate: coordinate(position),
                         speedMetersPerSecond: 0.5 * NMEASentence.metersPerSecondPerKnot, trackDegrees: 45)
    }

    /// $GPGGA: quality 1 (GPS fix), 8 satellites, HDOP 0.9, 100 m above MSL, geoid 47 m (`NMEASentence.gga`).
    static func gga(time: TimeOfDay, position: NMEAPosition) -> String {
        NMEASentence.gga(time: time.utc, coordinate: coordinate(position), altitudeMSLMeters: 100,
                         satellitesInUse: 8, hdop: 0.9, geoidSeparationMeters: 47)
    }

    /// $HCHDT: true heading, degrees (talker HC = magnetic compass, as gpsd's own tests).
    static func hdt(headingDegrees: Double) -> String {
        NMEASentence.hdt(talker: .compass, headingDegrees: headingDegrees)
    }

    /// The value gpsd decodes from `NMEASentence`'s position text: whole degrees plus minutes
    /// rounded to 6 decimals, divided by 60.
    static func decodedDegrees(_ degrees: Double) -> Double {
        var whole = Int(abs(degrees))
        var microMinutes = Int(((abs(degrees) - Double(whole)) * 60 * 1e6).rounded())
        if microMinutes >= 60_000_000 {
            whole += 1
            microMinutes -= 60_000_000
        }
        let value = Double(whole) + Double(microMinutes) / 1e6 / 60
        return degrees < 0 ? -value : value
    }

    /// `n` left-padded with zeros to `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func coordinate(_ position: NMEAPosition) -> GeoCoordinate {
        guard let c = GeoCoordinate(latitudeDegrees: position.latitudeDegrees, longitudeDegrees: position.longitudeDegrees)
        else { preconditionFailure("test source position out of range: \(position)") }
        return c
    }
}
