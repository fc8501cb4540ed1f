#if canImport(Glibc)
import Glibc
#endif

/// The real navdata captures of `Tests/ARDroneTests/ARDroneProtocol/Fixtures/` (provenance in PROVENANCE.md
/// there), read once from the repository, plus two packets derived from the fw 2.4.8 capture:
/// - `demo-172B`: its header and demo option (bytes [0, 164)) with a checksum option, as
///   `NavdataFuzzer`'s corpus derives it;
/// - `demo-default-500B`: FollowMe's steady state on a real drone — demo mode with the firmware's
///   default `general:navdata_options` (demo + vision_detect, docs/ardrone-protocol.md §1.3):
///   the capture's header, demo option (148 B) and vision_detect option (328 B), then a checksum.
enum NavdataCaptures {
    static let fixturesDirectory: String = {
        // <repo>/Performance/Benchmarks/FollowMeBenchmarks/NavdataCaptures.swift → <repo>
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/") + "/Tests/ARDroneTests/ARDroneProtocol/Fixtures"
    }()

    /// (benchmark name, packet bytes).
    static func all() -> [(name: String, bytes: [UInt8])] {
        let fw248 = read("node-ar-drone_navdata_full_fw248-gps.bin")
        var demoOnly = Array(fw248.prefix(164))
        let sum = demoOnly.reduce(UInt32(0)) { $0 &+ UInt32($1) }
        demoOnly += [0xFF, 0xFF, 0x08, 0x00]   // checksum option: tag 0xFFFF, size 8 (navdata_common.h)
        demoOnly += [UInt8(sum & 0xFF), UInt8(sum >> 8 & 0xFF), UInt8(sum >> 16 & 0xFF), UInt8(sum >> 24)]
        // Options walked by size from the header (16 B); keep tags 0 (demo) and 16 (vision_detect).
        var demoDefault = Array(fw248.prefix(16))
        var offset = 16
        while offset + 4 <= fw248.count {
            let tag = Int(fw248[offset]) | Int(fw248[offset + 1]) << 8
            let size = Int(fw248[offset + 2]) | Int(fw248[offset + 3]) << 8
            if tag == 0xFFFF || size < 4 { break }
            if tag == 0 || tag == 16 { demoDefault += fw248[offset..<(offset + size)] }
            offset += size
        }
        let defaultSum = demoDefault.reduce(UInt32(0)) { $0 &+ UInt32($1) }
        demoDefault += [0xFF, 0xFF, 0x08, 0x00]
        demoDefault += [UInt8(defaultSum & 0xFF), UInt8(defaultSum >> 8 & 0xFF), UInt8(defaultSum >> 16 & 0xFF),
                        UInt8(defaultSum >> 24)]
        precondition(demoDefault.count == 16 + 148 + 328 + 8, "demo-default packet: \(demoDefault.count) bytes")
        return [
            ("demo-172B", demoOnly),
            ("demo-default-500B", demoDefault),
            ("bootstrap-24B", read("navdata_bootstrap_24byte_forum.bin")),
            ("fw2.4.8-GPS216-2120B", fw248),
            ("full-2012-1916B", read("node-ar-drone_navdata_full_2012.bin")),
            ("fw2.4.7-GPS480-2384B", read("node-ar-drone_navdata_full_fw247-gps480.bin")),
        ]
    }

    private static func read(_ name: String) -> [UInt8] {
        let path = fixturesDirectory + "/" + name
        guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
