import FollowCore

/// One navdata packet (UDP 5554, drone → client), decoded.
///
/// Wire layout (`ARDroneLib/Soft/Common/navdata_common.h`, all little-endian): 16-byte header
/// (magic, state, sequence, vision flag), then options `{uint16 tag; uint16 size; data}` whose
/// `size` includes the 4-byte option header, ending with the checksum option (tag 0xFFFF, size 8).
/// The checksum is not stored here: decoding verifies it and encoding recomputes it.
///
/// Decoding keeps every byte (typed options keep their extension bytes, other options are kept
/// raw), so `try Navdata(bytes: b).encoded() == b` for every packet that decodes.
public struct Navdata: Sendable, Equatable {
    /// Header magic; both values are accepted.
    public var magic: NavdataMagic = .standard
    /// The drone state word.
    public var state: DroneState = DroneState(rawValue: 0)
    /// Packet counter; increases per packet (the SDK drops packets whose number does not).
    public var sequenceNumber: UInt32 = 0
    /// `vision_defined` (`bool_t`, 4 bytes) as sent; see `isVisionDefined`.
    public var visionFlag: UInt32 = 0
    /// Options in wire order, without the checksum option.
    public var options: [NavdataOption] = []

    /// Whether the vision flag is non-zero.
    public var isVisionDefined: Bool { visionFlag != 0 }

    /// The first demo option (tag 0), if present.
    public var demo: NavdataDemo? { firstOption { if case .demo(let demo) = $0 { demo } else { nil } } }

    /// The first time option (tag 1), if present.
    public var time: NavdataTime? { firstOption { if case .time(let time) = $0 { time } else { nil } } }

    /// The first magnetometer option (tag 22, ≥ 75 bytes), if present.
    public var magneto: NavdataMagneto? {
        firstOption { if case .magneto(let magneto) = $0 { magneto } else { nil } }
    }

    /// The first GPS option in the fw 2.4.8 216-byte layout (tag 27), if present. A tag-27 option
    /// of any other size is in `options` as `.raw`.
    public var gps: NavdataGPS? { firstOption { if case .gps(let gps) = $0 { gps } else { nil } } }

    /// The payload of the first option, in wire order, that `payload` returns one for.
    private func firstOption<Payload>(_ payload: (NavdataOption) -> Payload?) -> Payload? {
        for option in options {
            if let value = payload(option) { return value }
        }
        return nil
    }

    /// A bootstrap packet: header and checksum only, with `.navdataBootstrap` set — what the
    /// drone sends before `general:navdata_demo` is configured (docs/ardrone-protocol.md §1.2).
    public static func bootstrap(state: DroneState, sequenceNumber: UInt32) -> Navdata {
        Navdata(state: state.union(.navdataBootstrap), sequenceNumber: sequenceNumber)
    }

    /// A demo-mode packet: `.navdataDemo` set, `.navdataBootstrap` clear, the demo option first,
    /// then `additionalOptions` (e.g. magneto and GPS when `general:navdata_options` asks for them).
    public static func demoPacket(
        state: DroneState,
        sequenceNumber: UInt32,
        demo: NavdataDemo,
        additionalOptions: [NavdataOption] = []
    ) -> Navdata {
        Navdata(
            state: state.union(.navdataDemo).subtracting(.navdataBootstrap),
            sequenceNumber: sequenceNumber,
            options: [.demo(demo)] + additionalOptions
        )
    }
}

/// The navdata header magic (`navdata_common.h`).
public enum NavdataMagic: UInt32, Sendable, CaseIterable {
    /// `NAVDATA_HEADER` 0x55667788.
    case standard = 0x5566_7788
    /// `NAVDATA_HEADER2` 0x55667789, accepted by node-ar-drone since PR #76.
    case alternate = 0x5566_7789
}

/// Navdata option tags (`ARDroneLib/Soft/Common/navdata_keys.h`; 27 = GPS in firmware ≥ 2.4).
public struct NavdataOptionTag: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let demo = NavdataOptionTag(rawValue: 0)
    public static let time = NavdataOptionTag(rawValue: 1)
    public static let rawMeasures = NavdataOptionTag(rawValue: 2)
    public static let physicalMeasures = NavdataOptionTag(rawValue: 3)
    public static let gyroOffsets = NavdataOptionTag(rawValue: 4)
    public static let eulerAngles = NavdataOptionTag(rawValue: 5)
    public static let references = NavdataOptionTag(rawValue: 6)
    public static let trims = NavdataOptionTag(rawValue: 7)
    public static let rcReferences = NavdataOptionTag(rawValue: 8)
    public static let pwm = NavdataOptionTag(rawValue: 9)
    public static let altitude = NavdataOptionTag(rawValue: 10)
    public static let visionRaw = NavdataOptionTag(rawValue: 11)
    public static let visionOpticalFlow = NavdataOptionTag(rawValue: 12)
    public static let vision = NavdataOptionTag(rawValue: 13)
    public static let visionPerformance = NavdataOptionTag(rawValue: 14)
    public static let trackersSend = NavdataOptionTag(rawValue: 15)
    public static let visionDetect = NavdataOptionTag(rawValue: 16)
    public static let watchdog = NavdataOptionTag(rawValue: 17)
    public static let adcDataFrame = NavdataOptionTag(rawValue: 18)
    public static let videoStream = NavdataOptionTag(rawValue: 19)
    public static let games = NavdataOptionTag(rawValue: 20)
    public static let pressureRaw = NavdataOptionTag(rawValue: 21)
    public static let magneto = NavdataOptionTag(rawValue: 22)
    public static let windSpeed = NavdataOptionTag(rawValue: 23)
    public static let kalmanPressure = NavdataOptionTag(rawValue: 24)
    public static let hdVideoStream = NavdataOptionTag(rawValue: 25)
    public static let wifi = NavdataOptionTag(rawValue: 26)
    /// `zimmu_3000` in SDK 2.0.1, GPS in later firmware (ardronelib `origin/gps` branch).
    public static let gps = NavdataOptionTag(rawValue: 27)
    /// `NAVDATA_CKS_TAG` 0xFFFF: the checksum option, always last.
    public static let checksum = NavdataOptionTag(rawValue: 0xFFFF)
}

