import ARDrone
import FlightService

/// The properties the libFuzzer targets check on one input, one function per target.
///
/// Each returns `nil` when the input keeps the property, or why it breaks it. The same functions run
/// in two places: inside the libFuzzer entry points of `Fuzz/Targets/` (built by `scripts/fuzz.sh`
/// with AddressSanitizer; a violation becomes a crash through ``enforce(_:_:)``), and in the unit
/// tests, which replay every file of `Fuzz/corpus/<target>/` and `Fuzz/findings/<target>/` without a
/// sanitizer. The gpsd-json target's property needs libgps and `GPSDataMapper`, so it lives next
/// to them (`GPSDataMapper.fuzzViolation(jsonLines:)` in GPSClient): this tool module stays off the shell.
public enum FuzzProperty {
    /// `navdata`: `Navdata(bytes:)` and `NavdataSummary(bytes:)` give the same verdict (the same
    /// error, or the same fields, compared by bits because fuzzed floats include NaNs), and every
    /// accepted packet re-encodes byte-exact.
    public static func navdata(_ bytes: [UInt8]) -> String? {
        let full = Result { () throws(NavdataDecodingError) in try Navdata(bytes: bytes) }
        let summary = Result { () throws(NavdataDecodingError) in try NavdataSummary(bytes: bytes) }
        switch (full, summary) {
        case (.success(let navdata), .success(let summary)):
            guard let reencoded = try? navdata.encoded() else { return "an accepted packet does not encode" }
            if reencoded != bytes { return "an accepted packet re-encodes to \(reencoded.count) different bytes" }
            if bitPattern(summary) != bitPattern(NavdataSummary(navdata)) {
                return "NavdataSummary fields differ from Navdata's: \(summary) vs \(NavdataSummary(navdata))"
            }
            return nil
        case (.failure(let a), .failure(let b)):
            return a == b ? nil : "the decoders reject with different errors: \(a) vs \(b)"
        default:
            return "the decoders disagree: full \(full), summary \(summary)"
        }
    }

    /// `at`: every datagram `ATDecoder` accepts re-encodes, with the decoded sequence numbers, to
    /// the same bytes.
    public static func at(_ bytes: [UInt8]) -> String? {
        guard let commands = try? ATDecoder.decode(bytes) else { return nil }
        var reencoded: [UInt8] = []
        for sequenced in commands {
            do {
                try ATEncoder.append(sequenced.command, sequenceNumber: sequenced.sequenceNumber, to: &reencoded)
            } catch {
                return "decoded \(sequenced) does not encode: \(error)"
            }
        }
        return reencoded == bytes ? nil : "an accepted datagram re-encodes differently: \(reencoded)"
    }

    /// `config`: parsing (as UTF-8, as the shell reads the file) returns a configuration that renders
    /// to TOML parsing back equal, or throws problems that keep `parse`'s contract: every problem
    /// names the file and a line inside it, every problem but a syntax error names a key
    /// (``ConfigFuzzer/invariantViolation(_:text:)``). A crash or trap in toml++ is the libFuzzer run's failure.
    public static func config(_ bytes: [UInt8]) -> String? {
        var report = ConfigFuzzReport()
        ConfigFuzzer.check(String(decoding: bytes, as: UTF8.self), into: &report)
        if let violation = report.firstInvariantViolation { return violation.reason }
        if report.roundTripMismatchCount > 0 { return "an accepted configuration does not survive render → parse" }
        return nil
    }

    /// The libFuzzer side: traps with the target and the violation, so libFuzzer saves the input.
    public static func enforce(_ target: String, _ violation: String?) {
        if let violation { fatalError("fuzz property of \(target) violated: \(violation)") }
    }

    /// A summary's fields as bytes (a demo-only packet plus the option count): equal bits, equal fields.
    private static func bitPattern(_ summary: NavdataSummary) -> [UInt8]? {
        let packet = Navdata {
            ($0.magic, $0.state, $0.sequenceNumber) = (summary.magic, summary.state, summary.sequenceNumber)
            ($0.visionFlag, $0.options) = (summary.visionFlag, summary.demo.map { [.demo($0)] } ?? [])
        }
        return (try? packet.encoded()).map { $0 + withUnsafeBytes(of: summary.optionCount.littleEndian, Array.init) }
    }
}
