import Foundation
@testable import Simulation
import Testing
@testable import ARDrone
@testable import FollowCore

/// Float → int32 vectors from `Fixtures/at-commands.md` (node-ar-drone, python-ardrone, pyardrone,
/// objc.io); 0.1 and 0.3 from node-ar-drone's `pcmd({left:0.1, clockwise:0.3})`.
@Test("Float arguments are sent as their IEEE-754 single bit pattern", arguments: [
    (Float(-0.8), Int32(-1_085_485_875)),
    (0, 0),
    (10.0, 1_092_616_192),
    (0.8, 1_061_997_773),
    (0.5, 1_056_964_608),
    (3.5, 1_080_033_280),
    (3.0, 1_077_936_128),
    (2.0, 1_073_741_824),
    (0.75, 1_061_158_912),
    (-0.75, -1_086_324_736),
    (-0.1, -1_110_651_699),
    (0.3, 1_050_253_722),
])
func floatWireInteger(value: Float, expected: Int32) {
    #expect(ATEncoder.wireInteger(for: value) == expected)
}

/// Encodes `commands` starting at `firstSequenceNumber` and returns the text.
private func encodedText(_ commands: [ATCommand], firstSequenceNumber: UInt32) throws -> String {
    var encoder = ATEncoder(firstSequenceNumber: firstSequenceNumber)
    let bytes = try encoder.encodeDatagram(commands)
    return String(decoding: bytes, as: UTF8.self)
}

/// Every AT string of `Fixtures/at-commands.md`, reproduced byte for byte. `<seq>` placeholders in
/// the document are filled with the seq given here. Strings from node-ar-drone's REF
/// (`AT*REF=1,512`, `AT*REF=0,0`) and pyardrone's `AT*REF=100,20` omit the SDK base bits and are
/// reproducible only with `REFInput(rawInput:)`; every other REF uses the named constructors.
struct DocumentedVector: Sendable, CustomTestStringConvertible {
    let expected: String
    let firstSequenceNumber: UInt32
    let commands: [ATCommand]
    let source: String
    var testDescription: String { source }
}

/// node-ar-drone's `pcmd` aliases at 0.75, seq 7: each sets one of roll, pitch, gaz, yaw to ±0.75
/// (1061158912 / −1086324736 on the wire), progressive flag 1, the others 0.
let pcmdAliasVectors: [DocumentedVector] = [
    (source: "pcmd({left:0.75})", command: ProgressiveCommand(rollFraction: -0.75), wire: "-1086324736,0,0,0"),
    (source: "pcmd({right:0.75})", command: ProgressiveCommand(rollFraction: 0.75), wire: "1061158912,0,0,0"),
    (source: "pcmd({front:0.75}): forward = negative pitch", command: ProgressiveCommand(pitchFraction: -0.75),
     wire: "0,-1086324736,0,0"),
    (source: "pcmd({back:0.75})", command: ProgressiveCommand(pitchFraction: 0.75), wire: "0,1061158912,0,0"),
    (source: "pcmd({up:0.75})", command: ProgressiveCommand(gazFraction: 0.75), wire: "0,0,1061158912,0"),
    (source: "pcmd({down:0.75})", command: ProgressiveCommand(gazFraction: -0.75), wire: "0,0,-1086324736,0"),
    (source: "pcmd({clockwise:0.75}): positive yaw", command: ProgressiveCommand(yawFraction: 0.75),
     wire: "0,0,0,1061158912"),
    (source: "pcmd({counterClockwise:0.75})", command: ProgressiveCommand(yawFraction: -0.75), wire: "0,0,0,-1086324736"),
].map { row in
    DocumentedVector(expected: "AT*PCMD=7,1,\(row.wire)\r", firstSequenceNumber: 7, commands: [.pcmd(row.command)],
                     source: row.source)
}

