import FollowCore

/// Reads a recorded walk from an NMEA 0183 log: the valid RMC sentences' UTC time and position.
///
/// RMC field layout (NMEA 0183 v2.3, as documented in gpsd's `NMEA.adoc`, "RMC - Recommended
/// Minimum Navigation Information"): 1 UTC hhmmss.ss, 2 status A/V, 3–4 latitude ddmm.mmmm N/S,
/// 5–6 longitude dddmm.mmmm E/W, 7 speed (knots), 8 track, 9 date ddmmyy. Only status `A`
/// (valid) sentences with a correct `*hh` checksum count; any talker (GP, GN, GL…).
public enum NMEATrack {
    /// The valid RMC fixes in `text`, in file order.
    public static func points(text: String) -> [TimedCoordinate] {
        var out: [TimedCoordinate] = []
        // Character.isNewline covers "\r\n", which Swift treats as one Character.
        for rawLine in text.split(whereSeparator: \.isNewline) {
            if let p = rmc(rawLine) { out.append(p) }
        }
        return out
    }

    /// One RMC sentence as a fix; nil for anything else, a bad checksum or status V.
    static func rmc(_ line: Substring) -> TimedCoordinate? {
        guard line.first == "$", let star = line.lastIndex(of: "*") else { return nil }
        let body = line[line.index(after: line.startIndex)..<star]
        // XOR of every character between $ and * (NMEA 0183 checksum).
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        guard let given = UInt8(line[line.index(after: star)...].prefix(2), radix: 16), given == sum else { return nil }
        let f = body.split(separator: ",", omittingEmptySubsequences: false)
        guard f.count >= 10, f[0].count == 5, f[0].hasSuffix("RMC"), f[2] == "A",
              let lat = degrees(f[3], hemisphere: f[4], positive: "N", negative: "S", degreeDigits: 2),
              let lon = degrees(f[5], hemisphere: f[6], positive: "E", negative: "W", degreeDigits: 3),
              let coordinate = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon),
              let seconds = utcSeconds(time: f[1], date: f[9])
        else { return nil }
        return TimedCoordinate(timeSeconds: seconds, coordinate: coordinate)
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` → signed decimal degrees.
    static func degrees(_ field: Substring, hemisphere: Substring, positive: Substring, negative: Substring,
                        degreeDigits: Int) -> Double? {
        guard field.count > degreeDigits + 1, let whole = Double(field.prefix(degreeDigits)),
              let minutes = Double(field.dropFirst(degreeDigits)), minutes >= 0, minutes < 60
        else { return nil }
        let value = whole + minutes / 60
        if hemisphere == positive { return value }
        if hemisphere == negative { return -value }
        return nil
    }

    /// `hhmmss(.ss)` + `ddmmyy` → UTC seconds since the Unix epoch (yy < 80 → 20yy).
    static func utcSeconds(time: Substring, date: Substring) -> Double? {
        guard time.count >= 6, date.count == 6,
              let hh = Int(time.prefix(2)), let mm = Int(time.dropFirst(2).prefix(2)),
              let ss = Double(time.dropFirst(4)),
              let day = Int(date.prefix(2)), let month = Int(date.dropFirst(2).prefix(2)), let yy = Int(date.suffix(2)),
              hh < 24, mm < 60, ss >= 0, ss < 61, (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let year = yy < 80 ? 2000 + yy : 1900 + yy
        return Double(daysFromCivil(year: year, month: month, day: day) * 86400 + hh * 3600 + mm * 60) + ss
    }
}
