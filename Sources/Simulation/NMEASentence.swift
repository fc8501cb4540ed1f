import FollowCore

/// A two-letter NMEA 0183 talker identifier (the `GP` of `$GPRMC`).
///
/// Only two upper-case ASCII letters are valid (NMEA 0183 §5.3 "talker identifier"), so a talker
/// that would garble a sentence cannot exist.
public struct NMEATalker: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// Fails unless `rawValue` is exactly two letters A–Z.
    public init?(_ rawValue: String) {
        let bytes = Array(rawValue.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// `GP`: GPS receiver.
    public static let gps = NMEATalker(unchecked: "GP")
    /// `GN`: multi-constellation GNSS receiver.
    public static let gnss = NMEATalker(unchecked: "GN")
    /// `HC`: magnetic compass (what gpsd's own tests use for `$HCHDT`).
    public static let compass = NMEATalker(unchecked: "HC")

    public var description: String { rawValue }
}

/// A UTC instant broken into the calendar fields NMEA sentences carry.
///
/// Built from Unix seconds with the proleptic Gregorian calendar (H. Hinnant, "chrono-Compatible
/// Low-Level Date Algorithms", `civil_from_days`); sub-second time is truncated to milliseconds
/// (never rounded, so 23:59:59.9999 cannot become 24:00:00.000).
public struct NMEAUTCTime: Sendable, Hashable {
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31.
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Milliseconds, 0–999.
    public let milliseconds: Int

    /// The UTC calendar time of `unixSeconds` + `nanoseconds` (nanoseconds may be any value; it is
    /// carried into the seconds).
    public init(unixSeconds: Int64, nanoseconds: Int32 = 0) {
        var seconds = unixSeconds + Int64(nanoseconds) / 1_000_000_000
        var nanos = Int64(nanoseconds) % 1_000_000_000
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let civil = Self.civil(fromDaysSinceEpoch: days)
        year = civil.year
        month = civil.month
        day = civil.day
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay / 60 % 60)
        second = Int(secondOfDay % 60)
        milliseconds = Int(nanos / 1_000_000)
    }

    /// The UTC time of a receiver timestamp.
    public init(_ fixTime: FixTime) {
        self.init(unixSeconds: fixTime.seconds, nanoseconds: fixTime.nanoseconds)
    }

    /// `hhmmss.sss` (RMC and GGA field 1; three decimals as SiRF receivers send, e.g.
    /// `030719.000` in gpsd's bu353s4.log). Milliseconds matter: a drone at 3 m/s moves 3 cm in 10 ms.
    public var timeField: String {
        NMEASentence.zeroPadded(hour, 2) + NMEASentence.zeroPadded(minute, 2) + NMEASentence.zeroPadded(second, 2)
            + "." + NMEASentence.zeroPadded(milliseconds, 3)
    }

    /// `ddmmyy` (RMC field 9; the century is implied, gpsd infers it).
    public var dateField: String {
        NMEASentence.zeroPadded(day, 2) + NMEASentence.zeroPadded(month, 2) + NMEASentence.zeroPadded(year % 100, 2)
    }

    /// `civil_from_days` (Hinnant): days since 1970-01-01 → proleptic Gregorian date.
    private static func civil(fromDaysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

/// Builds the NMEA 0183 sentences a GPS receiver sends and gpsd reads: GGA, GSA, RMC and HDT.
///
/// Framing `$<body>*<hh>\r\n`, `hh` = XOR of every byte between `$` and `*` as two upper-case hex
/// digits (NMEA 0183 §5.2.1; gpsd `driver_nmea0183.c` drops sentences whose checksum is wrong).
/// Field layouts follow gpsd's "NMEA Revealed" (gpsd.gitlab.io/gpsd/NMEA.html). Positions are
/// written as `ddmm.mmmmmm` / `dddmm.mmmmmm`: six decimals of a minute are 1.9 mm of latitude, so
/// the text never costs the simulator more than a few millimetres.
public enum NMEASentence {
    /// Metres per second in one knot: 1 kn = 1852 m/h exactly (international nautical mile, BIPM SI
    /// brochure Table 8).
    public static let metersPerSecondPerKnot = 1852.0 / 3600.0
    /// Decimals of a minute of arc in position fields (1e-6 min ≈ 1.9 mm).
    public static let minuteFractionDigits = 6

    /// XOR of the bytes of `body` (the text between `$` and `*`).
    public static func checksum(ofBody body: String) -> UInt8 {
        body.utf8.reduce(0) { $0 ^ $1 }
    }

    /// `$<body>*<hh>\r\n` with the correct checksum.
    public static func framed(body: String) -> String {
        "$" + body + "*" + hexByte(checksum(ofBody: body)) + "\r\n"
    }

    /// Speed in knots for a speed in m/s.
    public static func knots(fromMetersPerSecond speed: Double) -> Double {
        speed / metersPerSecondPerKnot
    }

    /// Latitude as `ddmm.mmmmmm` and its hemisphere `N`/`S` (negative = south).
    public static func latitudeFields(_ latitudeDegrees: Double) -> (value: String, hemisphere: String) {
        (angleField(abs(latitudeDegrees), degreeDigits: 2), latitudeDegrees < 0 ? "S" : "N")
    }

    /// Longitude as `dddmm.mmmmmm` and its hemisphere `E`/`W` (negative = west).
    public static func longitudeFields(_ longitudeDegrees: Double) -> (value: String, hemisphere: String) {
        (angleField(abs(longitudeDegrees), degreeDigits: 3), longitudeDegrees < 0 ? "W" : "E")
    }

    /// `$xxRMC`: recommended minimum data (NMEA 2.3 layout with the mode indicator).
    ///
    /// `time,A,lat,N,lon,E,speed(kn),track(°true),date,magvar,magvarE/W,mode` with status `A`
    /// (valid) and mode `A` (autonomous). A nil track (receiver standing still) is an empty field.
    public static func rmc(
        talker: NMEATalker = .gps,
        time: NMEAUTCTime,
        coordinate: GeoCoordinate,
        speedMetersPerSecond: Double,
        trackDegrees: Double?
    ) -> String {
        let (lat, ns) = latitudeFields(coordinate.latitudeDegrees)
        let (lon, ew) = longitudeFields(coordinate.longitudeDegrees)
        let speed = speedMetersPerSecond.isFinite ? max(0, speedMetersPerSecond) : 0
        let track = trackDegrees.flatMap { $0.isFinite ? decimal(headingInRange($0, fractionDigits: 2), fractionDigits: 2) : nil } ?? ""
        let fields = [
            talker.rawValue + "RMC", time.timeField, "A", lat, ns, lon, ew,
            decimal(knots(fromMetersPerSecond: speed), fractionDigits: 3), track, time.dateField, "", "", "A",
        ]
        return framed(body: fields.joined(separator: ","))
    }

    /// `$xxGGA`: fix data.
    ///
    /// `time,lat,N,lon,E,quality,satellites,hdop,altitude,M,geoid separation,M,,` with quality 1
    /// (GPS fix). Altitude is above mean sea level; gpsd reports altHAE = altitude + separation.
    /// The default satellite count and HDOP are plausible open-sky values (our choice; gpsd only
    /// derives its error estimates from them).
    public static func gga(
        talker: NMEATalker = .gps,
        time: NMEAUTCTime,
        coordinate: GeoCoordinate,
        altitudeMSLMeters: Double,
        satellitesInUse: Int = 10,
        hdop: Double = 0.9,
        geoidSeparationMeters: Double = 0
    ) -> String {
        let (lat, ns) = latitudeFields(coordinate.latitudeDegrees)
        let (lon, ew) = longitudeFields(coordinate.longitudeDegrees)
        let fields = [
            talker.rawValue + "GGA", time.timeField, lat, ns, lon, ew, "1", zeroPadded(max(0, min(satellitesInUse, 99)), 2),
            decimal(hdop, fractionDigits: 1), decimal(altitudeMSLMeters, fractionDigits: 2), "M",
            decimal(geoidSeparationMeters, fractionDigits: 1), "M", "", "",
        ]
        return framed(body: fields.joined(separator: ","))
    }

    /// `$xxGSA`: DOP and active satellites, with mode `A` (automatic) and fix type 3 (3-D).
    ///
    /// Twelve PRN fields (unused ones empty), then PDOP, HDOP, VDOP. Sending it tells gpsd the fix
    /// is 3-D from the first cycle, as a real receiver does. Default PRNs and DOPs are plausible
    /// open-sky values (our choice), with PDOP² = HDOP² + VDOP².
    public static func gsa(
        talker: NMEATalker = .gps,
        satellitePRNs: [Int] = Array(1...10),
        pdop: Double = 1.6,
        hdop: Double = 0.9,
        vdop: Double = 1.3
    ) -> String {
        var prns = satellitePRNs.prefix(12).map { zeroPadded(max(1, min($0, 99)), 2) }
        prns += Array(repeating: "", count: 12 - prns.count)
        let fields = [talker.rawValue + "GSA", "A", "3"] + prns
            + [decimal(pdop, fractionDigits: 1), decimal(hdop, fractionDigits: 1), decimal(vdop, fractionDigits: 1)]
        return framed(body: fields.joined(separator: ","))
    }

    /// `$xxHDT`: true heading, degrees in [0, 360) with two decimals (gpsd reports it as ATT
    /// `heading`).
    public static func hdt(talker: NMEATalker = .gps, headingDegrees: Double) -> String {
        framed(body: talker.rawValue + "HDT," + decimal(headingInRange(headingDegrees, fractionDigits: 2), fractionDigits: 2) + ",T")
    }

    /// GGA, GSA, RMC for one fix (the order SiRF receivers use, e.g. gpsd's bu353s4.log), or nil
    /// if the fix has no receiver time (NMEA needs one).
    ///
    /// GGA altitude = `altitudeHAEMeters − geoidSeparationMeters` (0 when the fix has none).
    public static func fixSentences(
        _ fix: GPSFix, talker: NMEATalker = .gps, geoidSeparationMeters: Double = 0
    ) -> String? {
        guard let fixTime = fix.fixTime else { return nil }
        let time = NMEAUTCTime(fixTime)
        return gga(talker: talker, time: time, coordinate: fix.coordinate,
                   altitudeMSLMeters: (fix.altitudeHAEMeters ?? 0) - geoidSeparationMeters,
                   geoidSeparationMeters: geoidSeparationMeters)
            + gsa(talker: talker)
            + rmc(talker: talker, time: time, coordinate: fix.coordinate,
                  speedMetersPerSecond: fix.speedMetersPerSecond ?? 0, trackDegrees: fix.trackDegrees)
    }

    /// HDT for a heading report.
    public static func headingSentence(_ report: HeadingReport, talker: NMEATalker = .gps) -> String {
        hdt(talker: talker, headingDegrees: report.headingDegrees)
    }

    // MARK: Formatting

    /// `value` rounded half away from zero to `fractionDigits` decimals, without Foundation
    /// (`-0.004` with 2 digits is `0.00`, never `-0.00`). Non-finite values become an empty field.
    public static func decimal(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<max(0, fractionDigits) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "" }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        let whole = String(units / divisor)
        return fractionDigits > 0 ? sign + whole + "." + zeroPadded(Int(units % divisor), fractionDigits) : sign + whole
    }

    /// `n` in decimal, left-padded with zeros to `width` digits.
    static func zeroPadded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A heading normalised to [0, 360) *after* rounding, so 359.999 becomes 0.00, not 360.00.
    private static func headingInRange(_ degrees: Double, fractionDigits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let rounded = (normalizedDegrees360(degrees) * scale).rounded() / scale
        return rounded >= 360 ? 0 : rounded
    }

    /// Whole degrees (`degreeDigits` wide) then minutes `mm.mmmmmm`, rounding in integer
    /// micro-minutes so 59.9999999′ carries into the degrees instead of printing `60.000000`.
    private static func angleField(_ degrees: Double, degreeDigits: Int) -> String {
        var whole = Int(degrees)
        var scale = 1.0
        for _ in 0..<minuteFractionDigits { scale *= 10 }
        let perMinute = Int(scale)
        var fractionOfMinutes = Int(((degrees - Double(whole)) * 60 * scale).rounded())
        if fractionOfMinutes >= 60 * perMinute {
            whole += 1
            fractionOfMinutes -= 60 * perMinute
        }
        return zeroPadded(whole, degreeDigits) + zeroPadded(fractionOfMinutes / perMinute, 2) + "."
            + zeroPadded(fractionOfMinutes % perMinute, minuteFractionDigits)
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
