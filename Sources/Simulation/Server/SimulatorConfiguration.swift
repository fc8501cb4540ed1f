import FollowCore

/// Everything `SimulatorServer` needs: where to listen, where the drone stands, and what the GPS
/// receivers and the person do. Defaults are a bench run on loopback with the real drone's ports.
public struct SimulatorConfiguration: Sendable {
    /// Address all sockets bind to. Default 127.0.0.1: the simulator is a bench tool, never
    /// exposed to a network unless asked.
    public var bindHost: String = "127.0.0.1"
    /// UDP port for AT commands; 5556 is the drone's `AT_PORT` (docs/ardrone-protocol.md §1.1). 0 = any free port.
    public var atPort: Int = 5556
    /// UDP port for navdata triggers and navdata; 5554 is the drone's `NAVDATA_PORT` (docs/ardrone-protocol.md §1.1).
    /// 0 = any free port.
    public var navdataPort: Int = 5554
    /// TCP port serving the onboard receiver's NMEA (gpsd: `tcp://HOST:PORT`). 10110 is the IANA
    /// port "nmea-0183" (NMEA over TCP, used by OpenCPN/Signal K). 0 = any free port.
    public var onboardNMEAPort: Int = 10110
    /// TCP port serving the person's receiver, used only when `person` is not `.none`.
    /// 0 = any free port.
    public var personNMEAPort: Int = 10111
    /// UDP port of the fault-injection control channel (`SimulatorControlCommand`, one JSON
    /// object per datagram, answered to the sender); nil = no control channel (the default: a
    /// bench simulator takes no remote commands unless asked). 0 = any free port.
    public var controlPort: Int?
    /// Which drone the simulator is (`--protocol`): the AR.Drone 2.0 (default; nothing else
    /// changes) or an ArduPilot-like Copter speaking MAVLink on `mavlinkPort`.
    public var droneProtocol: SimulatedDroneKind = .ardrone
    /// UDP port of the MAVLink Copter (`--mavlink-port`), used with `droneProtocol` `.mavlink`:
    /// 14550, the port ground stations listen on for a vehicle (docs/mavlink.md §8). 0 = any free port.
    public var mavlinkPort: Int = 14550
    /// The MAVLink Copter's autopilot numbers (ids, loop time constants, speeds, timeouts).
    public var mavlinkCopter = MAVLinkCopterParameters()

    /// Where the drone starts (the local plane's origin). Default: the Champ de Mars in Paris,
    /// 48.8584 N 2.2945 E (open ground next to the Eiffel Tower).
    public var home: GeoCoordinate = GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!
    /// Height of the ground above the WGS84 ellipsoid at `home`, metres (GGA altitude base; the
    /// GGA geoid separation is sent as 0, so gpsd reports this as both altHAE and altMSL). 35 m is
    /// our round figure for central Paris.
    public var groundHAEMeters: Double = 35
    /// The drone's nose heading at start, compass degrees.
    public var initialNoseHeadingDegrees: Double = 0
    /// Onboard receiver mounting: nose heading − receiver heading, degrees (the product's
    /// `onboard.mount_offset_deg`; default 90, mounted sideways). The NMEA HDT carries
    /// nose − offset.
    public var mountOffsetDegrees: Double = 90
    /// Error model of both receivers.
    public var gpsNoise: GPSNoise = .clean
    /// Fixes per second of the person's receiver (`--person-rate-hz`); nil = the error model's (5 Hz).
    public var personFixRateHertz: Double?
    /// Seed of every random component (GPS noise).
    public var seed: UInt64 = 1
    /// What the person does; `.none` serves no person NMEA stream.
    public var person: PersonChoice = .none
    /// When the person starts moving.
    public var personStart: PersonStart = .whenAirborne
    /// Where the person stands at start relative to `home`, metres east/north. Default 10 m south
    /// (outside the shipped config's protected radius, min_separation_m + gps_relative_error_m = 7 m,
    /// so preflight lets the drone take off), facing a drone whose nose points north.
    public var personOffsetPlane = PlaneVector(east: 0, north: -personStartDistanceMeters)
    /// How far from the drone the person starts, metres (scenarios and tracks): outside the shipped
    /// config's protected radius of 7 m with room for GPS noise.
    public static let personStartDistanceMeters = 10.0
    /// Direction the person walks off in, compass degrees. Default 180: away from the drone
    /// (which starts 5 m north of them), so the drone follows behind rather than being walked into.
    public var personBearingDegrees: Double = 180
    /// The recorded track the person replays when `person == .track` (times from 0, plane = `home`'s).
    public var personTrack: TrackScenario?

