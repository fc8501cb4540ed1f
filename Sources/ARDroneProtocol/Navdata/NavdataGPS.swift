import MemberwiseInit

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
    public var latitudeDegrees: Double
    /// `longitude`, WGS-84 degrees.
    public var longitudeDegrees: Double
    /// `elevation`, meters (fixture 122.64 at Los Angeles).
    public var elevationMeters: Double
    /// `hdop`, horizontal dilution of precision (dimensionless).
    public var hdop: Double
    /// `data_available` (bit field; fixture 7).
    public var dataAvailable: UInt32
    /// `zero_validated` (`bool_t`).
    public var zeroValidatedFlag: UInt32
    /// `wpt_validated` (`bool_t`).
    public var waypointValidatedFlag: UInt32
    /// `lat0`, degrees (home/zero position).
    public var latitude0Degrees: Double
    /// `long0`, degrees.
    public var longitude0Degrees: Double
    /// `lat_fused`, degrees.
    public var latitudeFusedDegrees: Double
    /// `long_fused`, degrees.
    public var longitudeFusedDegrees: Double
    /// `gps_state`.
    public var gpsState: UInt32
    /// `X_traj, X_ref, Y_traj, Y_ref, theta_p, phi_p, theta_i, phi_i, theta_d, phi_d`: internals of
    /// the drone's waypoint controller, units undocumented; in wire order.
    public private(set) var waypointControllerTerms: [Float]
    /// `vdop`.
    public var vdop: Double
    /// `pdop`.
    public var pdop: Double
    /// `speed`; unit undocumented (fixture 0.1 while landed; presumably m/s).
    public var speed: Float
    /// `lastFrameTimestamp` in TSECDEC format (fixture 2409.591 ms).
    public var lastFrameTimestamp: NavdataTimestamp
    /// `degree`: course, degrees (fixture 141.01).
    public var degree: Float
    /// `degree_magnetic`: magnetic course, degrees.
    public var degreeMagnetic: Float
    /// `ehpe`: estimated horizontal position error (unit undocumented, presumably m).
    public var ehpe: Float
    /// `ehve`: estimated vertical error (unit undocumented).
    public var ehve: Float
    /// `c_n0`: average carrier-to-noise of the four best satellites, dB-Hz.
    public var carrierToNoise: Float
    /// `nbsat`: satellites used.
    public var satelliteCount: UInt32
    /// `channels[12]`: satellite id and its C/N0 per receiver channel. Always 12 entries.
    public private(set) var channels: [NavdataGPSChannel]
    /// `is_gps_plugged` (`bool_t`).
    public var gpsPluggedFlag: UInt32
    /// `ephemerisStatus`.
    public var ephemerisStatus: UInt32
    /// `vx_traj`.
    public var vxTraj: Float
    /// `vy_traj`.
    public var vyTraj: Float
    /// `firmwareStatus`.
    public var firmwareStatus: UInt32

    /// Number of `waypointControllerTerms`.
    package static let controllerTermCount = 10

    /// - Parameters:
    ///   - waypointControllerTerms: padded with zeros / truncated to 10 values.
    ///   - channels: padded with empty channels / truncated to 12 entries.
    ///   - gpsPluggedFlag: defaults to 1, since a drone only sends this option with the GPS plugged in.
    public init(
        latitudeDegrees: Double,
        longitudeDegrees: Double,
        elevationMeters: Double = 0,
        hdop: Double = 0,
        dataAvailable: UInt32 = 0,
        zeroValidatedFlag: UInt32 = 0,
        waypointValidatedFlag: UInt32 = 0,
        latitude0Degrees: Double = 0,
        longitude0Degrees: Double = 0,
        latitudeFusedDegrees: Double = 0,
        longitudeFusedDegrees: Double = 0,
        gpsState: UInt32 = 0,
        waypointControllerTerms: [Float] = [],
        vdop: Double = 0,
        pdop: Double = 0,
        speed: Float = 0,
        lastFrameTimestamp: NavdataTimestamp = NavdataTimestamp(rawValue: 0),
        degree: Float = 0,
        degreeMagnetic: Float = 0,
        ehpe: Float = 0,
        ehve: Float = 0,
        carrierToNoise: Float = 0,
        satelliteCount: UInt32 = 0,
        channels: [NavdataGPSChannel] = [],
        gpsPluggedFlag: UInt32 = 1,
        ephemerisStatus: UInt32 = 0,
        vxTraj: Float = 0,
        vyTraj: Float = 0,
        firmwareStatus: UInt32 = 0
    ) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.hdop = hdop
        self.dataAvailable = dataAvailable
        self.zeroValidatedFlag = zeroValidatedFlag
        self.waypointValidatedFlag = waypointValidatedFlag
        self.latitude0Degrees = latitude0Degrees
        self.longitude0Degrees = longitude0Degrees
        self.latitudeFusedDegrees = latitudeFusedDegrees
        self.longitudeFusedDegrees = longitudeFusedDegrees
        self.gpsState = gpsState
        var terms = Array(waypointControllerTerms.prefix(Self.controllerTermCount))
        terms.append(contentsOf: repeatElement(0, count: Self.controllerTermCount - terms.count))
        self.waypointControllerTerms = terms
        self.vdop = vdop
        self.pdop = pdop
        self.speed = speed
        self.lastFrameTimestamp = lastFrameTimestamp
        self.degree = degree
        self.degreeMagnetic = degreeMagnetic
        self.ehpe = ehpe
        self.ehve = ehve
        self.carrierToNoise = carrierToNoise
        self.satelliteCount = satelliteCount
        var slots = Array(channels.prefix(Self.channelCount))
        slots.append(contentsOf: repeatElement(NavdataGPSChannel(satelliteID: 0, carrierToNoise: 0),
                                               count: Self.channelCount - slots.count))
        self.channels = slots
        self.gpsPluggedFlag = gpsPluggedFlag
        self.ephemerisStatus = ephemerisStatus
        self.vxTraj = vxTraj
        self.vyTraj = vyTraj
        self.firmwareStatus = firmwareStatus
    }

    /// Whether `zero_validated` is non-zero.
    public var isZeroValidated: Bool { zeroValidatedFlag != 0 }
    /// Whether the GPS (USB Flight Recorder) is plugged in.
    public var isGPSPlugged: Bool { gpsPluggedFlag != 0 }
}

/// One GPS receiver channel: `{uint8 sat; uint8 c_n0}`.
@MemberwiseInit
public struct NavdataGPSChannel: Sendable, Hashable {
    /// Satellite id (PRN).
    public var satelliteID: UInt8
    /// Carrier-to-noise, dB-Hz.
    public var carrierToNoise: UInt8
}
