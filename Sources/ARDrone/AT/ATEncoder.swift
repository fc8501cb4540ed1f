/// Encodes AT commands into one UDP datagram, numbering them as they are encoded.
///
/// Each command becomes `AT*<NAME>=<seq>[,<arg>…]\r` (terminator CR 0x0D, never LF: SDK
/// `at_msgs.h`; Wireshark of FreeFlight in node-ar-drone issue #114). Floats are sent as the
/// signed decimal of their IEEE-754 single bit pattern (guide §6.1).
///
/// Sequence numbers start at 1 (SDK `++nb_sequence` in `ardrone_at_mutex.c`) and grow by one per
/// command. After `Int32.max` they wrap to 1, which the drone treats as a counter reset (the SDK
/// prints them with `%d`; at 66 commands/s the wrap takes a year).
///
/// **Size policy:** a datagram never exceeds 1024 bytes (guide §6.1: longer command lines are
/// rejected whole). If appending would exceed it, the encoder throws
/// `ATEncodingError.datagramTooLong` and leaves both the datagram and its sequence counter exactly
/// as they were, so the caller can send what it has and put the rest in the next datagram. It never
/// splits a command.
///
/// **Allocation:** encoding writes into a caller-owned `[UInt8]`; integers are formatted by hand.
/// Once the buffer has capacity for 1024 bytes (`reserveCapacity`), `append(_:to:)` does not
/// allocate (measured with valgrind: heap allocations do not grow with the number of ticks).
/// `encode(_:into:)` is equally allocation-free; building a fresh `[ATCommand]` for it each tick
/// is the caller's allocation, which `append(_:to:)` per command avoids.
public struct ATEncoder: Sendable {
    /// Largest datagram the drone accepts (Developer Guide §6.1, yumpu p.36).
    public static let maximumDatagramByteCount = 1024

    /// The sequence number the next encoded command will carry.
    public private(set) var nextSequenceNumber: UInt32

    /// - Parameter firstSequenceNumber: 1 for a real drone (every (re)connect); 0 only to
    ///   reproduce node-ar-drone's byte strings.
    public init(firstSequenceNumber: UInt32 = 1) {
        nextSequenceNumber = firstSequenceNumber
    }

    /// Restarts numbering, e.g. after a reconnect (the drone resets its counter on seq 1).
    public mutating func resetSequence(to firstSequenceNumber: UInt32 = 1) {
        nextSequenceNumber = firstSequenceNumber
    }

    /// Replaces the contents of `datagram` (keeping its capacity) with `commands`, numbered
    /// consecutively. On error `datagram` is empty and no sequence number is consumed.
    public mutating func encode(
        _ commands: some Sequence<ATCommand>,
        into datagram: inout [UInt8]
    ) throws(ATEncodingError) {
        datagram.removeAll(keepingCapacity: true)
        let savedSequenceNumber = nextSequenceNumber
        do {
            for command in commands {
                try append(command, to: &datagram)
            }
        } catch {
            datagram.removeAll(keepingCapacity: true)
            nextSequenceNumber = savedSequenceNumber
            throw error
        }
    }

    /// Appends one command to `datagram` (which may already hold earlier commands of the same
    /// datagram) and consumes one sequence number. Atomic on error.
    public mutating func append(_ command: ATCommand, to datagram: inout [UInt8]) throws(ATEncodingError) {
        try Self.append(command, sequenceNumber: nextSequenceNumber, to: &datagram)
        nextSequenceNumber = Self.sequenceNumber(after: nextSequenceNumber)
    }

    /// Convenience that allocates a new datagram. Not for the per-tick path.
    public mutating func encodeDatagram(_ commands: [ATCommand]) throws(ATEncodingError) -> [UInt8] {
        var datagram: [UInt8] = []
        datagram.reserveCapacity(Self.maximumDatagramByteCount)
        try encode(commands, into: &datagram)
        return datagram
    }

    /// The number following `sequenceNumber`: +1, wrapping to 1 after `Int32.max`.
    public static func sequenceNumber(after sequenceNumber: UInt32) -> UInt32 {
        sequenceNumber >= UInt32(Int32.max) ? 1 : sequenceNumber + 1
    }

    /// Appends `command` with an explicit sequence number (for tests and re-encoding decoded
    /// commands). Atomic on error: `datagram` keeps its previous contents.
    public static func append(
        _ command: ATCommand,
        sequenceNumber: UInt32,
        to datagram: inout [UInt8]
    ) throws(ATEncodingError) {
        let start = datagram.count
        do {
            try appendUnchecked(command, sequenceNumber: sequenceNumber, to: &datagram)
        } catch {
            datagram.removeSubrange(start...)
            throw error
        }
        if datagram.count > maximumDatagramByteCount {
            let wouldBe = datagram.count
            datagram.removeSubrange(start...)
            throw .datagramTooLong(byteCount: wouldBe, limit: maximumDatagramByteCount)
        }
    }

