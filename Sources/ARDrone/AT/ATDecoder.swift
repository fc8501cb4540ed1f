/// A decoded AT command with the sequence number it carried on the wire.
public struct SequencedATCommand: Sendable, Equatable {
    public var sequenceNumber: UInt32
    public var command: ATCommand
}

/// Parses an AT datagram (what the drone receives on UDP 5556) back into commands.
///
/// Strict on purpose — the drone simulator uses it to catch sender bugs. It accepts exactly the
/// canonical text `ATEncoder` produces: every command `AT*<NAME>=<seq>[,<arg>…]` terminated by CR;
/// decimal integers without `+`, leading zeros or `-0`; sequence numbers in `UInt32`, other
/// integers in `Int32`; quoted strings of printable ASCII without `"`; float arguments (Int32 bit
/// patterns) finite and within [-1, 1]; known flag bits, modes and devices only; at most 1024 bytes.
/// Hence every accepted datagram re-encodes byte for byte (the fuzzer checks this).
public enum ATDecoder {
    /// Decodes all commands in `datagram`, in order.
    public static func decode(_ datagram: [UInt8]) throws(ATDecodingError) -> [SequencedATCommand] {
        let result = datagram.withUnsafeBytes { raw in
            Result { () throws(ATDecodingError) in try decode(raw) }
        }
        return try result.get()
    }

    /// Decodes all commands in `datagram`, in order.
    public static func decode(_ datagram: UnsafeRawBufferPointer) throws(ATDecodingError) -> [SequencedATCommand] {
        guard !datagram.isEmpty else { throw .emptyDatagram }
        guard datagram.count <= ATEncoder.maximumDatagramByteCount else {
            throw .datagramTooLong(byteCount: datagram.count, limit: ATEncoder.maximumDatagramByteCount)
        }
        var parser = ATParser(bytes: datagram)
        var commands: [SequencedATCommand] = []
        while !parser.isAtEnd {
            commands.append(try parser.parseCommand())
        }
        return commands
    }
}

/// Why an AT datagram was rejected. Offsets are byte offsets into the datagram.
public enum ATDecodingError: Error, Equatable, Sendable {
    /// Zero bytes.
    case emptyDatagram
    /// Longer than the drone's 1024-byte limit.
    case datagramTooLong(byteCount: Int, limit: Int)
    /// The command starting at `commandOffset` has no CR terminator before the datagram ends.
    case missingTerminator(commandOffset: Int)
    /// The command does not start with `AT*`.
    case missingPrefix(offset: Int)
    /// A name between `AT*` and `=` that this codec does not know (or no `=` after it).
    case unknownCommand(name: String, offset: Int)
    /// Not a canonical decimal number where one was expected.
    case invalidNumber(offset: Int)
    /// A decimal number too large for its field (`UInt32` sequence, `Int32` argument).
    case numberOutOfRange(offset: Int)
    /// The command ended before argument `argumentIndex` (0-based, after the sequence number).
    case missingArgument(command: ATCommandName, argumentIndex: Int, offset: Int)
    /// A byte that the grammar does not allow here (e.g. LF, an extra `,`).
    case unexpectedByte(UInt8, offset: Int)
    /// A quoted string that is unterminated or contains a byte outside printable ASCII.
    case invalidString(offset: Int)
    /// Well-formed but not a valid value: unknown flag bits, mode or device, a CTRL second
    /// argument other than 0, or a float (given as its Int32 bit pattern) that is not finite or
    /// not in [-1, 1].
    case invalidArgument(command: ATCommandName, argumentIndex: Int, value: Int64)

    /// Error category, for counting (fuzzer reports).
    public enum Kind: String, Sendable, CaseIterable, Hashable {
        case emptyDatagram, datagramTooLong, missingTerminator, missingPrefix, unknownCommand
        case invalidNumber, numberOutOfRange, missingArgument, unexpectedByte, invalidString
        case invalidArgument
    }

