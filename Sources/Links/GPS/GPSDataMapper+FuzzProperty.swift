import CGPS
import FollowCore

extension GPSDataMapper {
    /// Lines of one input a fuzz run feeds to libgps (our choice: enough to chain stale fields from one
    /// report into the next, few enough to keep an execution short).
    static let fuzzLinesPerInput = 8

    /// The `gpsd-json` fuzz property (docs/fuzzing.md): `nil` if it holds for these lines, else why not.
    ///
    /// Each newline-separated line (at most ``fuzzLinesPerInput``, each cut to libgps' 10240-byte response
    /// limit) goes as the client's reads do: `set` zeroed, the line through libgps' own unpacker (`fm_unpack_line`:
    /// `gps_unpack` without its endless retry, docs/fuzzing.md) into
    /// one `gps_data_t` shared by the lines (fields persist between reports, as on a connection), classified
    /// by its prefix and mapped. No line may crash libgps or the mapper (the libFuzzer target runs this
    /// under AddressSanitizer), and nothing mapped may carry a non-finite number or a mode < 2 position:
    /// a hostile line must end as `.ignored` (counted by the client) or as a loss, never as a bad fix.
    /// Lives here, not in the Fuzzing tool module, because it needs libgps (the shell's C boundary).
    public static func fuzzViolation(jsonLines bytes: [UInt8]) -> String? {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        defer { data.deallocate() }
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")).prefix(fuzzLinesPerInput) {
            lineNumber += 1
            let buffer = Array(line.prefix(Int(fm_json_response_max) - 1)) + [0]
            let status = buffer.withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { fm_unpack_line($0.baseAddress!, data) }
            }
            guard status == 0 else { continue }  // libgps would have looped: the client drops and counts it
            let messageClass = buffer.withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { GPSDMessageClass(line: String(cString: $0.baseAddress!).prefix(20)) }
            }
            for device in [nil, "/dev/gpstarget"] {
                let outcome = map(UnsafePointer(data), messageClass: messageClass, role: .target, device: device,
                                  receivedAt: .zero)
                if let why = violation(of: outcome) { return "line \(lineNumber) (\(messageClass)): \(why)" }
            }
        }
        return nil
    }

    /// Why a mapped outcome breaks the "no NaN, no mode < 2 position" rule, or `nil`.
    private static func violation(of outcome: Outcome) -> String? {
        guard case .event(let event) = outcome else { return nil }
        switch event {
        case .fix(let fix):
            let c = fix.coordinate
            guard fix.mode.rawValue >= 2 else { return "a fix with mode \(fix.mode.rawValue)" }
            guard c.latitudeDegrees.isFinite, c.longitudeDegrees.isFinite, abs(c.latitudeDegrees) <= 90,
                  abs(c.longitudeDegrees) <= 180
            else { return "a fix at \(c.latitudeDegrees), \(c.longitudeDegrees)" }
            let optionals = [fix.altitudeHAEMeters, fix.trackDegrees, fix.speedMetersPerSecond,
                             fix.climbMetersPerSecond, fix.ephMeters, fix.epvMeters, fix.epsMetersPerSecond]
            if optionals.contains(where: { $0.map { !$0.isFinite } ?? false }) { return "a fix with a non-finite field: \(fix)" }
            return nil
        case .heading(let heading):
            return heading.headingDegrees.isFinite ? nil : "a non-finite heading"
        case .sky(let sky):
            let counts = [sky.satellitesUsed, sky.satellitesVisible].compactMap { $0 }
            let dops = [sky.hdop, sky.vdop, sky.pdop].compactMap { $0 }
            if counts.contains(where: { !(0...255).contains($0) }) { return "a satellite count out of range: \(sky)" }
            if dops.contains(where: { !$0.isFinite || $0 <= 0 }) { return "a DOP that is not finite and positive: \(sky)" }
            return nil
        default:
            return nil
        }
    }
}