/// One navdata option. Only the options follow-me needs are decoded; the rest stay raw.
public enum NavdataOption: Sendable, Equatable {
    /// Tag 0.
    case demo(NavdataDemo)
    /// Tag 1.
    case time(NavdataTime)
    /// Tag 22.
    case magneto(NavdataMagneto)
    /// Tag 27 with exactly 216 bytes (fw 2.4.8 layout).
    case gps(NavdataGPS)
    /// Any other option, including tag 27 with another size (fw 2.4.7's 480 bytes).
    case raw(NavdataRawOption)

    /// The option's tag on the wire.
    public var tag: NavdataOptionTag {
        switch self {
        case .demo: .demo
        case .time: .time
        case .magneto: .magneto
        case .gps: .gps
        case .raw(let raw): raw.tag
        }
    }

    /// The option's `size` field on the wire: 4 header bytes plus the payload.
    public var wireSize: Int {
        switch self {
        case .demo(let demo): NavdataDemo.decodedByteCount + demo.trailingByteCount
        case .time(let time): NavdataTime.minimumByteCount + time.extensionBytes.count
        case .magneto(let magneto): NavdataMagneto.minimumByteCount + magneto.extensionBytes.count
        case .gps: NavdataGPS.byteCount
        case .raw(let raw): 4 + raw.payload.count
        }
    }
}

/// An option kept as bytes: its tag and the `size - 4` bytes after the option header.
///
/// If a raw option's tag and size match a typed layout (tag 0, 1, 22, or 27 with 216 bytes),
/// re-decoding its encoding yields the typed case; the bytes are the same.
public struct NavdataRawOption: Sendable, Equatable {
    public var tag: NavdataOptionTag
    public var payload: [UInt8]

    public init(tag: NavdataOptionTag, payload: [UInt8]) {
        self.tag = tag
        self.payload = payload
    }
}

extension Navdata: Configurable { public static var defaults: Self { Self() } }

/// Three components as sent by the drone (frame and unit named by the property holding it): floats
/// (`NavdataVector3`) or raw sensor counts (`NavdataInt16Vector3`), one layout for both.
public struct NavdataTriple<Scalar: Sendable & Hashable>: Sendable, Hashable {
    public var x: Scalar
    public var y: Scalar
    public var z: Scalar

    public init(x: Scalar, y: Scalar, z: Scalar) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Three `Float` components.
public typealias NavdataVector3 = NavdataTriple<Float>
/// Three `Int16` components (raw sensor counts).
public typealias NavdataInt16Vector3 = NavdataTriple<Int16>

extension NavdataTriple where Scalar == Float {
    public static var zero: Self { Self(x: 0, y: 0, z: 0) }
}

/// The drone's packed time format: top 11 bits seconds, low 21 bits microseconds.
///
/// SDK `ARDroneLib/Soft/Common/config.h` `TSECDEC 21`, `ardrone_time_to_usec`; fixture time
/// option 0x2D4EF0B5 = 362 s + 979125 µs.
public struct NavdataTimestamp: Sendable, Hashable {
    /// The packed 32-bit value as sent.
    public let rawValue: UInt32

    /// Bits of the microsecond field (`TSECDEC`).
    static let microsecondBitCount: UInt32 = 21

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packs seconds (0...2047) and microseconds (0...2097151); excess bits are dropped.
    public init(seconds: UInt32, microseconds: UInt32) {
        let microsecondMask: UInt32 = (1 << Self.microsecondBitCount) - 1
        rawValue = (seconds << Self.microsecondBitCount) | (microseconds & microsecondMask)
    }

    /// Whole seconds (top 11 bits).
    public var seconds: UInt32 { rawValue >> Self.microsecondBitCount }
    /// Microseconds field (low 21 bits; may exceed 999999 if the drone sends it).
    public var microseconds: UInt32 { rawValue & ((1 << Self.microsecondBitCount) - 1) }
    /// seconds × 10⁶ + microseconds.
    public var totalMicroseconds: UInt64 { UInt64(seconds) * 1_000_000 + UInt64(microseconds) }
    /// The same instant in milliseconds (node-ar-drone's unit: 362979.125 for the fixture).
    public var totalMilliseconds: Double { Double(totalMicroseconds) / 1000 }
}