let documentedVectors: [DocumentedVector] = pcmdAliasVectors + [
    // AT*REF
    .init(expected: "AT*REF=26,290718208\r", firstSequenceNumber: 26, commands: [.ref(.takeoff)],
          source: "pyardrone test_pack_default (issue 16)"),
    .init(expected: "AT*REF=100,20\r", firstSequenceNumber: 100, commands: [.ref(REFInput(rawInput: 20))],
          source: "pyardrone test_pack (raw REF)"),
    .init(expected: "AT*REF=4,290717696\r", firstSequenceNumber: 4, commands: [.ref(.land)],
          source: "pyardrone test_pack_equal (land/idle)"),
    .init(expected: "AT*REF=1,512\r", firstSequenceNumber: 1, commands: [.ref(REFInput(rawInput: 1 << 9))],
          source: "node-ar-drone README takeoff (raw REF, no base)"),
    .init(expected: "AT*REF=0,0\rAT*PCMD=1,0,0,0,0,0\r", firstSequenceNumber: 0,
          commands: [.ref(REFInput(rawInput: 0)), .pcmd(.hover)],
          source: "node-ar-drone UdpControl flush, seq from 0 (raw REF)"),
    .init(expected: "AT*REF=1,290717696\rAT*REF=2,290717952\rAT*REF=3,290717696\r", firstSequenceNumber: 1,
          commands: [.ref(.land), .ref(.emergencyToggle), .ref(.land)],
          source: "robotappstore land / emergency toggle / release"),
    // AT*PCMD (seq chosen as 7; the node-ar-drone aliases with 0.75 are `pcmdAliasVectors`)
    .init(expected: "AT*PCMD=7,0,0,0,0,0\r", firstSequenceNumber: 7, commands: [.pcmd(.hover)],
          source: "node-ar-drone pcmd() = hover"),
    .init(expected: "AT*PCMD=7,1,-1110651699,0,0,1050253722\r", firstSequenceNumber: 7,
          commands: [.pcmd(ProgressiveCommand(rollFraction: -0.1, yawFraction: 0.3))],
          source: "pcmd({left:0.1, clockwise:0.3})"),
    .init(expected: "AT*PCMD=10,1,0,1061997773,0,0\r", firstSequenceNumber: 10,
          commands: [.pcmd(ProgressiveCommand(pitchFraction: 0.8))], source: "pyardrone docs/at.rst"),
    .init(expected: "AT*PCMD=6,1,0,1056964608,0,0\r", firstSequenceNumber: 6,
          commands: [.pcmd(ProgressiveCommand(pitchFraction: 0.5))], source: "objc.io article (pitch +0.5 = backward)"),
    .init(expected: "AT*PCMD=21625,1,0,0,0,0\rAT*REF=21626,290717696\r", firstSequenceNumber: 21625,
          commands: [.pcmd(ProgressiveCommand()), .ref(.land)],
          source: "Developer Guide §6.1 (LF in the guide, CR on the wire)"),
    // AT*CONFIG / CTRL / others
    .init(expected: "AT*CONFIG=2,\"general:navdata_demo\",\"TRUE\"\r", firstSequenceNumber: 2,
          commands: [.config(key: "general:navdata_demo", boolValue: true)], source: "node-ar-drone config1.serialize(2)"),
    .init(expected: "AT*CTRL=3,5,0\r", firstSequenceNumber: 3, commands: [.ctrl(.acknowledgeCommand)],
          source: "node-ar-drone CTRL ack serialize(3)"),
    .init(expected: "AT*CONFIG=8,\"leds:leds_anim\",\"1,1077936128,3\"\r", firstSequenceNumber: 8,
          commands: [.config(key: "leds:leds_anim", value: "1,\(ATEncoder.wireInteger(for: 3)),3")],
          source: "node-ar-drone animateLeds('blinkGreen',3,3)"),
    .init(expected: "AT*CONFIG=8,\"leds:leds_anim\",\"9,1073741824,3\"\r", firstSequenceNumber: 8,
          commands: [.config(key: "leds:leds_anim", value: "9,\(ATEncoder.wireInteger(for: 2)),3")],
          source: "node-ar-drone animateLeds() defaults"),
    .init(expected: "AT*CONFIG=8,\"control:flight_anim\",\"8,2000\"\r", firstSequenceNumber: 8,
          commands: [.config(key: "control:flight_anim", value: "8,2000")], source: "node-ar-drone animate('yawShake',2000)"),
    .init(expected: "AT*CALIB=8,0\r", firstSequenceNumber: 8, commands: [.calib(.magnetometer)],
          source: "node-ar-drone calibrate(0)"),
    .init(expected: "AT*FTRIM=8\r", firstSequenceNumber: 8, commands: [.ftrim], source: "node-ar-drone ftrim()"),
    .init(expected: "AT*COMWDG=100\r", firstSequenceNumber: 100, commands: [.comwdg],
          source: "pyardrone parameterless pack (no trailing comma)"),
    .init(expected: "AT*CONFIG_IDS=8,\"d2e081a3\",\"2BF07F58\",\"9D7BFD45\"\rAT*CONFIG=9,\"custom:session_id\",\"d2e081a3\"\r",
          firstSequenceNumber: 8,
          commands: [.configIDs(sessionID: "d2e081a3", userID: "2BF07F58", applicationID: "9D7BFD45"),
                     .config(key: "custom:session_id", value: "d2e081a3")],
          source: "paparazzi at_com_send_config (CONFIG_IDS then CONFIG at seq+1)"),
    .init(expected: "AT*CONFIG=1,\"general:navdata_demo\",\"FALSE\"\rAT*CONFIG=2,\"control:altitude_max\",\"1600\"\r"
            + "AT*CONFIG=3,\"control:flying_mode\",\"1000\"\rAT*COMWDG=4\rAT*FTRIM=5\r",
          firstSequenceNumber: 1,
          commands: [.config(key: "general:navdata_demo", boolValue: false),
                     .config(key: "control:altitude_max", intValue: 1600),
                     .config(key: "control:flying_mode", intValue: 1000), .comwdg, .ftrim],
          source: "objc.io setupDefaults (separate datagrams there; concatenated here)"),
]

