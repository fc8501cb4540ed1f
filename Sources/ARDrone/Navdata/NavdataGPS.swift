import FollowCore

/// The GPS option (tag 27) in the firmware 2.4.8 layout: exactly 216 bytes.
///
/// Layout `navdata_gps_t` from ardronelib branch `origin/gps` `navdata_common.h`, ardrone_autonomy
/// `gps-waypoint` `msg/navdata_gps.msg`, node-ar-drone `parseNavdata.js` 'gps' (said to come "via
/// backchannels from Parrot", node-ar-drone commit f1b48cd4). `bool_t` fields are 4 bytes and kept
/// as sent. Needs the USB "Flight Recorder". Other firmware (2.4.7: 480 bytes) uses another layout;
/// such options stay `.raw`. Fields whose unit no source states keep the SDK name and say so.
public struct NavdataGPS: Sendable, Equatable {
    /// Option size in the fw 2.4.8 layout, header included.
    public static let byteCount = 216
    /// Number of satellite channel slots.
    public static let channelCount = 12

    /// `latitude`, WGS-84 degrees.
    public var latitudeDegrees: Double = 0
    /// `longitude`, WGS-84 degrees.
    public var longitudeDegrees: Double = 0
    /// `elevation`, meters (fixture 122.64 at Los Angeles).
    public var elevationMeters: Double = 0
    /// `hdop`, horizontal dilution of precision (dimensionless).
    public var hdop: Double = 0
    /// `data_available` (bit field; fixture 7).
    public var dataAvailable: UInt32 = 0
    /// `zero_validated` (`bool_t`).
    public var zeroValidatedFlag: UInt32 = 0
    /// `wpt_validated` (`bool_t`).
    public var waypointValidatedFlag: UInt32 = 0
    /// `lat0`, degrees (home/zero position).
    public var latitude0Degrees: Double = 0
    /// `long0`, degrees.
    public var longitude0Degrees: Double = 0
    /// `lat_fused`, degrees.
    public var latitudeFusedDegrees: Double = 0
    /// `long_fused`, degrees.
    public var longitudeFusedDegrees: Double = 0
    /// `gps_state`.
    public var gpsState: UInt32 = 0
    /// `X_traj, X_ref, Y_traj, Y_ref, theta_p, phi_p, theta_i, phi_i, theta_d, phi_d`: internals of
    /// the drone's waypoint controller, units undocumented; in wire order. Always 10 values: shorter
    /// input is padded with zeros, longer truncated.
    @FixedCount(NavdataGPS.controllerTermCount, filler: 0)
    public var waypointControllerTerms: [Float] = []
    /// `vdop`.
    public var vdop: Double = 0
    /// `pdop`.
    public var pdop: Double = 0
    /// `speed`; unit undocumented (fixture 0.1 while landed; presumably m/s).
    public var speed: Float = 0
    /// `lastFrameTimestamp` in TSECDEC format (fixture 2409.591 ms).
    public var lastFrameTimestamp: NavdataTimestamp = NavdataTimestamp(rawValue: 0)
    /// `degree`: course, degrees (fixture 141.01).
    public var degree: Float = 0
    /// `degree_magnetic`: magnetic course, degrees.
    public var degreeMagnetic: Float = 0
    /// `ehpe`: estimated horizontal position error (unit undocumented, presumably m).
    public var ehpe: Float = 0
    /// `ehve`: estimated vertical error (unit undocumented).
    public var ehve: Float = 0
    /// `c_n0`: average carrier-to-noise of the four best satellites, dB-Hz.
    public var carrierToNoise: Float = 0
    /// `nbsat`: satellites used.
    public var satelliteCount: UInt32 = 0
    /// `channels[12]`: satellite id and its C/N0 per receiver channel. Always 12 entries: shorter
    /// input is padded with empty channels, longer truncated.
    @FixedCount(NavdataGPS.channelCount, filler: NavdataGPSChannel())
    public var channels: [NavdataGPSChannel] = []
    /// `is_gps_plugged` (`bool_t`); defaults to 1, since a drone only sends this option with the GPS plugged in.
    public var gpsPluggedFlag: UInt32 = 1
    /// `ephemerisStatus`.
    public var ephemerisStatus: UInt32 = 0
    /// `vx_traj`.
    public var vxTraj: Float = 0
    /// `vy_traj`.
    public var vyTraj: Float = 0
    /// `firmwareStatus`.
    public var firmwareStatus: UInt32 = 0

    /// Number of `waypointControllerTerms`.
    package static let controllerTermCount = 10

    /// Whether `zero_validated` is non-zero.
    public var isZeroValidated: Bool { zeroValidatedFlag != 0 }
    /// Whether the GPS (USB Flight Recorder) is plugged in.
    public var isGPSPlugged: Bool { gpsPluggedFlag != 0 }
}

extension NavdataGPS: Configurable { public static var defaults: Self { Self() } }

/// One GPS receiver channel: `{uint8 sat; uint8 c_n0}`.
public struct NavdataGPSChannel: Sendable, Hashable {
    /// Satellite id (PRN); 0 in an empty channel.
    public var satelliteID: UInt8 = 0
    /// Carrier-to-noise, dB-Hz.
    public var carrierToNoise: UInt8 = 0
}

extension NavdataGPSChannel: Configurable { public static var defaults: Self { Self() } }

/// An array kept at exactly `count` elements: a longer one is truncated, a shorter one padded with
/// `filler` (the fixed-size arrays of a wire layout).
@propertyWrapper
public struct FixedCount<Element: Sendable & Equatable>: Sendable, Equatable {
    private let count: Int
    private let filler: Element
    private var elements: [Element] = []

    public init(wrappedValue: [Element], _ count: Int, filler: Element) {
        self.count = count
        self.filler = filler
        self.wrappedValue = wrappedValue
    }

    public var wrappedValue: [Element] {
        get { elements }
        set {
            elements = Array(newValue.prefix(count))
            elements.append(contentsOf: repeatElement(filler, count: count - elements.count))
        }
    }
}
