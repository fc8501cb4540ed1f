/// The demo option (tag 0, 148 bytes): flight state, battery, attitude, altitude, velocity.
///
/// Layout `navdata_demo_t` (`navdata_common.h`); units per docs/ardrone-protocol.md §3.4. Body frame
/// is x forward, y right, z down; theta positive = nose up, psi increasing clockwise seen from
/// above (ardrone_autonomy's REP-103 conversion negates theta, psi, vy, vz).
public struct NavdataDemo: Sendable, Equatable {
    public static func == (a: NavdataDemo, b: NavdataDemo) -> Bool {
        a.controlStateWord == b.controlStateWord && a.batteryPercent == b.batteryPercent
            && a.thetaMillidegrees == b.thetaMillidegrees && a.phiMillidegrees == b.phiMillidegrees
            && a.psiMillidegrees == b.psiMillidegrees && a.altitudeMillimeters == b.altitudeMillimeters
            && a.bodyVelocityMillimetersPerSecond == b.bodyVelocityMillimetersPerSecond
            && a.legacyTrailer.indices.allSatisfy { a.legacyTrailer[$0] == b.legacyTrailer[$0] }
            && a.extensionBytes == b.extensionBytes
    }

    /// Bytes up to and including vz: option header 4 + 36 bytes of fields decoded here.
    static let decodedByteCount = 40
    /// `sizeof(navdata_demo_t)` = 148; "navdata_demo … size must be constant" (`navdata_common.h`).
    public static let fixedByteCount = 148
    /// Bytes after vz in a 148-byte demo option (num_frames and the deprecated detection/camera
    /// matrices).
    public static let legacyTrailingByteCount = fixedByteCount - decodedByteCount

    /// `ctrl_state`: major state in the high 16 bits, minor state in the low 16 bits
    /// (ardrone_autonomy `ctrl_state >> 16`; node-ar-drone reads two uint16, minor first).
    public var controlStateWord: UInt32
    /// `vbat_flying_percentage`: battery charge in percent, 0–100 (the SDK comment "(mV)" is wrong;
    /// fixture = 50).
    public var batteryPercent: UInt32
    /// `theta`, pitch in millidegrees; positive = nose up.
    public var thetaMillidegrees: Float
    /// `phi`, roll in millidegrees; positive = right side down.
    public var phiMillidegrees: Float
    /// `psi`, yaw in millidegrees, ±180000; increases clockwise seen from above.
    public var psiMillidegrees: Float
    /// `altitude` in millimeters (what node-ar-drone and ardrone_autonomy odometry assume; the SDK
    /// comment says cm — conflict, docs/ardrone-protocol.md §3.4).
    public var altitudeMillimeters: Int32
    /// `vx, vy, vz` in mm/s, body frame (x forward, y right, z down).
    public var bodyVelocityMillimetersPerSecond: NavdataVector3
    /// `num_frames` and the deprecated detection/camera fields (the 108 bytes after vz), kept raw
    /// so re-encoding is byte-exact. Stored inline: decoding a demo option allocates nothing.
    var legacyTrailer: InlineArray<108, UInt8>
    /// Bytes after the 148-byte layout, if a drone ever sends a longer demo option (normally none).
    public private(set) var extensionBytes: [UInt8]

