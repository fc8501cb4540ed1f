@testable import Simulation
import Testing
@testable import ARDrone
@testable import FollowCore

@Test("Decoder reads every command kind with its sequence number")
func decodesAllKinds() throws {
    let text = "AT*REF=1,290718208\rAT*PCMD=2,1,0,-1085485875,0,0\rAT*PCMD_MAG=3,0,0,0,0,0,0,0\r"
        + "AT*FTRIM=4\rAT*CALIB=5,0\rAT*CONFIG=6,\"general:navdata_demo\",\"TRUE\"\r"
        + "AT*CONFIG_IDS=7,\"a\",\"\",\"c d\"\rAT*CTRL=8,5,0\rAT*COMWDG=9\r"
    let decoded = try ATDecoder.decode(Array(text.utf8))
    #expect(decoded.map(\.sequenceNumber) == Array(1...9))
    #expect(decoded.map(\.command) == [
        .ref(.takeoff),
        .pcmd(ProgressiveCommand(pitchFraction: -0.8)),
        .pcmdMag(.hover, .unknown),
        .ftrim,
        .calib(.magnetometer),
        .config(key: "general:navdata_demo", value: "TRUE"),
        .configIDs(sessionID: "a", userID: "", applicationID: "c d"),
        .ctrl(.acknowledgeCommand),
        .comwdg,
    ])
}

struct MalformedAT: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: ATDecodingError
    var testDescription: String { text.debugDescription }
}

@Test("Malformed AT datagrams are rejected with the error that names the problem", arguments: [
    MalformedAT(text: "", expected: .emptyDatagram),
    MalformedAT(text: "AT*COMWDG=1", expected: .missingTerminator(commandOffset: 0)),
    MalformedAT(text: "AT*COMWDG=1\rAT*FTRIM=2", expected: .missingTerminator(commandOffset: 12)),
    MalformedAT(text: "AT*COMWDG=1\n", expected: .missingTerminator(commandOffset: 0)),
    MalformedAT(text: "AT*PCMD=21625,1,0,0,0,0\nAT*REF=21626,290717696\r", expected: .unexpectedByte(0x0A, offset: 23)),
    MalformedAT(text: "at*COMWDG=1\r", expected: .missingPrefix(offset: 0)),
    MalformedAT(text: "\r", expected: .missingPrefix(offset: 0)),
    MalformedAT(text: "AT*LED=1,0,0,0\r", expected: .unknownCommand(name: "LED", offset: 3)),
    MalformedAT(text: "AT*REF\r", expected: .unknownCommand(name: "REF", offset: 3)),
    MalformedAT(text: "AT*REF=,1\r", expected: .invalidNumber(offset: 7)),
    MalformedAT(text: "AT*REF=01,1\r", expected: .invalidNumber(offset: 7)),
    MalformedAT(text: "AT*REF=4294967296,1\r", expected: .numberOutOfRange(offset: 7)),
    MalformedAT(text: "AT*REF=1,2147483648\r", expected: .numberOutOfRange(offset: 9)),
    MalformedAT(text: "AT*REF=1,-0\r", expected: .invalidNumber(offset: 9)),
    MalformedAT(text: "AT*REF=1,+5\r", expected: .invalidNumber(offset: 9)),
    MalformedAT(text: "AT*REF=1\r", expected: .missingArgument(command: .ref, argumentIndex: 0, offset: 8)),
    MalformedAT(text: "AT*REF=1,2,3\r", expected: .unexpectedByte(0x2C, offset: 10)),
    MalformedAT(text: "AT*COMWDG=1,\r", expected: .unexpectedByte(0x2C, offset: 11)),
    MalformedAT(text: "AT*PCMD=1,8,0,0,0,0\r", expected: .invalidArgument(command: .pcmd, argumentIndex: 0, value: 8)),
    MalformedAT(text: "AT*PCMD=1,1,0,1065353217,0,0\r",
                expected: .invalidArgument(command: .pcmd, argumentIndex: 2, value: 1_065_353_217)),
    MalformedAT(text: "AT*PCMD=1,1,0,0,0,2143289344\r",
                expected: .invalidArgument(command: .pcmd, argumentIndex: 4, value: 2_143_289_344)),
    MalformedAT(text: "AT*PCMD_MAG=1,1,0,0,0,0,0\r", expected: .missingArgument(command: .pcmdMag, argumentIndex: 6, offset: 25)),
    MalformedAT(text: "AT*CALIB=1,1\r", expected: .invalidArgument(command: .calib, argumentIndex: 0, value: 1)),
    MalformedAT(text: "AT*CTRL=1,7,0\r", expected: .invalidArgument(command: .ctrl, argumentIndex: 0, value: 7)),
    MalformedAT(text: "AT*CTRL=1,5,1\r", expected: .invalidArgument(command: .ctrl, argumentIndex: 1, value: 1)),
    MalformedAT(text: "AT*CONFIG=1,key,\"v\"\r", expected: .unexpectedByte(0x6B, offset: 12)),
    MalformedAT(text: "AT*CONFIG=1,\"k\r", expected: .invalidString(offset: 12)),
    MalformedAT(text: "AT*CONFIG=1,\"k\",\"a\tb\"\r", expected: .invalidString(offset: 16)),
    MalformedAT(text: "AT*CONFIG=1,\"k\"\"v\"\r", expected: .unexpectedByte(0x22, offset: 15)),
])
func malformedAT(example: MalformedAT) {
    #expect(throws: example.expected) {
        try ATDecoder.decode(Array(example.text.utf8))
    }
}

@Test("Datagrams over 1024 bytes are rejected")
func decoderLengthLimit() {
    let command = "AT*COMWDG=1\r"
    let text = String(repeating: command, count: 1024 / command.utf8.count + 1)
    #expect(throws: ATDecodingError.datagramTooLong(byteCount: text.utf8.count, limit: 1024)) {
        try ATDecoder.decode(Array(text.utf8))
    }
}

@Test("Error kinds classify every error case")
func atErrorKinds() {
    #expect(ATDecodingError.emptyDatagram.kind == .emptyDatagram)
    #expect(ATDecodingError.invalidArgument(command: .ctrl, argumentIndex: 0, value: 9).kind == .invalidArgument)
    #expect(ATDecodingError.Kind.allCases.count == 11)
}

@Test("AT round trip over 5000 generated datagrams: decode(encode(x)) == x and bytes are canonical")
func atRoundTrip() throws {
    var rng = SplitMix64(seed: 0xA7C0_DEC0)
    for _ in 0..<5000 {
        // Given random valid commands and a random starting sequence number
        var commands: [ATCommand] = []
        for _ in 0..<rng.nextInt(in: 1...4) { commands.append(Arbitrary.atCommand(using: &rng)) }
        let first = UInt32(rng.nextInt(below: 1_000_000))
        var encoder = ATEncoder(firstSequenceNumber: first)
        // When encoded and decoded
        let bytes = try encoder.encodeDatagram(commands)
        let decoded = try ATDecoder.decode(bytes)
        // Then the same commands and numbers come back, and re-encoding gives the same bytes
        #expect(decoded.map(\.command) == commands)
        #expect(decoded.map(\.sequenceNumber) == (0..<UInt32(commands.count)).map { first + $0 })
        var reencoded: [UInt8] = []
        for item in decoded {
            try ATEncoder.append(item.command, sequenceNumber: item.sequenceNumber, to: &reencoded)
        }
        #expect(reencoded == bytes)
    }
}
