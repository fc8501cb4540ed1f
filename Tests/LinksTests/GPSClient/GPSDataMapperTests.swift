import CGPS
@testable import Links
@testable import FollowCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `GPSDataMapper.map` on hand-filled `gps_data_t` values: what libgps would leave in the
/// struct after a read, including the traps (stale `set` bits, NaN, mode < 2, other devices).
@Suite("GPSDataMapper on hand-filled gps_data_t")
struct GPSDataMapperTests {
    static let watched = "/dev/gpstarget"
    static let receivedAt = MonotonicTime(seconds: 12.5)

    /// Allocates a zeroed `gps_data_t` (24 KB; never on the stack, never copied), lets `fill`
    /// set it up as libgps would, and maps it.
    static func map(
        _ cls: GPSDMessageClass, role: ReceiverRole = .target, watching device: String? = watched,
        _ fill: (UnsafeMutablePointer<gps_data_t>) -> Void
    ) -> GPSDataMapper.Outcome {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        fill(data)
        return GPSDataMapper.map(UnsafePointer(data), messageClass: cls, role: role, device: device,
                                 receivedAt: receivedAt)
    }

    /// Sets a TPV the way libgps leaves it: every double NaN unless given.
    static func fillTPV(
        _ data: UnsafeMutablePointer<gps_data_t>, mode: Int32, latitude: Double = .nan, longitude: Double = .nan,
        set: UInt64, path: String = watched
    ) {
        data.pointee.fix.mode = mode
        data.pointee.fix.latitude = latitude
        data.pointee.fix.longitude = longitude
        for keyPath in [\gps_fix_t.altHAE, \.altMSL, \.track, \.speed, \.climb, \.eph, \.epv, \.eps, \.epx, \.epy] {
            data.pointee.fix[keyPath: keyPath] = .nan
        }
        fm_set_set_mask(data, set)
        fm_set_device_path(data, path)
    }

    // MARK: TPV mode, position and set bits

    enum Expected: Sendable, Hashable {
        case fix(FixMode, latitudeDegrees: Double, longitudeDegrees: Double)
        case lostNoFix(mode: Int)
        case ignored(GPSDataMapper.Ignored)
    }

    /// A TPV as libgps left it (mode, lat/lon, set bits) and what the mapper must make of it.
    typealias TPVCase = (name: String, mode: Int32, latitude: Double, longitude: Double, set: UInt64, expected: Expected)

    static let position = fm_mask_mode | fm_mask_latlon | fm_mask_time

    static let tpvCases: [TPVCase] = [
        (name: "3D fix", mode: 3, latitude: 48.8566, longitude: 2.3522, set: position,
         expected: .fix(.threeD, latitudeDegrees: 48.8566, longitudeDegrees: 2.3522)),
        (name: "2D fix, southern/western hemisphere", mode: 2, latitude: -34.9062263, longitude: -71.0323987,
         set: position, expected: .fix(.twoD, latitudeDegrees: -34.9062263, longitudeDegrees: -71.0323987)),
        (name: "mode 0 (nothing seen) is a loss", mode: 0, latitude: .nan, longitude: .nan,
         set: fm_mask_mode, expected: .lostNoFix(mode: 0)),
        (name: "mode 1 (no fix) is a loss", mode: 1, latitude: .nan, longitude: .nan,
         set: fm_mask_mode, expected: .lostNoFix(mode: 1)),
        (name: "mode 1 with a stale finite position is still a loss", mode: 1, latitude: 48.8566,
         longitude: 2.3522, set: position, expected: .lostNoFix(mode: 1)),
        (name: "NaN latitude and longitude", mode: 3, latitude: .nan, longitude: .nan, set: position,
         expected: .ignored(.noPosition)),
        (name: "NaN latitude only", mode: 3, latitude: .nan, longitude: 2.3522, set: position,
         expected: .ignored(.noPosition)),
        (name: "NaN longitude only", mode: 2, latitude: 48.8566, longitude: .nan, set: position,
         expected: .ignored(.noPosition)),
        (name: "infinite latitude", mode: 3, latitude: .infinity, longitude: 2.3522, set: position,
         expected: .ignored(.noPosition)),
        (name: "latitude out of range", mode: 3, latitude: 90.000001, longitude: 2.3522, set: position,
         expected: .ignored(.noPosition)),
        (name: "longitude out of range", mode: 3, latitude: 48.8566, longitude: -180.5, set: position,
         expected: .ignored(.noPosition)),
        (name: "mode 3 but LATLON_SET missing (stale finite lat/lon)", mode: 3, latitude: 48.8566,
         longitude: 2.3522, set: fm_mask_mode | fm_mask_time, expected: .ignored(.noPosition)),
        (name: "mode 3, nothing set at all", mode: 3, latitude: 48.8566, longitude: 2.3522, set: 0,
         expected: .ignored(.noPosition)),
        (name: "mode 4 is not a gpsd mode", mode: 4, latitude: 48.8566, longitude: 2.3522, set: position,
         expected: .ignored(.badMode(4))),
        (name: "negative mode", mode: -1, latitude: 48.8566, longitude: 2.3522, set: position,
         expected: .ignored(.badMode(-1))),
    ]