    private static func appendUnchecked(
        _ command: ATCommand,
        sequenceNumber: UInt32,
        to out: inout [UInt8]
    ) throws(ATEncodingError) {
        let name = command.name
        appendStatic(name.wirePrefix, to: &out)
        appendDecimal(UInt64(sequenceNumber), negative: false, to: &out)
        switch command {
        case .ref(let input):
            appendIntArgument(Int32(bitPattern: input.rawValue), to: &out)
        case .pcmd(let pcmd):
            appendProgressive(pcmd, to: &out)
        case .pcmdMag(let pcmd, let heading):
            appendProgressive(pcmd, to: &out)
            appendFloatArgument(heading.psiFraction, to: &out)
            appendFloatArgument(heading.psiAccuracyFraction, to: &out)
        case .ftrim, .comwdg:
            break
        case .calib(let device):
            appendIntArgument(device.rawValue, to: &out)
        case .config(let key, let value):
            try appendStringArgument(key, command: name, argumentIndex: 0, to: &out)
            try appendStringArgument(value, command: name, argumentIndex: 1, to: &out)
        case .configIDs(let session, let user, let application):
            try appendStringArgument(session, command: name, argumentIndex: 0, to: &out)
            try appendStringArgument(user, command: name, argumentIndex: 1, to: &out)
            try appendStringArgument(application, command: name, argumentIndex: 2, to: &out)
        case .ctrl(let mode):
            appendIntArgument(mode.rawValue, to: &out)
            // Second CTRL argument is always 0 (SDK `ardrone_at_update_control_mode`).
            appendIntArgument(0, to: &out)
        }
        out.append(ATByte.carriageReturn)
    }

    private static func appendProgressive(_ pcmd: ProgressiveCommand, to out: inout [UInt8]) {
        appendIntArgument(Int32(bitPattern: pcmd.flags.rawValue), to: &out)
        appendFloatArgument(pcmd.rollFraction, to: &out)
        appendFloatArgument(pcmd.pitchFraction, to: &out)
        appendFloatArgument(pcmd.gazFraction, to: &out)
        appendFloatArgument(pcmd.yawFraction, to: &out)
    }

    /// The integer a float argument is sent as: the signed value of its IEEE-754 single bit
    /// pattern (guide §6.1; −0.8 → −1085485875 in node-ar-drone, pyardrone and python-ardrone
    /// tests). Also how floats inside CONFIG strings such as `leds:leds_anim` are written.
    public static func wireInteger(for value: Float) -> Int32 {
        Int32(bitPattern: value.bitPattern)
    }

    @inline(__always)
    private static func appendFloatArgument(_ value: Float, to out: inout [UInt8]) {
        appendIntArgument(wireInteger(for: value), to: &out)
    }

    @inline(__always)
    private static func appendIntArgument(_ value: Int32, to out: inout [UInt8]) {
        out.append(ATByte.comma)
        appendDecimal(value.magnitude64, negative: value < 0, to: &out)
    }

    private static func appendStringArgument(
        _ value: String,
        command: ATCommandName,
        argumentIndex: Int,
        to out: inout [UInt8]
    ) throws(ATEncodingError) {
        out.append(ATByte.comma)
        out.append(ATByte.quote)
        for byte in value.utf8 {
            guard ATByte.isAllowedInString(byte) else {
                throw .invalidStringArgument(
                    command: command, argumentIndex: argumentIndex, value: value, offendingByte: byte)
            }
            out.append(byte)
        }
        out.append(ATByte.quote)
    }

    @inline(__always)
    private static func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { buffer in
            for byte in buffer { out.append(byte) }
        }
    }

    /// Appends `magnitude` in decimal, hand-formatted (no `String`, no allocation).
    @inline(__always)
    static func appendDecimal(_ magnitude: UInt64, negative: Bool, to out: inout [UInt8]) {
        if negative { out.append(ATByte.minus) }
        var digitCount = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        let start = out.count
        for _ in 0..<digitCount { out.append(ATByte.zero) }
        var index = start + digitCount - 1
        var value = magnitude
        repeat {
            out[index] = ATByte.zero + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            index -= 1
        } while value > 0
    }
}

/// Why a command could not be encoded.
public enum ATEncodingError: Error, Equatable, Sendable {
    /// The datagram would have grown to `byteCount` bytes, over the drone's `limit` (1024).
    case datagramTooLong(byteCount: Int, limit: Int)
    /// A quoted argument contains a byte outside printable ASCII or a `"` (which cannot be escaped).
    case invalidStringArgument(command: ATCommandName, argumentIndex: Int, value: String, offendingByte: UInt8)
}

/// Bytes of the AT grammar.
package enum ATByte {
    package static let carriageReturn: UInt8 = 0x0D
    package static let comma: UInt8 = 0x2C
    package static let quote: UInt8 = 0x22
    package static let minus: UInt8 = 0x2D
    package static let equals: UInt8 = 0x3D
    package static let zero: UInt8 = 0x30
    package static let nine: UInt8 = 0x39
    package static let underscore: UInt8 = 0x5F
    /// `AT*`, which starts every command.
    package static let commandPrefix: [UInt8] = Array("AT*".utf8)
    /// `A`…`Z`: with `_`, what a command name is made of.
    package static let upperLetters: ClosedRange<UInt8> = 0x41...0x5A

    /// Printable ASCII except `"`: what may appear inside a quoted AT argument.
    @inline(__always)
    static func isAllowedInString(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != quote
    }
}

extension Int32 {
    /// |self| widened so `Int32.min` is representable.
    var magnitude64: UInt64 { UInt64(magnitude) }
}