    /// Everything after vz, as sent: the 108 legacy bytes, then `extensionBytes`. A new array per
    /// call (encoding and inspection only).
    public var trailingBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.legacyTrailingByteCount + extensionBytes.count)
        for index in legacyTrailer.indices { bytes.append(legacyTrailer[index]) }
        bytes += extensionBytes
        return bytes
    }

    /// Bytes after vz: 108 plus any extension.
    public var trailingByteCount: Int { Self.legacyTrailingByteCount + extensionBytes.count }

    /// - Parameter trailingBytes: padded with zeros to 108 bytes if shorter.
    public init(
        controlStateWord: UInt32,
        batteryPercent: UInt32,
        thetaMillidegrees: Float,
        phiMillidegrees: Float,
        psiMillidegrees: Float,
        altitudeMillimeters: Int32,
        bodyVelocityMillimetersPerSecond: NavdataVector3,
        trailingBytes: [UInt8] = []
    ) {
        self.controlStateWord = controlStateWord
        self.batteryPercent = batteryPercent
        self.thetaMillidegrees = thetaMillidegrees
        self.phiMillidegrees = phiMillidegrees
        self.psiMillidegrees = psiMillidegrees
        self.altitudeMillimeters = altitudeMillimeters
        self.bodyVelocityMillimetersPerSecond = bodyVelocityMillimetersPerSecond
        var trailer = InlineArray<108, UInt8>(repeating: 0)
        for index in 0..<min(trailingBytes.count, Self.legacyTrailingByteCount) {
            trailer[index] = trailingBytes[index]
        }
        legacyTrailer = trailer
        extensionBytes = trailingBytes.count > Self.legacyTrailingByteCount
            ? Array(trailingBytes[Self.legacyTrailingByteCount...]) : []
    }

    /// Decoding: sets everything after vz from `trailing` (at least 108 bytes: the caller checked
    /// the option's size). Allocates only if the option is longer than 148 bytes.
    mutating func setTrailing(_ trailing: UnsafeRawBufferPointer) {
        precondition(trailing.count >= Self.legacyTrailingByteCount, "demo option shorter than 148 bytes")
        legacyTrailer = InlineArray { trailing[$0] }
        extensionBytes = trailing.count > Self.legacyTrailingByteCount
            ? Array(trailing[Self.legacyTrailingByteCount...]) : []
    }

    /// Convenience for building packets (simulator): major state plus minor state.
    public init(
        controlState: ControlState,
        minorState: UInt16 = 0,
        batteryPercent: UInt32,
        thetaMillidegrees: Float = 0,
        phiMillidegrees: Float = 0,
        psiMillidegrees: Float = 0,
        altitudeMillimeters: Int32 = 0,
        bodyVelocityMillimetersPerSecond: NavdataVector3 = .zero
    ) {
        self.init(
            controlStateWord: UInt32(controlState.rawValue) << 16 | UInt32(minorState),
            batteryPercent: batteryPercent,
            thetaMillidegrees: thetaMillidegrees,
            phiMillidegrees: phiMillidegrees,
            psiMillidegrees: psiMillidegrees,
            altitudeMillimeters: altitudeMillimeters,
            bodyVelocityMillimetersPerSecond: bodyVelocityMillimetersPerSecond
        )
    }

    /// Major state (`ctrl_state >> 16`), or nil if the drone sent a value outside CTRL_STATES.
    public var controlState: ControlState? { ControlState(rawValue: UInt16(controlStateWord >> 16)) }
    /// Raw major state number (`ctrl_state >> 16`).
    public var controlStateMajor: UInt16 { UInt16(controlStateWord >> 16) }
    /// Minor state (`ctrl_state & 0xFFFF`); its meaning depends on the major state
    /// (e.g. FLYING_OK = 0, HOVERING_LOST_COM = 8 — `control_states.h`).
    public var controlStateMinor: UInt16 { UInt16(truncatingIfNeeded: controlStateWord) }

    /// Pitch in degrees (theta / 1000); positive = nose up.
    public var thetaDegrees: Double { Double(thetaMillidegrees) / 1000 }
    /// Roll in degrees (phi / 1000).
    public var phiDegrees: Double { Double(phiMillidegrees) / 1000 }
    /// Yaw in degrees (psi / 1000), clockwise seen from above.
    public var psiDegrees: Double { Double(psiMillidegrees) / 1000 }
    /// Altitude in meters.
    public var altitudeMeters: Double { Double(altitudeMillimeters) / 1000 }
    /// Body-frame velocity (x forward, y right, z down), m/s, as (x, y, z).
    public var bodyVelocityMetersPerSecond: (x: Double, y: Double, z: Double) {
        (
            Double(bodyVelocityMillimetersPerSecond.x) / 1000,
            Double(bodyVelocityMillimetersPerSecond.y) / 1000,
            Double(bodyVelocityMillimetersPerSecond.z) / 1000
        )
    }
}

/// Major control states, `CTRL_STATES` in `ARDroneLib/Soft/Common/control_states.h`.
public enum ControlState: UInt16, Sendable, CaseIterable {
    /// `CTRL_DEFAULT`.
    case defaultState = 0
    /// `CTRL_INIT`.
    case initializing = 1
    /// `CTRL_LANDED`.
    case landed = 2
    /// `CTRL_FLYING`.
    case flying = 3
    /// `CTRL_HOVERING`.
    case hovering = 4
    /// `CTRL_TEST`.
    case test = 5
    /// `CTRL_TRANS_TAKEOFF`: taking off.
    case transitionTakeoff = 6
    /// `CTRL_TRANS_GOTOFIX`: moving to a fix point (ardrone_autonomy treats 3 and 7 as flying).
    case transitionGotoFix = 7
    /// `CTRL_TRANS_LANDING`: landing.
    case transitionLanding = 8
    /// `CTRL_TRANS_LOOPING`: flip animation.
    case transitionLooping = 9
}

/// Minor control states (the low 16 bits of `ctrl_state`, `control_states.h`; docs/ardrone-protocol.md
/// §3.4) that FollowMe names. Their meaning depends on the major state.
public enum ControlMinorState {
    /// FLYING_OK / HOVERING_OK, and the only minor state of the other majors.
    public static let ok: UInt16 = 0
    /// HOVERING_LOST_COM: hovering because the communication watchdog tripped.
    public static let hoveringLostCom: UInt16 = 8
}