    @Test("TPV mode, position and set bits", arguments: tpvCases)
    func tpv(_ c: TPVCase) {
        // Given a TPV as libgps left it, when it is mapped, then:
        let outcome = Self.map(.tpv) { Self.fillTPV($0, mode: c.mode, latitude: c.latitude, longitude: c.longitude, set: c.set) }
        switch (c.expected, outcome) {
        case (.fix(let mode, let lat, let lon), .event(.fix(let fix))):
            #expect(fix.mode == mode)
            #expect(fix.coordinate.latitudeDegrees == lat)
            #expect(fix.coordinate.longitudeDegrees == lon)
            #expect(fix.role == .target)
            #expect(fix.device == Self.watched)
            #expect(fix.receivedAt == Self.receivedAt)
        case (.lostNoFix(let mode), .event(.lost(let loss))):
            #expect(loss.reason == .noFix(mode: mode))
            #expect(loss.role == .target)
            #expect(loss.device == Self.watched)
            #expect(loss.at == Self.receivedAt)
        case (.ignored(let why), .ignored(let got)):
            #expect(got == why)
        default:
            Issue.record("expected \(c.expected), got \(outcome)")
        }
    }

    // MARK: stale bits on other report classes

    static let nonTPVClasses: [GPSDMessageClass] = [.sky, .version, .watch, .devices, .other]

    @Test("a non-TPV report with stale TPV bits and a finite position is never a fix", arguments: nonTPVClasses)
    func staleBitsOnOtherClasses(_ cls: GPSDMessageClass) {
        // Given the fix of an earlier TPV still in the struct and LATLON/MODE bits set (libgps
        // only ORs bits for SKY etc.), when a SKY/VERSION/… report is mapped, then nothing comes out.
        let outcome = Self.map(cls) {
            Self.fillTPV($0, mode: 3, latitude: 48.8566, longitude: 2.3522, set: Self.position | fm_mask_altitude)
        }
        #expect(outcome == .ignored(.notInteresting))
    }

    // MARK: optional fields

    /// Every optional field of a TPV set to `value` (with or without its set bit), and what
    /// altitude, track, speed, climb, eph/epv/eps (`expectedError`) should read (nil = absent).
    typealias OptionalFieldsCase = (
        name: String, mode: Int32, value: Double, bitsSet: Bool, expectedAltitude: Double?, expectedTrack: Double?,
        expectedSpeed: Double?, expectedClimb: Double?, expectedError: Double?
    )

