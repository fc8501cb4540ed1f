import MAVLink

extension FuzzProperty {
    /// `mavlink`: bytes from a MAVLink peer (one UDP datagram, or a stream cut anywhere), the decoder
    /// the MAVLink link and the simulator read every datagram with (docs/mavlink.md §2.6):
    /// - one frame read alone (`MAVLinkFrame(bytes:)`): when accepted, it re-encodes byte-exact and its
    ///   typed message reads the payload zero-extended to the message's length;
    /// - the streaming parser gives the same frames and counters whether the bytes arrive at once or
    ///   cut in two at a place the input chooses (its first byte), every frame it returns re-encodes to
    ///   a run of the input, and it never holds more than one frame's worth of bytes.
    public static func mavlink(_ bytes: [UInt8]) -> String? {
        if case .success(let frame) = Result(catching: { () throws(MAVLinkDecodingError) in try MAVLinkFrame(bytes: bytes) }) {
            guard let extra = MAVLinkMessages.crcExtra(frame.messageID) else { return "an accepted frame has an unknown id" }
            guard (try? frame.encoded(crcExtra: extra)) == bytes else { return "an accepted frame re-encodes differently" }
            guard let message = MAVLinkMessages.message(in: frame) else { return "an accepted frame has no typed message" }
            let length = type(of: message).maximumLength
            let extended = Array((frame.payload + Array(repeating: 0, count: max(0, length - frame.payload.count))).prefix(length))
            if message.payload() != extended { return "the typed message does not read the frame's payload" }
        }
        var whole = MAVLinkParser()
        let atOnce = whole.parse(bytes)
        var split = MAVLinkParser()
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let inTwo = split.parse(bytes[..<cut]) + split.parse(bytes[cut...])
        if atOnce != inTwo || whole.counters != split.counters {
            return "the parser reads the bytes differently when they arrive cut at \(cut)"
        }
        if whole.pendingByteCount > MAVLinkFrame.maximumLength { return "the parser holds more than one frame" }
        for case .frame(let frame) in atOnce {
            guard let extra = MAVLinkMessages.crcExtra(frame.messageID),
                  let encoded = try? frame.encoded(crcExtra: extra), bytes.firstRange(of: encoded) != nil
            else { return "a frame the parser returned is not a run of the input" }
        }
        return nil
    }
}
