/// Splits an H.264 Annex B stream (start codes `00 00 01` / `00 00 00 01`) into access units, for the
/// simulated drone's video (docs/video.md §4).
///
/// A new access unit starts at an access unit delimiter (NAL type 9), an SPS (7) or PPS (8) or SEI (6)
/// that follows a slice, or a slice (1, 5) whose first_mb_in_slice is 0 (its first bit after the
/// NAL header is 1 in Exp-Golomb) when the unit already holds a slice. Enough for what ffmpeg's
/// libx264 writes; not a general parser.
public enum H264AccessUnits {
    /// One access unit: its bytes (start codes included) and whether it holds an IDR slice.
    public struct Unit: Sendable, Equatable {
        public var bytes: [UInt8]
        public var isIDR: Bool
    }

    /// The access units of `stream`, in order; bytes before the first start code are dropped.
    public static func split(_ stream: [UInt8]) -> [Unit] {
        var starts: [Int] = []  // offsets of each start code (its first 0x00)
        var i = 0
        while i + 3 <= stream.count {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 1 {
                starts.append(i > 0 && stream[i - 1] == 0 ? i - 1 : i)
                i += 3
            } else {
                i += 1
            }
        }
        var units: [Unit] = []
        var current: [UInt8] = [], hasSlice = false, isIDR = false
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : stream.count
            var header = start
            while stream[header] == 0 { header += 1 }
            header += 1  // past the 0x01
            guard header < end else { continue }
            let type = stream[header] & 0x1F
            let isSlice = type == 1 || type == 5
            let firstMB = isSlice && header + 1 < end && stream[header + 1] & 0x80 != 0
            let startsUnit = type == 9 || (hasSlice && (type == 6 || type == 7 || type == 8 || (isSlice && firstMB)))
            if startsUnit, !current.isEmpty {
                units.append(Unit(bytes: current, isIDR: isIDR))
                (current, hasSlice, isIDR) = ([], false, false)
            }
            current += stream[start..<end]
            if isSlice { hasSlice = true }
            if type == 5 { isIDR = true }
        }
        if !current.isEmpty { units.append(Unit(bytes: current, isIDR: isIDR)) }
        return units
    }
}