    static let optionalCases: [OptionalFieldsCase] = [
        (name: "NaN optional fields with their bits set become nil", mode: 3, value: .nan, bitsSet: true,
         expectedAltitude: nil, expectedTrack: nil, expectedSpeed: nil, expectedClimb: nil, expectedError: nil),
        (name: "infinite optional fields become nil", mode: 3, value: .infinity, bitsSet: true,
         expectedAltitude: nil, expectedTrack: nil, expectedSpeed: nil, expectedClimb: nil, expectedError: nil),
        (name: "finite fields with bits set pass through", mode: 3, value: 12.5, bitsSet: true,
         expectedAltitude: 12.5, expectedTrack: 12.5, expectedSpeed: 12.5, expectedClimb: 12.5, expectedError: 12.5),
        (name: "finite fields without their bits are stale and become nil", mode: 3, value: 12.5, bitsSet: false,
         expectedAltitude: nil, expectedTrack: nil, expectedSpeed: nil, expectedClimb: nil, expectedError: 12.5),
        (name: "a 2D fix has no altitude", mode: 2, value: 12.5, bitsSet: true,
         expectedAltitude: nil, expectedTrack: 12.5, expectedSpeed: 12.5, expectedClimb: 12.5, expectedError: 12.5),
        (name: "negative speed and errors are dropped, track normalized", mode: 3, value: -10, bitsSet: true,
         expectedAltitude: -10, expectedTrack: 350, expectedSpeed: nil, expectedClimb: -10, expectedError: nil),
    ]

    @Test("optional TPV fields", arguments: optionalCases)
    func optionalFields(_ c: OptionalFieldsCase) throws {
        let bits = c.bitsSet ? fm_mask_altitude | fm_mask_track | fm_mask_speed | fm_mask_climb : 0
        let outcome = Self.map(.tpv) { data in
            Self.fillTPV(data, mode: c.mode, latitude: 1, longitude: 2, set: Self.position | bits)
            for keyPath in [\gps_fix_t.altHAE, \.track, \.speed, \.climb, \.eph, \.epv, \.eps] {
                data.pointee.fix[keyPath: keyPath] = c.value
            }
        }
        guard case .event(.fix(let fix)) = outcome else {
            Issue.record("expected a fix, got \(outcome)")
            return
        }
        #expect(fix.altitudeHAEMeters == c.expectedAltitude)
        #expect(fix.trackDegrees == c.expectedTrack)
        #expect(fix.speedMetersPerSecond == c.expectedSpeed)
        #expect(fix.climbMetersPerSecond == c.expectedClimb)
        #expect(fix.ephMeters == c.expectedError)
        #expect(fix.epvMeters == c.expectedError)
        #expect(fix.epsMetersPerSecond == c.expectedError)
    }

    /// A TPV's timespec, whether TIME_SET is on, and the fix time the mapper must report.
    typealias FixTimeCase = (name: String, seconds: Int, nanoseconds: Int, timeSet: Bool, expected: FixTime?)

    @Test("fix time needs TIME_SET and a non-zero timespec", arguments: [
        (name: "set", seconds: 1_795_215_602, nanoseconds: 945_000_000, timeSet: true,
         expected: FixTime(seconds: 1_795_215_602, nanoseconds: 945_000_000)),
        (name: "stale (bit missing)", seconds: 1_795_215_602, nanoseconds: 0, timeSet: false, expected: nil),
        (name: "zero timespec", seconds: 0, nanoseconds: 0, timeSet: true, expected: nil),
    ] as [FixTimeCase])
    func fixTime(_ c: FixTimeCase) {
        let outcome = Self.map(.tpv) { data in
            Self.fillTPV(data, mode: 3, latitude: 1, longitude: 2,
                         set: fm_mask_mode | fm_mask_latlon | (c.timeSet ? fm_mask_time : 0))
            data.pointee.fix.time.tv_sec = c.seconds
            data.pointee.fix.time.tv_nsec = c.nanoseconds
        }
        guard case .event(.fix(let fix)) = outcome else {
            Issue.record("expected a fix, got \(outcome)")
            return
        }
        #expect(fix.fixTime == c.expected)
    }

    // MARK: ATT

    /// An ATT heading in degrees, whether ATTITUDE_SET is on, and the heading expected (nil: ignored).
    typealias HeadingCase = (name: String, heading: Double, attitudeSet: Bool, expected: Double?)

