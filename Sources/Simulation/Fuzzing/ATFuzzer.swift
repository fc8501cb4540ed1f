import ARDrone
import FollowCore
/// Deterministic mutation fuzzer for `ATDecoder`.
///
/// Inputs: the byte-exact vectors of `at-commands.md` and freshly generated valid datagrams,
/// mutated 1–3 times (bit flips, grammar-byte replacements such as `,` `"` CR LF `=` `-`, deleted
/// or duplicated ranges, inserted digit runs that overflow, truncations, extensions, splices);
/// or purely random bytes / random grammar tokens. Decoded datagrams must re-encode, with the
/// decoded sequence numbers, to the same bytes. The same seed always produces the same report.
public enum ATFuzzer {
    /// Byte-exact AT vectors collected in `at-commands.md` (sources cited there). The last one uses
    /// the Developer Guide's LF terminator, which the decoder rejects.
    package static let documentedVectors: [String] = [
        "AT*REF=26,290718208\r",
        "AT*REF=100,20\r",
        "AT*REF=4,290717696\r",
        "AT*REF=1,512\r",
        "AT*REF=0,0\rAT*PCMD=1,0,0,0,0,0\r",
        "AT*REF=1,290717696\rAT*REF=2,290717952\rAT*REF=3,290717696\r",
        "AT*PCMD=10,1,0,1061997773,0,0\r",
        "AT*PCMD=6,1,0,1056964608,0,0\r",
        "AT*PCMD=7,1,-1110651699,0,0,1050253722\r",
        "AT*CONFIG=2,\"general:navdata_demo\",\"TRUE\"\r",
        "AT*CTRL=3,5,0\r",
        "AT*CONFIG=9,\"leds:leds_anim\",\"1,1077936128,3\"\r",
        "AT*CALIB=11,0\r",
        "AT*FTRIM=5\r",
        "AT*COMWDG=100\r",
        "AT*CONFIG_IDS=12,\"d2e081a3\",\"2BF07F58\",\"9D7BFD45\"\r",
        "AT*PCMD_MAG=13,1,0,-1086324736,0,0,0,0\r",
        "AT*PCMD=21625,1,0,0,0,0\nAT*REF=21626,290717696\n",
    ]

    /// Runs `iterations` inputs.
    public static func run(iterations: Int, seed: UInt64) -> FuzzReport<ATDecodingError.Kind> {
        var rng = SplitMix64(seed: seed)
        let corpus = documentedVectors.map { Array($0.utf8) }
        var report = FuzzReport<ATDecodingError.Kind>()
        var input: [UInt8] = []
        var reencoded: [UInt8] = []
        input.reserveCapacity(2048)
        reencoded.reserveCapacity(2048)
        for _ in 0..<iterations {
            makeInput(into: &input, corpus: corpus, using: &rng)
            report.iterations += 1
            do {
                let commands = try ATDecoder.decode(input)
                reencoded.removeAll(keepingCapacity: true)
                var ok = true
                for sequenced in commands {
                    do {
                        try ATEncoder.append(sequenced.command, sequenceNumber: sequenced.sequenceNumber,
                                             to: &reencoded)
                    } catch {
                        ok = false
                        break
                    }
                }
                report.recordDecoded(input: input, reencoded: ok ? reencoded : nil)
            } catch {
                report.recordRejection(error.kind)
            }
        }
        return report
    }

    /// A valid datagram of 1–4 generated commands with a random starting sequence number.
    package static func generatedDatagram(using rng: inout SplitMix64) -> [UInt8] {
        var encoder = ATEncoder(firstSequenceNumber: rng.chance(1, in: 4) ? rng.nextUInt32() : UInt32(rng.nextInt(below: 1000)))
        var datagram: [UInt8] = []
        for _ in 0..<rng.nextInt(in: 1...4) {
            try? encoder.append(Arbitrary.atCommand(using: &rng), to: &datagram)
        }
        return datagram
    }

    package static func makeInput(into input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        input.removeAll(keepingCapacity: true)
        switch rng.nextInt(below: 12) {
        case 0:  // random bytes
            for _ in 0..<rng.nextInt(below: 96) { input.append(rng.nextByte()) }
            return
        case 1:  // random grammar tokens
            for _ in 0..<rng.nextInt(in: 1...24) {
                input.append(contentsOf: rng.pick(tokens).utf8)
            }
            return
        case 2, 3:  // unmutated valid datagram (exercises the accept path and the round trip)
            input.append(contentsOf: generatedDatagram(using: &rng))
            return
        case 4, 5, 6:
            input.append(contentsOf: rng.pick(corpus))
        default:
            input.append(contentsOf: generatedDatagram(using: &rng))
        }
        for _ in 0..<rng.nextInt(in: 1...3) {
            mutate(&input, corpus: corpus, using: &rng)
        }
    }

    private static let tokens: [String] = [
        "AT*", "REF", "PCMD", "PCMD_MAG", "FTRIM", "CALIB", "CONFIG", "CONFIG_IDS", "CTRL", "COMWDG", "LED",
        "=", ",", "\"", "\r", "\n", "0", "1", "5", "-", "290718208", "-1085485875", "4294967296",
        "2147483648", "-2147483648", "007", "-0", "\"general:navdata_demo\"", "TRUE", " ",
    ]

    private static let grammarBytes: [UInt8] = Array(",\"\r\n=*-09AZ_ ".utf8) + [0x00, 0x7F, 0xFF]

    private static func mutate(_ input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        switch rng.nextInt(below: 9) {
        case 0:  // bit flip
            guard !input.isEmpty else { return }
            input[rng.nextInt(below: input.count)] ^= 1 << UInt8(rng.nextInt(below: 8))
        case 1:  // grammar-byte replacement
            guard !input.isEmpty else { return }
            input[rng.nextInt(below: input.count)] = rng.pick(grammarBytes)
        case 2:  // delete a range
            guard !input.isEmpty else { return }
            let start = rng.nextInt(below: input.count)
            let end = min(input.count, start + rng.nextInt(in: 1...8))
            input.removeSubrange(start..<end)
        case 3:  // duplicate a range
            guard !input.isEmpty else { return }
            let start = rng.nextInt(below: input.count)
            let end = min(input.count, start + rng.nextInt(in: 1...32))
            input.insert(contentsOf: Array(input[start..<end]), at: start)
        case 4:  // insert a digit run (overflow, leading zeros)
            let at = rng.nextInt(below: input.count + 1)
            var digits: [UInt8] = []
            for _ in 0..<rng.nextInt(in: 1...25) { digits.append(ATByte.zero + UInt8(rng.nextInt(below: 10))) }
            input.insert(contentsOf: digits, at: at)
        case 5:  // truncate
            guard !input.isEmpty else { return }
            input.removeSubrange(rng.nextInt(below: input.count)...)
        case 6:  // extend with printable ASCII
            for _ in 0..<rng.nextInt(in: 1...16) { input.append(UInt8(0x20 + rng.nextInt(below: 0x5F))) }
        case 7:  // splice with a documented vector
            input.append(contentsOf: rng.pick(corpus))
        default:  // grow far past 1024 bytes
            let generated = generatedDatagram(using: &rng)
            while input.count <= ATEncoder.maximumDatagramByteCount, !generated.isEmpty {
                input.append(contentsOf: generated)
            }
        }
    }
}
