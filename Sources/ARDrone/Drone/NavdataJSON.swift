import ARDrone
import Links
import FlightRecords

/// JSON rendering of a decoded navdata packet for `followme drone decode` (and the state-flag
/// arrays of `status --json`), written with ShellSupport's `JSONLine`; option tags and layouts per
/// docs/ardrone-protocol.md §3.
enum NavdataJSON {
    /// Option names by tag (`navdata_keys.h`; 27 = GPS from fw 2.4, docs/ardrone-protocol.md §3.3).
    static let optionNames: [UInt16: String] = [
        0: "demo", 1: "time", 2: "raw_measures", 3: "phys_measures", 4: "gyros_offsets", 5: "euler_angles",
        6: "references", 7: "trims", 8: "rc_references", 9: "pwm", 10: "altitude", 11: "vision_raw",
        12: "vision_of", 13: "vision", 14: "vision_perf", 15: "trackers_send", 16: "vision_detect",
        17: "watchdog", 18: "adc_data_frame", 19: "video_stream", 20: "games", 21: "pressure_raw",
        22: "magneto", 23: "wind_speed", 24: "kalman_pressure", 25: "hdvideo_stream", 26: "wifi", 27: "gps",
    ]

    static func document(_ navdata: Navdata, bytes: [UInt8], file: String) -> String {
        var j = JSONLine()
        j.add("file", file)
        j.add("bytes", bytes.count)

        var header = JSONLine()
        header.add("magic", hex(navdata.magic.rawValue))
        header.add("state", hex(navdata.state.rawValue))
        header.add("sequence", Int(navdata.sequenceNumber))
        header.add("vision_flag", Int(navdata.visionFlag))
        j.addRaw("header", header.string)

        var flags = JSONLine()
        for (name, bit) in DroneState.namedBits { flags.add(name, navdata.state.contains(bit)) }
        j.addRaw("state_flags", flags.string)

        j.addRaw("options", array(navdata.options.map(option)))

        // Decoding succeeded, so the stored sum equals the byte sum before the checksum option.
        let checksumOffset = bytes.count - Navdata.checksumOptionByteCount
        let stored = bytes[(checksumOffset + 4)...].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        let computed = Navdata.checksum(of: bytes[..<checksumOffset])
        var checksum = JSONLine()
        checksum.add("value", Int(stored))
        checksum.add("valid", stored == computed)
        j.addRaw("checksum", checksum.string)
        return j.string
    }

