@testable import ARDrone

/// Checks every AT datagram the fake drone receives against the wire rules the link promises
/// (docs/ardrone-protocol.md §2.1, §2.3, §9.2) and counts violations instead of stopping at
/// the first, so a test can report all of them.
struct ATProtocolChecker {
    private(set) var datagramCount = 0
    private(set) var commandCount = 0
    private(set) var violations: [String] = []
    private(set) var lastSequenceNumber: UInt32?
    /// REF commands without bit 9 (land / stay landed).
    private(set) var landREFCount = 0
    /// REF commands with bit 9.
    private(set) var flyREFCount = 0

    mutating func check(_ bytes: [UInt8], decoded: Result<[SequencedATCommand], ATDecodingError>) {
        datagramCount += 1
        let label = "datagram \(datagramCount)"
        if bytes.last != 0x0D { violations.append("\(label): not CR-terminated") }
        if bytes.contains(0x0A) { violations.append("\(label): contains LF") }
        if bytes.count > 1024 { violations.append("\(label): \(bytes.count) bytes > 1024") }
        let commands: [SequencedATCommand]
        switch decoded {
        case .failure(let error):
            violations.append("\(label): does not decode: \(error)")
            return
        case .success(let decodedCommands):
            commands = decodedCommands
        }
        commandCount += commands.count

        var refCount = 0
        var pcmdCount = 0
        var previousInDatagram: UInt32?
        for command in commands {
            let sequence = command.sequenceNumber
            if lastSequenceNumber == nil, sequence != 1 {
                violations.append("\(label): first sequence number is \(sequence), not 1")
            }
            if let last = lastSequenceNumber, sequence <= last {
                violations.append("\(label): sequence \(sequence) after \(last)")
            }
            if let previous = previousInDatagram, sequence != previous + 1 {
                violations.append("\(label): sequence \(sequence) does not follow \(previous) in one datagram")
            }
            previousInDatagram = sequence
            lastSequenceNumber = sequence
            switch command.command {
            case .ref(let input):
                refCount += 1
                if !input.hasSDKBaseBits { violations.append("\(label): REF \(input.rawValue) without base 0x11540000") }
                if input.requestsFlight { flyREFCount += 1 } else { landREFCount += 1 }
            case .pcmd, .pcmdMag:
                pcmdCount += 1
            default:
                break
            }
        }
        if refCount != 1 { violations.append("\(label): \(refCount) REF commands") }
        if pcmdCount != 1 { violations.append("\(label): \(pcmdCount) PCMD commands") }
    }
}
