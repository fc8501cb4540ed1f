/// One recording of the flight as the report page shows it (docs/video.md §7): the MP4 linked by a
/// relative URL (or, with only the raw stream, the command that makes the MP4), the table that maps
/// the MP4's time to the timeline's, and the thumbnail strip. Pure values: the caller found the files,
/// muxed, and ran ffmpeg for the thumbnails.
public struct FlightReportVideo: Sendable, Hashable {
    /// One point of the time table: this far into the MP4 shows this moment of the timeline.
    public struct TimePoint: Sendable, Hashable {
        public var videoSeconds: Double
        public var timelineSeconds: Double

        public init(videoSeconds: Double, timelineSeconds: Double) {
            (self.videoSeconds, self.timelineSeconds) = (videoSeconds, timelineSeconds)
        }
    }

    /// One picture of the strip: a JPEG, and where it lies in the MP4 and on the timeline.
    public struct Thumbnail: Sendable, Hashable {
        public var videoSeconds: Double
        public var timelineSeconds: Double
        /// The JPEG's bytes (drawn inline as a `data:` URI: the page stays one file).
        public var jpeg: [UInt8]

        public init(videoSeconds: Double, timelineSeconds: Double, jpeg: [UInt8]) {
            (self.videoSeconds, self.timelineSeconds, self.jpeg) = (videoSeconds, timelineSeconds, jpeg)
        }
    }

    /// The recording's id (`2026-12-07T150102Z`).
    public var id: String
    /// The MP4 as a relative URL from the page (percent-encoded); nil when there is no MP4.
    public var mp4Href: String?
    /// The raw stream's path, as the page names it.
    public var rawPath: String
    /// The one line that makes the MP4 (`followme video mux …`), shown when there is none.
    public var muxCommand: String
    /// Frames in the recording and the rate the MP4 plays them at.
    public var frameCount: Int
    public var framesPerSecond: Double
    /// MP4 time → timeline time, ascending in both (interpolated linearly between points).
    public var timeTable: [TimePoint]
    public var thumbnails: [Thumbnail]
    /// Why the strip is empty or short (no ffmpeg, ffmpeg failed); nil when it is complete.
    public var thumbnailsNote: String?
    /// Lines under the recording's title (muxed by this report, …).
    public var notes: [String]

    public init(id: String, mp4Href: String?, rawPath: String, muxCommand: String, frameCount: Int, framesPerSecond: Double,
                timeTable: [TimePoint], thumbnails: [Thumbnail] = [], thumbnailsNote: String? = nil, notes: [String] = []) {
        (self.id, self.mp4Href, self.rawPath, self.muxCommand) = (id, mp4Href, rawPath, muxCommand)
        (self.frameCount, self.framesPerSecond, self.timeTable) = (frameCount, framesPerSecond, timeTable)
        (self.thumbnails, self.thumbnailsNote, self.notes) = (thumbnails, thumbnailsNote, notes)
    }

    /// A recording from its index, on a timeline whose 0 is host time `logStartSeconds`: the time
    /// table (`VideoIndex.timeTable`), the frame count and rate. Thumbnails are added by the caller.
    public init(id: String, index: VideoIndex, logStartSeconds: Double, mp4Href: String?, rawPath: String,
                muxCommand: String, maxTablePoints: Int = 1200) {
        self.init(id: id, mp4Href: mp4Href, rawPath: rawPath, muxCommand: muxCommand, frameCount: index.frames.count,
                  framesPerSecond: index.framesPerSecond,
                  timeTable: index.timeTable(maxPoints: maxTablePoints).map {
                      TimePoint(videoSeconds: $0.videoSeconds, timelineSeconds: $0.hostSeconds - logStartSeconds)
                  })
    }

    /// Seconds the MP4 lasts.
    public var videoSeconds: Double { framesPerSecond > 0 ? Double(frameCount) / framesPerSecond : 0 }

    /// The timeline's seconds from the first frame to the last; nil without frames.
    public var timelineSpan: ClosedRange<Double>? {
        guard let first = timeTable.first?.timelineSeconds, let last = timeTable.last?.timelineSeconds else { return nil }
        return min(first, last)...max(first, last)
    }

    /// The timeline's time shown `videoSeconds` into the MP4, as the page's script computes it: linear
    /// between the table's points, clamped to its ends; nil without a table.
    public func timelineSeconds(atVideoSeconds video: Double) -> Double? {
        guard let first = timeTable.first, let last = timeTable.last else { return nil }
        if video <= first.videoSeconds { return first.timelineSeconds }
        if video >= last.videoSeconds { return last.timelineSeconds }
        var low = 0, high = timeTable.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if timeTable[mid].videoSeconds > video { high = mid } else { low = mid }
        }
        let a = timeTable[low], b = timeTable[high]
        let span = b.videoSeconds - a.videoSeconds
        return span > 0 ? a.timelineSeconds + (video - a.videoSeconds) / span * (b.timelineSeconds - a.timelineSeconds) : a.timelineSeconds
    }

    /// The table as the page's `data-map` attribute: `video,timeline` pairs (3 decimals) separated by spaces.
    var mapAttribute: String {
        timeTable.map { "\(fixed($0.videoSeconds, decimals: 3)),\(fixed($0.timelineSeconds, decimals: 3))" }.joined(separator: " ")
    }
}

extension FlightReportVideo {
    /// `path` relative to `directory` (both absolute or both relative to the same place, already
    /// standardized): `video/ID.mp4` for `out/demo/video/ID.mp4` from `out/demo`, `../v/ID.mp4` across.
    public static func relativePath(_ path: String, from directory: String) -> String {
        let target = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let base = directory.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        var common = 0
        while common < min(target.count - 1, base.count), target[common] == base[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }

    /// A relative path as a URL path: every byte but unreserved characters and `/` percent-encoded
    /// (a space, `#`, `?`, `%` in a directory's name stay part of the path).
    public static func urlPath(_ relativePath: String) -> String {
        var out = ""
        for byte in relativePath.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// Standard base64 of `bytes` (RFC 4648, with padding).
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int((n >> 18) & 63)])
            out.append(alphabet[Int((n >> 12) & 63)])
            out.append(rest == 2 ? alphabet[Int((n >> 6) & 63)] : "=")
            out.append("=")
        }
        return String(out)
    }
}