@Test("Documented AT strings are reproduced byte for byte", arguments: documentedVectors)
func documentedVectorEncodes(vector: DocumentedVector) throws {
    #expect(try encodedText(vector.commands, firstSequenceNumber: vector.firstSequenceNumber) == vector.expected)
}

@Test("Documented AT strings decode back to the same commands and sequence numbers", arguments: documentedVectors)
func documentedVectorDecodes(vector: DocumentedVector) throws {
    let decoded = try ATDecoder.decode(Array(vector.expected.utf8))
    #expect(decoded.map(\.command) == vector.commands)
    let expectedSequence = (0..<UInt32(vector.commands.count)).map { vector.firstSequenceNumber + $0 }
    #expect(decoded.map(\.sequenceNumber) == expectedSequence)
}

/// Replaces the sequence number of every command line with `#` so `<seq>` templates compare.
private func sequenceNormalizedLines(_ text: String) -> [String] {
    text.split(separator: "\r").map { line in
        guard let equals = line.firstIndex(of: "=") else { return String(line) }
        let afterSeq = line[equals...].firstIndex(of: ",") ?? line.endIndex
        return String(line[...equals]) + "#" + String(line[afterSeq...])
    }
}

@Test("Every AT literal in at-commands.md is reproduced by the vector table")
func atCommandsDocumentIsCovered() throws {
    // Given the document's backticked strings that start with AT*
    let text = try Fixture.text("at-commands.md")
    let literals = text.split(separator: "`", omittingEmptySubsequences: false)
        .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        .filter { $0.hasPrefix("AT*") && !$0.hasPrefix("AT*EXAMPLE") }
    #expect(literals.count >= 25)
    let reproduced = Set(documentedVectors.flatMap { sequenceNormalizedLines($0.expected) })
    var checked = 0
    for literal in literals {
        // When `\r` and the guide's `<LF>` are read as terminators and seqs normalized
        let concrete = literal.replacingOccurrences(of: "\\r", with: "\r")
            .replacingOccurrences(of: "<LF>", with: "\r")
        for line in sequenceNormalizedLines(concrete) where !line.contains("<") {
            // Then the table produces that command line
            #expect(reproduced.contains(line), "not reproduced: \(line.debugDescription)")
            checked += 1
        }
    }
    #expect(checked >= 30)
}