    @Test("ATT heading", arguments: [
        (name: "finite", heading: 274.07, attitudeSet: true, expected: 274.07),
        (name: "negative is normalized to [0, 360)", heading: -90, attitudeSet: true, expected: 270),
        (name: "360 is 0", heading: 360, attitudeSet: true, expected: 0),
        (name: "NaN", heading: .nan, attitudeSet: true, expected: nil),
        (name: "infinite", heading: -.infinity, attitudeSet: true, expected: nil),
        (name: "ATTITUDE_SET missing (union holds another report)", heading: 0, attitudeSet: false, expected: nil),
    ] as [HeadingCase])
    func attitude(_ c: HeadingCase) {
        let outcome = Self.map(.att, role: .onboard) { data in
            fm_set_attitude_heading(data, c.heading)
            fm_set_set_mask(data, c.attitudeSet ? fm_mask_attitude : 0)
            fm_set_device_path(data, Self.watched)
        }
        if let expected = c.expected {
            guard case .event(.heading(let h)) = outcome else {
                Issue.record("expected a heading, got \(outcome)")
                return
            }
            #expect(h.headingDegrees == expected)
            #expect(h.role == .onboard)
            #expect(h.device == Self.watched)
        } else {
            #expect(outcome == .ignored(.badHeading))
        }
    }

    // MARK: DEVICE, ERROR, device filter