    /// Physics and firmware behaviour of the simulated drone.
    public var dynamics: DroneDynamics = .standard
    /// Wind at the drone (`--wind-mps`, `--wind-towards-deg`, `--gusts`): a steady mean and
    /// optional gusts, drawn from `seed`, on top of `dynamics.windENU`; it blows on whichever drone
    /// `droneProtocol` simulates. Default calm.
    public var wind: WindModel.Parameters = .calm
    /// Period of the simulation timer, seconds. 5 ms = the physics step of `DroneDynamics`.
    public var tickIntervalSeconds: Double = 0.005
    /// Navdata packets per second: 15 in demo mode (`NAVDATA_SUBSAMPLING 13`, "200 / 15 fps",
    /// ardronelib `config.h`; docs/ardrone-protocol.md §1.3). Bootstrap packets use the same rate.
    public var navdataRateHertz: Double = 15
    /// UTC seconds at `MonotonicTime.zero` for the receivers' timestamps; nil = derived from the
    /// wall clock at start (to the nanosecond), so NMEA times are today's.
    public var utcEpochSeconds: Int64?
    /// Both receivers deliver each fix this many seconds after its epoch (the NMEA carries the epoch),
    /// 0…0.6; nil = the GPS model's own latency (`--receiver-latency`).
    public var receiverLatencySeconds: Double?
    /// The receiver latencies `--receiver-latency` accepts, seconds: our choice, twice gpsd's typical
    /// 0.3 s at 19200 bps (docs/dynamics-and-follow.md §3.3).
    public static let receiverLatencyRange: ClosedRange<Double> = 0...0.6
    /// Talker of the position sentences (RMC, GGA) and of HDT.
    public var positionTalker: NMEATalker = .gps
    public var headingTalker: NMEATalker = .gps

    public init() {}
}

/// Which drone `followme sim` simulates, by name (`--protocol`).
public enum SimulatedDroneKind: String, Sendable, CaseIterable {
    /// The AR.Drone 2.0: AT commands in, navdata out (`DroneSimulator`).
    case ardrone
    /// An ArduPilot-like Copter over MAVLink (`MAVLinkCopter`); the AR.Drone ports stay bound, idle.
    case mavlink
}

/// The GPS error model, by name (`--gps-noise`).
public enum GPSNoise: String, Sendable, CaseIterable {
    /// Fixes are the truth at 5 Hz with no latency (`GPSErrorModel.clean`).
    case clean
    /// Two u-blox-class receivers: metre-level correlated bias, 0.3 s latency (`GPSErrorModel.realistic`).
    case realistic

    /// The error model, with the onboard heading reported as nose − `mountOffsetDegrees`.
    public func model(mountOffsetDegrees: Double) -> GPSErrorModel {
        var model: GPSErrorModel = self == .clean ? .clean : .realistic
        model.onboard.mountOffsetDegrees = mountOffsetDegrees
        return model
    }
}

/// The person's motion, by name (`--person`).
public enum PersonChoice: String, Sendable, CaseIterable {
    case none
    /// `StraightWalkScenario` at 1.4 m/s.
    case straightWalk = "straight-walk"
    /// `SquareWalkScenario`, 40 m sides, turning right.
    case square
    /// `StopAndGoScenario`: 10 s walking, 5 s standing.
    case stopAndGo = "stop-and-go"
    /// `CurveJogScenario`: 30 m lead-in, then a 90° right arc of 20 m radius, at 3 m/s.
    case jogCurve = "jog-curve"
    /// A recorded track (`SimulatorConfiguration.personTrack`, e.g. from `followme sim --person-track FILE.gpx`).
    case track

    /// The scenario starting at `startPlane` heading `bearingDegrees`; nil for `.none` and `.track`
    /// (a track is its own scenario).
    public func scenario(startPlane: PlaneVector, bearingDegrees: Double) -> (any PersonScenario)? {
        switch self {
        case .none, .track: nil
        case .straightWalk: StraightWalkScenario(startPlane: startPlane, bearingDegrees: bearingDegrees)
        case .square: SquareWalkScenario(startPlane: startPlane, initialBearingDegrees: bearingDegrees)
        case .stopAndGo: StopAndGoScenario(startPlane: startPlane, bearingDegrees: bearingDegrees)
        case .jogCurve: CurveJogScenario(startPlane: startPlane, initialBearingDegrees: bearingDegrees)
        }
    }
}

/// When the person's scenario clock starts (before it, the person stands at the start point).
public enum PersonStart: Sendable, Hashable, CustomStringConvertible {
    /// When the drone first finishes its takeoff (reaches its hover altitude).
    case whenAirborne
    /// This many seconds after the simulator started.
    case afterSeconds(Double)

    /// Parses `airborne` or a number of seconds ≥ 0.
    public init?(argument: String) {
        if argument == "airborne" {
            self = .whenAirborne
        } else if let seconds = Double(argument), seconds.isFinite, seconds >= 0 {
            self = .afterSeconds(seconds)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .whenAirborne: "airborne"
        case .afterSeconds(let s): "\(s)"
        }
    }
}