@Test("REF always carries the SDK base bits unless built raw")
func refBaseBits() {
    #expect(REFInput.land.rawValue == 290_717_696)
    #expect(REFInput.takeoff.rawValue == 290_718_208)
    #expect(REFInput.emergencyToggle.rawValue == 290_717_952)
    #expect(REFInput(flying: true, emergencyToggle: true).rawValue == 0x1154_0300)
    #expect(REFInput.takeoff.requestsFlight && !REFInput.land.requestsFlight)
    #expect(REFInput.emergencyToggle.togglesEmergency && !REFInput.takeoff.togglesEmergency)
    #expect(REFInput.land.hasSDKBaseBits && !REFInput(rawInput: 512).hasSDKBaseBits)
}

@Test("Sequence numbers are assigned at encode time, start at 1 and increase per command")
func sequenceNumbersAtEncodeTime() throws {
    // Given one command value re-sent on every tick
    let desired: [ATCommand] = [.pcmd(.hover), .ref(.land)]
    var encoder = ATEncoder()
    var datagram: [UInt8] = []
    // When it is encoded twice
    try encoder.encode(desired, into: &datagram)
    let first = String(decoding: datagram, as: UTF8.self)
    try encoder.encode(desired, into: &datagram)
    let second = String(decoding: datagram, as: UTF8.self)
    // Then the numbers continue across datagrams
    #expect(first == "AT*PCMD=1,0,0,0,0,0\rAT*REF=2,290717696\r")
    #expect(second == "AT*PCMD=3,0,0,0,0,0\rAT*REF=4,290717696\r")
    #expect(encoder.nextSequenceNumber == 5)
    encoder.resetSequence()
    #expect(encoder.nextSequenceNumber == 1)
}

@Test("Sequence numbers wrap from Int32.max to 1")
func sequenceWrap() throws {
    var encoder = ATEncoder(firstSequenceNumber: UInt32(Int32.max))
    var datagram: [UInt8] = []
    try encoder.encode([.comwdg, .comwdg], into: &datagram)
    #expect(String(decoding: datagram, as: UTF8.self) == "AT*COMWDG=2147483647\rAT*COMWDG=1\r")
}

@Test("Extreme integers are formatted exactly")
func extremeIntegers() throws {
    var datagram: [UInt8] = []
    try ATEncoder.append(.ref(REFInput(rawInput: 0x8000_0000)), sequenceNumber: UInt32.max, to: &datagram)
    try ATEncoder.append(.pcmd(ProgressiveCommand(flags: .progressive, rollFraction: -0.0)), sequenceNumber: 0, to: &datagram)
    #expect(String(decoding: datagram, as: UTF8.self)
        == "AT*REF=4294967295,-2147483648\rAT*PCMD=0,1,-2147483648,0,0,0\r")
}

@Test("Terminator is CR (0x0D) and never LF")
func terminatorIsCarriageReturn() throws {
    var encoder = ATEncoder()
    for _ in 0..<50 {
        var rng = SplitMix64(seed: UInt64(encoder.nextSequenceNumber))
        let bytes = try encoder.encodeDatagram([Arbitrary.atCommand(using: &rng)])
        #expect(bytes.last == 0x0D)
        #expect(!bytes.contains(0x0A))
    }
}

@Test("Progressive commands clamp to [-1, 1] and turn into hover on NaN or infinity")
func progressiveCommandSanitizing() {
    let clamped = ProgressiveCommand(rollFraction: 1.5, pitchFraction: -7, gazFraction: 0.25, yawFraction: -1)
    #expect(clamped.rollFraction == 1 && clamped.pitchFraction == -1)
    #expect(clamped.gazFraction == 0.25 && clamped.yawFraction == -1)
    #expect(clamped.flags == .progressive)
    let poisoned = ProgressiveCommand(flags: .progressive, rollFraction: 0.2, pitchFraction: .nan)
    #expect(poisoned == .hover)
    #expect(poisoned.isHover)
    #expect(ProgressiveCommand(yawFraction: -.infinity) == .hover)
    let heading = ControllerHeading(psiFraction: .nan, psiAccuracyFraction: 3)
    #expect(heading.psiFraction == 0 && heading.psiAccuracyFraction == 1)
}

