import ARDrone

extension FuzzProperty {
    /// The reader limits the `pave` target checks with: small, so short inputs reach the caps.
    static let paveLimits = PaVEReader.Limits(maxHeaderBytes: 96, maxPayloadBytes: 1024)

    /// `pave`: bytes from the AR.Drone's TCP video port (docs/video.md §2), read by `PaVEReader`:
    /// - the reader returns the same frames and counters whether the bytes arrive at once, cut in two
    ///   at a place the input chooses (its first byte), or in pieces of 1 to 8 bytes (sizes from its second);
    /// - every frame is a run of the input at its `streamOffset`: its header's fields read from there,
    ///   its payload follows the header;
    /// - every byte is in a frame, skipped, or pending, and the reader never holds more than its cap.
    public static func pave(_ bytes: [UInt8]) -> String? {
        var whole = PaVEReader(limits: paveLimits)
        let atOnce = whole.read(bytes)
        var split = PaVEReader(limits: paveLimits)
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let inTwo = split.read(bytes[..<cut]) + split.read(bytes[cut...])
        if atOnce != inTwo || whole.counters != split.counters || whole.pendingByteCount != split.pendingByteCount {
            return "the reader reads the bytes differently when they arrive cut at \(cut)"
        }
        var small = PaVEReader(limits: paveLimits)
        var inPieces: [PaVEFrame] = []
        var start = 0, piece = bytes.count > 1 ? Int(bytes[1]) : 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int(UInt(bitPattern: piece) % 8) + 1)
            inPieces += small.read(bytes[start..<end])
            if small.pendingByteCount > paveLimits.maxBufferedBytes { return "the reader holds more than its cap" }
            (start, piece) = (end, piece &* 5 &+ 3)
        }
        if inPieces != atOnce || small.counters != whole.counters {
            return "the reader reads the bytes differently when they arrive in pieces of 1 to 8 bytes"
        }
        for frame in atOnce {
            let start = Int(frame.streamOffset), headerSize = Int(frame.header.headerSize)
            let end = start + headerSize + frame.payload.count
            guard end <= bytes.count, PaVEHeader(bytes: bytes[start...]) == frame.header,
                  Array(bytes[(start + headerSize)..<end]) == frame.payload
            else { return "a frame is not the run of the input at its offset \(start)" }
        }
        let c = whole.counters
        if c.bytesRead != UInt64(bytes.count) || c.frameBytes + c.bytesSkipped + UInt64(whole.pendingByteCount) != c.bytesRead {
            return "bytes unaccounted for: \(c), pending \(whole.pendingByteCount)"
        }
        return nil
    }
}