    static func option(_ option: NavdataOption) -> String {
        var j = JSONLine()
        j.add("tag", Int(option.tag.rawValue))
        var name = optionNames[option.tag.rawValue] ?? "unknown"
        // Tag 27 is zimmu_3000 (12 bytes) in SDK 2.0.1 and GPS (216 bytes) from fw 2.4.8 (docs/ardrone-protocol.md §3.3);
        // other sizes (fw 2.4.7's 480 bytes) have no known layout.
        if case .raw = option, option.tag == .gps { name = option.wireSize == 12 ? "zimmu_3000" : "gps_unknown_layout" }
        j.add("name", name)
        j.add("size", option.wireSize)
        switch option {
        case .demo(let demo):
            j.add("ctrl_state", demo.controlStateName.lowercased())
            j.add("ctrl_state_major", Int(demo.controlStateMajor))
            j.add("ctrl_state_minor", Int(demo.controlStateMinor))
            j.add("battery_pct", Int(demo.batteryPercent))
            j.add("theta_deg", demo.thetaDegrees)
            j.add("phi_deg", demo.phiDegrees)
            j.add("psi_deg", demo.psiDegrees)
            j.add("altitude_mm", Int(demo.altitudeMillimeters))
            let v = demo.bodyVelocityMillimetersPerSecond
            j.addRaw("velocity_mm_s", vector(Double(v.x), Double(v.y), Double(v.z)))
        case .time(let time):
            j.add("seconds", Int(time.time.seconds))
            j.add("microseconds", Int(time.time.microseconds))
            j.add("milliseconds", time.time.totalMilliseconds)
        case .magneto(let m):
            j.addRaw("raw_counts", vector(Double(m.rawCounts.x), Double(m.rawCounts.y), Double(m.rawCounts.z)))
            j.addRaw("raw_mG", vector(Double(m.rawMilligauss.x), Double(m.rawMilligauss.y), Double(m.rawMilligauss.z)))
            j.addRaw("rectified_mG", vector(Double(m.rectifiedMilligauss.x), Double(m.rectifiedMilligauss.y),
                                            Double(m.rectifiedMilligauss.z)))
            j.addRaw("offset_mG", vector(Double(m.offsetMilligauss.x), Double(m.offsetMilligauss.y),
                                         Double(m.offsetMilligauss.z)))
            j.add("heading_unwrapped_deg", Double(m.headingUnwrappedDegrees))
            j.add("heading_gyro_unwrapped_deg", Double(m.headingGyroUnwrappedDegrees))
            j.add("heading_fusion_unwrapped_deg", Double(m.headingFusionUnwrappedDegrees))
            j.add("calibration_ok", m.isCalibrationOK)
            j.add("state", Int(m.magnetoState))
            j.add("radius", Double(m.radius))
            j.add("error_mean", Double(m.errorMean))
            j.add("error_variance", Double(m.errorVariance))
        case .gps(let g):
            j.add("latitude_deg", g.latitudeDegrees)
            j.add("longitude_deg", g.longitudeDegrees)
            j.add("elevation_m", g.elevationMeters)
            j.add("hdop", g.hdop)
            j.add("data_available", Int(g.dataAvailable))
            j.add("zero_validated", g.isZeroValidated)
            j.add("latitude_fused_deg", g.latitudeFusedDegrees)
            j.add("longitude_fused_deg", g.longitudeFusedDegrees)
            j.add("gps_state", Int(g.gpsState))
            j.add("speed", Double(g.speed))
            j.add("course_deg", Double(g.degree))
            j.add("ehpe", Double(g.ehpe))
            j.add("c_n0", Double(g.carrierToNoise))
            j.add("satellites", Int(g.satelliteCount))
            j.add("gps_plugged", g.isGPSPlugged)
        case .raw(let raw):
            j.add("decoded", false)
            j.add("payload_bytes", raw.payload.count)
        }
        return j.string
    }

    static func vector(_ x: Double, _ y: Double, _ z: Double) -> String {
        var j = JSONLine()
        j.add("x", x)
        j.add("y", y)
        j.add("z", z)
        return j.string
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    static func string(_ value: String) -> String {
        var quoted = ""
        JSONLine.appendString(value, to: &quoted)
        return quoted
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// A person-readable reason for a decoder error, with the byte offset where it applies.
    static func describe(_ error: NavdataDecodingError) -> String {
        switch error {
        case .packetTooShort(let count, let minimum):
            "\(count) bytes, shorter than the \(minimum)-byte minimum (header + checksum option)"
        case .packetTooLong(let count, let maximum):
            "\(count) bytes, longer than NAVDATA_MAX_SIZE \(maximum)"
        case .badMagic(let found):
            "header magic \(hex(found)) is neither 0x55667788 nor 0x55667789"
        case .truncatedOptionHeader(let offset, let remaining):
            "option header at byte \(offset) is cut off (\(remaining) bytes left)"
        case .invalidOptionSize(let tag, let offset, let size):
            "option tag \(tag) at byte \(offset) has size \(size) (< 4)"
        case .optionExceedsPacket(let tag, let offset, let size, let remaining):
            "option tag \(tag) at byte \(offset) claims \(size) bytes but only \(remaining) remain"
        case .optionTooShort(let tag, let offset, let size, let minimum):
            "option tag \(tag) at byte \(offset) is \(size) bytes, its layout needs \(minimum)"
        case .invalidChecksumOptionSize(let offset, let size):
            "checksum option at byte \(offset) has size \(size), not 8"
        case .checksumMismatch(let stored, let computed):
            "checksum mismatch: stored \(stored), computed \(computed)"
        case .missingChecksum:
            "no checksum option at the end"
        case .bytesAfterChecksum(let offset, let count):
            "\(count) stray bytes after the checksum option at byte \(offset)"
        }
    }
}