@Test("PCMD_MAG carries psi and psi accuracy after the four values")
func pcmdMag() throws {
    let text = try encodedText(
        [.pcmdMag(ProgressiveCommand(flags: [.progressive, .absoluteControl], pitchFraction: -0.8),
                  ControllerHeading(psiFraction: 0.5, psiAccuracyFraction: 0.75))],
        firstSequenceNumber: 3)
    #expect(text == "AT*PCMD_MAG=3,5,0,-1085485875,0,0,1056964608,1061158912\r")
}

@Test("A datagram never exceeds 1024 bytes; the failed append changes nothing")
func datagramLimit() throws {
    // Given a datagram filled with CONFIG commands close to the limit
    let longValue = String(repeating: "x", count: 200)
    var encoder = ATEncoder()
    var datagram: [UInt8] = []
    var appended = 0
    var caught: ATEncodingError?
    while caught == nil {
        do {
            try encoder.append(.config(key: "k", value: longValue), to: &datagram)
            appended += 1
        } catch {
            caught = error
        }
    }
    // Then the last append was refused without touching the datagram or the counter
    #expect(datagram.count <= ATEncoder.maximumDatagramByteCount)
    #expect(appended == 4)
    #expect(encoder.nextSequenceNumber == 5)
    guard case .datagramTooLong(let byteCount, let limit) = caught else {
        Issue.record("expected datagramTooLong, got \(String(describing: caught))")
        return
    }
    #expect(limit == 1024 && byteCount > 1024 && byteCount == datagram.count + 219)
    // And encode(_:into:) is all-or-nothing
    var whole: [UInt8] = [1, 2, 3]
    #expect(throws: ATEncodingError.self) {
        try encoder.encode(Array(repeating: ATCommand.config(key: "k", value: longValue), count: 5), into: &whole)
    }
    #expect(whole.isEmpty)
    #expect(encoder.nextSequenceNumber == 5)
}

@Test("Strings that cannot be sent are rejected", arguments: [
    ("quote\"inside", UInt8(0x22)), ("new\nline", 0x0A), ("cr\r", 0x0D), ("caf\u{E9}", 0xC3), ("tab\t", 0x09),
])
func invalidStrings(value: String, offendingByte: UInt8) {
    var datagram: [UInt8] = [0x41]
    #expect(throws: ATEncodingError.invalidStringArgument(
        command: .config, argumentIndex: 1, value: value, offendingByte: offendingByte)) {
        try ATEncoder.append(.config(key: "general:ok", value: value), sequenceNumber: 1, to: &datagram)
    }
    #expect(datagram == [0x41])
}

@Test("Steady-state encoding reuses the caller's buffer")
func encodingReusesBuffer() throws {
    // Given a buffer with the full datagram capacity reserved once
    var datagram: [UInt8] = []
    datagram.reserveCapacity(ATEncoder.maximumDatagramByteCount)
    let base = datagram.withUnsafeBufferPointer { $0.baseAddress }
    var encoder = ATEncoder()
    let tick: [ATCommand] = [
        .pcmdMag(ProgressiveCommand(pitchFraction: -0.3, yawFraction: 0.2), .unknown), .ref(.takeoff),
        .configIDs(sessionID: "d2e081a3", userID: "be27e2e4", applicationID: "d87f7e0c"),
        .config(key: "general:navdata_options", intValue: 138_412_033),
    ]
    // When many ticks are encoded
    for _ in 0..<1000 { try encoder.encode(tick, into: &datagram) }
    // Then the storage was never reallocated
    #expect(datagram.withUnsafeBufferPointer { $0.baseAddress } == base)
    #expect(datagram.capacity >= ATEncoder.maximumDatagramByteCount)
}
