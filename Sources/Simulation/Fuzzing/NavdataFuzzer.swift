import ARDrone
import FollowCore
/// Deterministic mutation fuzzer for `Navdata(bytes:)`.
///
/// Each iteration builds one input from a seeded `SplitMix64`: usually 1–3 mutations of a corpus
/// packet (real captures handed in by the shell, plus synthetic demo/GPS packets) — bit flips, byte
/// replacements, truncations, extensions, option size/tag corruption, option removal, insertion
/// and truncation at an option boundary, splices, magic changes — followed, 3 times in 4, by a
/// checksum fix-up so the parser gets past the checksum into option decoding; otherwise a purely
/// random input. Every input is decoded; decoded packets must re-encode to the same bytes.
/// The same seed always produces the same report.
public enum NavdataFuzzer {
    /// Runs `iterations` inputs over the synthetic corpus (no captures: those are files, which this
    /// pure module does not read; the shell passes them to `corpus(captures:)`).
    public static func run(iterations: Int, seed: UInt64) -> FuzzReport<NavdataDecodingError.Kind> {
        run(iterations: iterations, seed: seed, corpus: defaultCorpus())
    }

    /// Runs `iterations` inputs mutated from `corpus` (must not be empty).
    public static func run(
        iterations: Int, seed: UInt64, corpus: [[UInt8]]
    ) -> FuzzReport<NavdataDecodingError.Kind> {
        precondition(!corpus.isEmpty, "the fuzz corpus must not be empty")
        var rng = SplitMix64(seed: seed)
        var report = FuzzReport<NavdataDecodingError.Kind>()
        var input: [UInt8] = []
        input.reserveCapacity(8192)
        for _ in 0..<iterations {
            makeInput(into: &input, corpus: corpus, using: &rng)
            report.iterations += 1
            do {
                let navdata = try Navdata(bytes: input)
                report.recordDecoded(input: input, reencoded: try? navdata.encoded())
            } catch {
                report.recordRejection(error.kind)
            }
        }
        return report
    }

    /// Real captures (e.g. `Fuzz/corpus/navdata/*.bin`, read by the shell) plus, for each capture
    /// that starts with a demo option, its derived demo-only packet (header + demo + checksum, the
    /// 172-byte packet the drone sends in demo mode), plus the synthetic corpus.
    public static func corpus(captures: [[UInt8]]) -> [[UInt8]] {
        var corpus = captures
        for capture in captures where capture.count >= demoPrefixLength && isDemoFirst(capture) {
            var demoOnly = Array(capture.prefix(demoPrefixLength))
            appendChecksumOption(to: &demoOnly)
            corpus.append(demoOnly)
        }
        return corpus + defaultCorpus()
    }

    /// Header (16 bytes) + demo option (tag 0, 148 bytes): docs/ardrone-protocol.md §3.3–3.4.
    private static let demoPrefixLength = 16 + 148

    /// Whether the first option after the 16-byte header is a 148-byte demo option.
    private static func isDemoFirst(_ packet: [UInt8]) -> Bool {
        packet[16] == 0 && packet[17] == 0 && packet[18] == 148 && packet[19] == 0
    }

    /// Synthetic packets only: a demo+magneto+GPS packet like the one FollowMe flies on, and
    /// generated packets.
    package static func defaultCorpus() -> [[UInt8]] {
        var corpus: [[UInt8]] = []
        var rng = SplitMix64(seed: 0x4E41_5644_4154_41)  // "NAVDATA"
        let followMePacket = Navdata.demoPacket(
            state: [.flying, .communicationWatchdog], sequenceNumber: 42,
            demo: NavdataDemo(controlState: .hovering, batteryPercent: 80, psiMillidegrees: 90_000,
                              altitudeMillimeters: 1500),
            additionalOptions: [.magneto(.defaults), .gps(Arbitrary.gps(using: &rng))])
        if let bytes = try? followMePacket.encoded() { corpus.append(bytes) }
        for _ in 0..<4 {
            if let bytes = try? Arbitrary.navdata(using: &rng).encoded() { corpus.append(bytes) }
        }
        return corpus
    }

    /// Fills `input` with the next fuzz input.
    package static func makeInput(into input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        let mutated = makeMutatedInput(
            into: &input, corpus: corpus, using: &rng, randomOneIn: 12, mutationCount: 1...3,
            random: { makeRandomInput(into: &$0, using: &$1) },
            mutate: { mutate(&$0, corpus: corpus, using: &$1) })
        if mutated && rng.chance(3, in: 4) { fixChecksum(&input) }
    }

    private static func makeRandomInput(into input: inout [UInt8], using rng: inout SplitMix64) {
        let length: Int
        switch rng.nextInt(below: 3) {
        case 0: length = rng.nextInt(below: 32)
        case 1: length = rng.nextInt(below: 400)
        default: length = rng.nextInt(below: 5000)
        }
        for _ in 0..<length { input.append(rng.nextByte()) }
        if input.count >= 4, rng.chance(1, in: 2) {
            input.storeLittleEndian(NavdataMagic.standard.rawValue, at: 0)
        }
        if rng.chance(1, in: 3) {
            appendChecksumOption(to: &input)
        }
    }