    @Test("DEVICE deactivated is a loss; activated is not")
    func device() {
        let deactivated = Self.map(.device) { data in
            fm_set_set_mask(data, fm_mask_device)
            fm_set_device_path(data, Self.watched)
        }
        #expect(deactivated == .event(.lost(GPSLoss(role: .target, device: Self.watched, reason: .deviceDeactivated,
                                                     at: Self.receivedAt))))
        let activated = Self.map(.device) { data in
            fm_set_set_mask(data, fm_mask_device)
            fm_set_device_path(data, Self.watched)
            data.pointee.dev.activated.tv_sec = 1_795_215_602
        }
        #expect(activated == .ignored(.notInteresting))
    }

    @Test("ERROR carries gpsd's message")
    func error() {
        let message = "No such device as /dev/gpstarget"
        let outcome = Self.map(.error) { data in
            fm_set_set_mask(data, fm_mask_error)
            fm_set_device_path(data, "/dev/pts/9")  // a stale path must not hide an ERROR
            withUnsafeMutableBytes(of: &data.pointee.error) { raw in
                _ = message.withCString { strncpy(raw.baseAddress!.assumingMemoryBound(to: CChar.self), $0, raw.count - 1) }
            }
        }
        #expect(outcome == .event(.gpsdError(role: .target, message: message, at: Self.receivedAt)))
    }

    // MARK: SKY (satellites and DOPs)

    /// A SKY line as gpsd 3.x writes it (bu353s4.log.chk line 16, shortened to four satellites).
    static let skyLine = #"{"class":"SKY","device":"/dev/gpstarget","xdop":0.63,"ydop":0.85,"vdop":1.50,"tdop":0.89,"hdop":1.10,"gdop":2.01,"pdop":1.80,"satellites":[{"PRN":17,"el":72.0,"az":207.0,"ss":32.0,"used":true},{"PRN":4,"el":56.0,"az":37.0,"ss":27.0,"used":true},{"PRN":12,"el":49.0,"az":299.0,"ss":24.0,"used":false},{"PRN":2,"el":20.0,"az":90.0,"ss":0.0,"used":false}]}"#

    @Test("SKY as libgps unpacks it: satellites used and in view, HDOP/VDOP/PDOP")
    func skyFromLibgps() {
        let outcome = Self.map(.sky) { data in
            #expect(Self.skyLine.withCString { fm_unpack_line($0, data) } == 0)
        }
        guard case .event(.sky(let sky)) = outcome else {
            Issue.record("expected a sky event, got \(outcome)")
            return
        }
        #expect(sky.role == .target && sky.device == Self.watched && sky.receivedAt == Self.receivedAt)
        #expect(sky.satellitesUsed == 2 && sky.satellitesVisible == 4, "\(sky)")
        #expect(sky.hdop == 1.10 && sky.vdop == 1.50 && sky.pdop == 1.80, "\(sky)")
    }

    @Test("SKY: a count outside 0…255 or a DOP that is NaN, 0 or negative is not shown as a value")
    func skyImplausible() {
        let outcome = Self.map(.sky) { data in
            fm_set_set_mask(data, fm_mask_satellite)
            fm_set_device_path(data, Self.watched)
            data.pointee.satellites_used = 300
            data.pointee.satellites_visible = -1
            (data.pointee.dop.hdop, data.pointee.dop.vdop, data.pointee.dop.pdop) = (.nan, 0, -2)
        }
        #expect(outcome == .event(.sky(SkyReport(role: .target, device: Self.watched, satellitesUsed: nil,
                                                 satellitesVisible: nil, hdop: nil, vdop: nil, pdop: nil,
                                                 receivedAt: Self.receivedAt))))
    }

    @Test("SKY without SATELLITE_SET says nothing; a SKY from another device is ignored")
    func skyIgnored() {
        #expect(Self.map(.sky) { fm_set_device_path($0, Self.watched) } == .ignored(.notInteresting))
        let other = Self.map(.sky) { data in
            #expect(Self.skyLine.replacing(Self.watched, with: "/dev/gpsdrone")
                .withCString { fm_unpack_line($0, data) } == 0)
        }
        #expect(other == .ignored(.otherDevice("/dev/gpsdrone")))
    }

    /// A report of class `cls` from `reportedPath`, the device the role watches (nil: any), and
    /// whether the report must pass the filter.
    typealias DeviceFilterCase = (
        name: String, cls: GPSDMessageClass, reportedPath: String, watched: String?, passes: Bool
    )

    @Test("reports from a device the role does not watch are ignored", arguments: [
        (name: "TPV from the watched device", cls: .tpv, reportedPath: "/dev/gpstarget",
         watched: "/dev/gpstarget", passes: true),
        (name: "TPV from another device", cls: .tpv, reportedPath: "/dev/gpsdrone",
         watched: "/dev/gpstarget", passes: false),
        (name: "TPV from a prefix of the watched path", cls: .tpv, reportedPath: "/dev/gps",
         watched: "/dev/gpstarget", passes: false),
        (name: "TPV without a device path", cls: .tpv, reportedPath: "",
         watched: "/dev/gpstarget", passes: false),
        (name: "TPV, role watches any device", cls: .tpv, reportedPath: "/dev/pts/3",
         watched: nil, passes: true),
        (name: "ATT from another device", cls: .att, reportedPath: "/dev/gpsdrone",
         watched: "/dev/gpstarget", passes: false),
        (name: "DEVICE deactivation of another device", cls: .device, reportedPath: "/dev/gpsdrone",
         watched: "/dev/gpstarget", passes: false),
    ] as [DeviceFilterCase])
    func deviceFilter(_ c: DeviceFilterCase) {
        let outcome = Self.map(c.cls, watching: c.watched) { data in
            Self.fillTPV(data, mode: 3, latitude: 48.8566, longitude: 2.3522, set: Self.position | fm_mask_attitude,
                         path: c.reportedPath)
            fm_set_attitude_heading(data, 90)
        }
        if c.passes {
            guard case .event(let event) = outcome else {
                Issue.record("expected an event, got \(outcome)")
                return
            }
            #expect(event.role == .target)
        } else {
            #expect(outcome == .ignored(.otherDevice(c.reportedPath)))
        }
    }
}

@Suite("GPSDMessageClass from a gpsd JSON line")
struct GPSDMessageClassTests {
    @Test(arguments: [
        (#"{"class":"TPV","device":"/dev/pts/1","mode":3}"#, GPSDMessageClass.tpv),
        (#"{"class":"ATT","heading":274.070}"#, .att),
        (#"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#, .device),
        (#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1"}]}"#, .devices),
        (#"{"class":"SKY","device":"/dev/pts/1"}"#, .sky),
        (#"{"class":"ERROR","message":"No such device as /dev/x"}"#, .error),
        (#"{"class":"VERSION","release":"3.22"}"#, .version),
        (#"{"class":"WATCH","enable":true}"#, .watch),
        (#"{"class":"PPS","device":"/dev/pts/1"}"#, .other),
        (#"{"class":"TOFF","device":"/dev/pts/1","real_sec":1795219200}"#, .toff),
        (#"{"class":"TOFFEE"}"#, .other),
        (#"{"class":"TPVX"}"#, .other),
        (#"{"device":"/dev/pts/1","class":"TPV"}"#, .other),
        ("", .other),
    ])
    func classify(_ line: String, _ expected: GPSDMessageClass) {
        #expect(GPSDMessageClass(line: line) == expected)
    }
}
