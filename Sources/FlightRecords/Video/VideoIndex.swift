import Foundation

/// A recording's index (`<id>.video.jsonl`, docs/video.md §3) as values: the frames written, in the
/// order they lie in the raw file (and play in the MP4), each with its host time on the flight log's
/// clock. Pure: built from the index's text, no file read here.
public struct VideoIndex: Sendable, Hashable {
    /// One frame written.
    public struct Frame: Sendable, Hashable {
        /// The PaVE frame number (the drone's count; it need not start at 0 nor be consecutive).
        public var number: Int
        /// The drone's time stamp, milliseconds on its clock.
        public var droneMilliseconds: Double
        /// Host seconds on the flight log's clock (`t` of its lines) when the frame's last byte was read.
        public var hostSeconds: Double
        /// `idr`, `i`, `p`, … as the index writes it.
        public var type: String

        public init(number: Int, droneMilliseconds: Double, hostSeconds: Double, type: String = "p") {
            (self.number, self.droneMilliseconds, self.hostSeconds, self.type) = (number, droneMilliseconds, hostSeconds, type)
        }
    }

    /// Host seconds when the recording opened (the first line's `t`); nil without a header.
    public var openedHostSeconds: Double?
    /// The frames, in file order.
    public var frames: [Frame]

    public init(openedHostSeconds: Double? = nil, frames: [Frame]) {
        (self.openedHostSeconds, self.frames) = (openedHostSeconds, frames)
    }

    /// Parses an index's text: the header (`"video":…`) gives `openedHostSeconds`; every line with
    /// `frame`, `drone_ms` and `t` is a frame; other lines (blank, torn at the end, foreign) are skipped.
    public init(text: String) {
        var opened: Double?
        var frames: [Frame] = []
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            let t = (object["t"] as? NSNumber)?.doubleValue
            if object["video"] != nil {
                if opened == nil { opened = t }
                continue
            }
            guard let t, t.isFinite, let number = (object["frame"] as? NSNumber)?.intValue,
                  let ms = (object["drone_ms"] as? NSNumber)?.doubleValue else { continue }
            frames.append(Frame(number: number, droneMilliseconds: ms, hostSeconds: t, type: object["type"] as? String ?? ""))
        }
        self.init(openedHostSeconds: opened, frames: frames)
    }

    /// Host seconds of the first and the last frame; nil without frames.
    public var hostSpan: ClosedRange<Double>? {
        guard let first = frames.first?.hostSeconds, let last = frames.last?.hostSeconds else { return nil }
        return min(first, last)...max(first, last)
    }

    /// Frames per second the MP4 plays at, the rate `followme video mux` muxes at (`VideoMux.framesPerSecond`):
    /// (frames − 1) × 1000 over the drone time stamps' span, so the MP4 lasts as long as the recording; 30 when
    /// the index cannot say.
    public var framesPerSecond: Double {
        guard frames.count >= 2, let first = frames.first?.droneMilliseconds, let last = frames.last?.droneMilliseconds,
              last > first else { return 30 }
        let fps = Double(frames.count - 1) * 1000 / (last - first)
        return fps.isFinite && (1...120).contains(fps) ? fps : 30
    }

    /// Seconds the MP4 lasts: one frame period per frame.
    public var videoSeconds: Double { Double(frames.count) / framesPerSecond }

    /// The host time shown at `videoSeconds` into the MP4: frame k plays from k / rate, its host time
    /// from the index; between two frames, linear. Clamped to the first and last frame; nil without frames.
    public func hostSeconds(atVideoSeconds video: Double) -> Double? {
        guard let first = frames.first else { return nil }
        let position = max(0, video.isFinite ? video : 0) * framesPerSecond
        let k = Int(position)
        guard k + 1 < frames.count else { return frames.last?.hostSeconds ?? first.hostSeconds }
        let fraction = position - Double(k)
        return frames[k].hostSeconds + fraction * (frames[k + 1].hostSeconds - frames[k].hostSeconds)
    }

    /// The MP4's time showing host time `host`: the first frame at or after it (a moment in a gap
    /// between connections shows the frame after the gap), k / rate; nil outside the frames' host span.
    public func videoSeconds(atHostSeconds host: Double) -> Double? {
        guard let span = hostSpan, span.contains(host) else { return nil }
        var low = 0, high = frames.count - 1
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].hostSeconds < host { low = mid + 1 } else { high = mid }
        }
        return Double(low) / framesPerSecond
    }

    /// Up to `maxPoints` (video seconds, host seconds) pairs along the recording, first and last frame
    /// included, evenly by frame: the table a page interpolates linearly between (`maxPoints` ≥ 2).
    public func timeTable(maxPoints: Int = 1200) -> [(videoSeconds: Double, hostSeconds: Double)] {
        guard !frames.isEmpty else { return [] }
        let rate = framesPerSecond
        let stride = max(1, Int((Double(frames.count) / Double(max(maxPoints - 1, 1))).rounded(.up)))
        var ks = Array(Swift.stride(from: 0, to: frames.count, by: stride))
        if ks.last != frames.count - 1 { ks.append(frames.count - 1) }
        return ks.map { (Double($0) / rate, frames[$0].hostSeconds) }
    }

    /// `count` frame positions (0-based, in file order) evenly over the recording: the middle of each of
    /// `count` equal slices, distinct and ascending; fewer when the recording has fewer frames.
    public func evenFramePositions(count: Int) -> [Int] {
        guard count > 0, !frames.isEmpty else { return [] }
        let n = frames.count
        var positions: [Int] = []
        for i in 0..<min(count, n) {
            let k = min(n - 1, Int((Double(i) + 0.5) * Double(n) / Double(min(count, n))))
            if positions.last != k { positions.append(k) }
        }
        return positions
    }
}