    private static let interestingSizes: [UInt16] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 40, 74, 75, 76, 147, 148, 149,
                                                    215, 216, 217, 480, 0x7FFF, 0xFFFF]
    private static let interestingTags: [UInt16] = [0, 1, 2, 16, 22, 26, 27, 28, 29, 0xFFFE, 0xFFFF]

    private static func mutate(_ input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        switch rng.nextInt(below: 12) {
        case 0:  // bit flips
            guard !input.isEmpty else { return }
            for _ in 0..<rng.nextInt(in: 1...8) {
                input[rng.nextInt(below: input.count)] ^= 1 << UInt8(rng.nextInt(below: 8))
            }
        case 1:  // byte replacements
            guard !input.isEmpty else { return }
            for _ in 0..<rng.nextInt(in: 1...4) {
                input[rng.nextInt(below: input.count)] = rng.pick([0x00, 0xFF, 0x7F, 0x80, rng.nextByte()])
            }
        case 2:  // truncation anywhere
            guard !input.isEmpty else { return }
            input.removeSubrange(rng.nextInt(below: input.count)...)
        case 3:  // extension with random bytes
            for _ in 0..<rng.nextInt(in: 1...64) { input.append(rng.nextByte()) }
        case 4:  // size-field corruption
            guard let header = randomOptionHeader(input, using: &rng) else { return }
            let current = UInt16(input[header + 2]) | UInt16(input[header + 3]) << 8
            let size = rng.pick(interestingSizes + [current &- 1, current &+ 1, UInt16(truncatingIfNeeded: rng.next())])
            input.storeLittleEndian(size, at: header + 2)
        case 5:  // tag corruption
            guard let header = randomOptionHeader(input, using: &rng) else { return }
            input.storeLittleEndian(rng.pick(interestingTags + [UInt16(truncatingIfNeeded: rng.next())]), at: header)
        case 6:  // magic corruption
            guard input.count >= 4 else { return }
            input.storeLittleEndian(rng.pick([NavdataMagic.alternate.rawValue, 0x5566_778A, 0, rng.nextUInt32()]), at: 0)
        case 7:  // remove one option
            guard let (start, size) = randomOption(input, using: &rng) else { return }
            input.removeSubrange(start..<(start + size))
        case 8:  // duplicate one option
            guard let (start, size) = randomOption(input, using: &rng) else { return }
            input.insert(contentsOf: Array(input[start..<(start + size)]), at: start)
        case 9:  // insert a random option (random tag, size matching its payload) at a boundary
            guard let header = randomOptionHeader(input, using: &rng) else { return }
            let payloadCount = rng.pick([0, 4, 71, 144, 212, rng.nextInt(below: 300)])
            var option: [UInt8] = []
            option.appendLittleEndian(rng.pick(interestingTags.filter { $0 != 0xFFFF }))
            option.appendLittleEndian(UInt16(4 + payloadCount))
            for _ in 0..<payloadCount { option.append(rng.nextByte()) }
            input.insert(contentsOf: option, at: header)
        case 10:  // cut at an option boundary and close with a checksum option
            guard let header = randomOptionHeader(input, using: &rng) else { return }
            input.removeSubrange(header...)
            appendChecksumOption(to: &input)
        default:  // splice: head of this input + tail of another corpus packet
            let other = rng.pick(corpus)
            guard !input.isEmpty, !other.isEmpty else { return }
            let cut = rng.nextInt(below: input.count)
            let from = rng.nextInt(below: other.count)
            input.removeSubrange(cut...)
            input.append(contentsOf: other[from...])
        }
        if input.count > 8192 { input.removeSubrange(8192...) }  // keep inputs bounded
    }

    /// Offsets of option headers reachable by walking sizes from the header (tolerant: stops at
    /// the first bad size); the checksum option's offset is included.
    private static func optionHeaders(_ input: [UInt8]) -> [Int] {
        var headers: [Int] = []
        var offset = Navdata.headerByteCount
        while offset + 4 <= input.count {
            headers.append(offset)
            let tag = UInt16(input[offset]) | UInt16(input[offset + 1]) << 8
            let size = Int(UInt16(input[offset + 2]) | UInt16(input[offset + 3]) << 8)
            if tag == NavdataOptionTag.checksum.rawValue || size < 4 { break }
            offset += size
        }
        return headers
    }

    private static func randomOptionHeader(_ input: [UInt8], using rng: inout SplitMix64) -> Int? {
        let headers = optionHeaders(input)
        return headers.isEmpty ? nil : rng.pick(headers)
    }

    /// A random complete non-checksum option: (offset, size).
    private static func randomOption(_ input: [UInt8], using rng: inout SplitMix64) -> (Int, Int)? {
        let options = optionHeaders(input).compactMap { offset -> (Int, Int)? in
            let tag = UInt16(input[offset]) | UInt16(input[offset + 1]) << 8
            let size = Int(UInt16(input[offset + 2]) | UInt16(input[offset + 3]) << 8)
            guard tag != NavdataOptionTag.checksum.rawValue, size >= 4, offset + size <= input.count else { return nil }
            return (offset, size)
        }
        return options.isEmpty ? nil : rng.pick(options)
    }

    /// Writes the correct sum into the first reachable checksum option, if there is one with room.
    package static func fixChecksum(_ input: inout [UInt8]) {
        for offset in optionHeaders(input) {
            let tag = UInt16(input[offset]) | UInt16(input[offset + 1]) << 8
            if tag == NavdataOptionTag.checksum.rawValue, offset + 8 <= input.count {
                input.storeLittleEndian(Navdata.checksum(of: input[0..<offset]), at: offset + 4)
                return
            }
        }
    }

    /// Appends `ff ff 08 00` and the sum of the existing bytes.
    package static func appendChecksumOption(to input: inout [UInt8]) {
        let sum = Navdata.checksum(of: input)
        input.appendLittleEndian(NavdataOptionTag.checksum.rawValue)
        input.appendLittleEndian(UInt16(Navdata.checksumOptionByteCount))
        input.appendLittleEndian(sum)
    }
}