    public var kind: Kind {
        switch self {
        case .emptyDatagram: .emptyDatagram
        case .datagramTooLong: .datagramTooLong
        case .missingTerminator: .missingTerminator
        case .missingPrefix: .missingPrefix
        case .unknownCommand: .unknownCommand
        case .invalidNumber: .invalidNumber
        case .numberOutOfRange: .numberOutOfRange
        case .missingArgument: .missingArgument
        case .unexpectedByte: .unexpectedByte
        case .invalidString: .invalidString
        case .invalidArgument: .invalidArgument
        }
    }
}

/// Cursor over one datagram; every read is bounds-checked against `end`.
private struct ATParser {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    /// End (index of the CR) of the command being parsed.
    var end = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func parseCommand() throws(ATDecodingError) -> SequencedATCommand {
        let commandStart = offset
        guard let terminator = firstIndex(of: ATByte.carriageReturn, from: offset) else {
            throw .missingTerminator(commandOffset: commandStart)
        }
        end = terminator
        let prefixCount = ATByte.commandPrefix.count
        guard end - offset >= prefixCount,
              bytes[offset..<offset + prefixCount].elementsEqual(ATByte.commandPrefix)
        else { throw .missingPrefix(offset: commandStart) }
        offset += prefixCount

        let nameStart = offset
        while offset < end, isNameByte(bytes[offset]) { offset += 1 }
        let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<offset])
        guard offset < end, bytes[offset] == ATByte.equals, let name = commandName(nameBytes) else {
            throw .unknownCommand(name: String(decoding: nameBytes, as: UTF8.self), offset: nameStart)
        }
        offset += 1

        let sequence = try parseUnsigned()
        let command = try parseArguments(of: name)
        guard offset == end else { throw .unexpectedByte(bytes[offset], offset: offset) }
        offset = end + 1
        return SequencedATCommand(sequenceNumber: sequence, command: command)
    }

    private mutating func parseArguments(of name: ATCommandName) throws(ATDecodingError) -> ATCommand {
        switch name {
        case .ref:
            let input = try int32Argument(name, 0)
            return .ref(REFInput(rawInput: UInt32(bitPattern: input)))
        case .pcmd:
            return .pcmd(try progressiveArguments(name))
        case .pcmdMag:
            let pcmd = try progressiveArguments(name)
            let psi = try floatArgument(name, 5)
            let accuracy = try floatArgument(name, 6)
            return .pcmdMag(pcmd, ControllerHeading(psiFraction: psi, psiAccuracyFraction: accuracy))
        case .ftrim:
            return .ftrim
        case .comwdg:
            return .comwdg
        case .calib:
            let raw = try int32Argument(name, 0)
            guard let device = CalibrationDevice(rawValue: raw) else {
                throw .invalidArgument(command: name, argumentIndex: 0, value: Int64(raw))
            }
            return .calib(device)
        case .config:
            let key = try stringArgument(name, 0)
            let value = try stringArgument(name, 1)
            return .config(key: key, value: value)
        case .configIDs:
            let session = try stringArgument(name, 0)
            let user = try stringArgument(name, 1)
            let application = try stringArgument(name, 2)
            return .configIDs(sessionID: session, userID: user, applicationID: application)
        case .ctrl:
            let raw = try int32Argument(name, 0)
            guard let mode = ControlMode(rawValue: raw) else {
                throw .invalidArgument(command: name, argumentIndex: 0, value: Int64(raw))
            }
            let reserved = try int32Argument(name, 1)
            guard reserved == 0 else {
                throw .invalidArgument(command: name, argumentIndex: 1, value: Int64(reserved))
            }
            return .ctrl(mode)
        }
    }

    private mutating func progressiveArguments(_ name: ATCommandName) throws(ATDecodingError) -> ProgressiveCommand {
        let rawFlags = try int32Argument(name, 0)
        let flags = PCMDFlags(rawValue: UInt32(bitPattern: rawFlags))
        guard rawFlags >= 0, PCMDFlags.allKnown.isSuperset(of: flags) else {
            throw .invalidArgument(command: name, argumentIndex: 0, value: Int64(rawFlags))
        }
        let roll = try floatArgument(name, 1)
        let pitch = try floatArgument(name, 2)
        let gaz = try floatArgument(name, 3)
        let yaw = try floatArgument(name, 4)
        return ProgressiveCommand(
            flags: flags, rollFraction: roll, pitchFraction: pitch, gazFraction: gaz, yawFraction: yaw)
    }

    /// `,` then a canonical Int32 bit pattern of a finite float in [-1, 1].
    private mutating func floatArgument(_ name: ATCommandName, _ index: Int) throws(ATDecodingError) -> Float {
        let bits = try int32Argument(name, index)
        let value = Float(bitPattern: UInt32(bitPattern: bits))
        guard value.isFinite, value >= -1, value <= 1 else {
            throw .invalidArgument(command: name, argumentIndex: index, value: Int64(bits))
        }
        return value
    }

    private mutating func expectComma(_ name: ATCommandName, _ index: Int) throws(ATDecodingError) {
        guard offset < end else { throw .missingArgument(command: name, argumentIndex: index, offset: offset) }
        guard bytes[offset] == ATByte.comma else { throw .unexpectedByte(bytes[offset], offset: offset) }
        offset += 1
    }

    private mutating func int32Argument(_ name: ATCommandName, _ index: Int) throws(ATDecodingError) -> Int32 {
        try expectComma(name, index)
        let start = offset
        var negative = false
        if offset < end, bytes[offset] == ATByte.minus {
            negative = true
            offset += 1
        }
        let magnitude = try parseDigits(limit: negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max))
        if negative {
            guard magnitude != 0 else { throw .invalidNumber(offset: start) }  // "-0" is not canonical
            return Int32(truncatingIfNeeded: 0 &- Int64(magnitude))
        }
        return Int32(magnitude)
    }

    private mutating func parseUnsigned() throws(ATDecodingError) -> UInt32 {
        UInt32(try parseDigits(limit: UInt64(UInt32.max)))
    }

    /// Canonical digits (no leading zero unless the number is 0), value ≤ `limit`.
    private mutating func parseDigits(limit: UInt64) throws(ATDecodingError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        while offset < end, bytes[offset] >= ATByte.zero, bytes[offset] <= ATByte.nine {
            value = value * 10 + UInt64(bytes[offset] - ATByte.zero)
            guard value <= limit else { throw .numberOutOfRange(offset: start) }
            offset += 1
        }
        let digitCount = offset - start
        guard digitCount > 0 else { throw .invalidNumber(offset: start) }
        guard digitCount == 1 || bytes[start] != ATByte.zero else { throw .invalidNumber(offset: start) }
        return value
    }

    private mutating func stringArgument(_ name: ATCommandName, _ index: Int) throws(ATDecodingError) -> String {
        try expectComma(name, index)
        guard offset < end else { throw .missingArgument(command: name, argumentIndex: index, offset: offset) }
        guard bytes[offset] == ATByte.quote else { throw .unexpectedByte(bytes[offset], offset: offset) }
        let start = offset
        offset += 1
        let contentStart = offset
        while offset < end, bytes[offset] != ATByte.quote {
            guard ATByte.isAllowedInString(bytes[offset]) else { throw .invalidString(offset: start) }
            offset += 1
        }
        guard offset < end else { throw .invalidString(offset: start) }
        let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<offset])
        offset += 1
        return String(decoding: content, as: UTF8.self)
    }

    private func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        ATByte.upperLetters.contains(byte) || byte == ATByte.underscore
    }

    private func commandName(_ name: UnsafeRawBufferPointer) -> ATCommandName? {
        for candidate in ATCommandName.allCases where candidate.rawValue.utf8.elementsEqual(name) {
            return candidate
        }
        return nil
    }
}
