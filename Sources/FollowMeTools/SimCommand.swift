import ArgumentParser
import FlightRecords
import FlightService
import Links
import Simulation
import Foundation
import FollowCore
import Logging

/// `followme sim`: a simulated AR.Drone 2.0 on loopback, speaking the real UDP protocol, with its
/// onboard GPS (and optionally the person's) served as NMEA over TCP for gpsd.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated drone (AR.Drone 2.0 over AT/navdata UDP, or an ArduPilot-like Copter over MAVLink) with NMEA GPS over TCP.",
        discussion: """
            Point the drone link at --bind (AT commands to --at-port, navdata trigger to --navdata-port) and gpsd at the onboard NMEA stream, e.g. gpsd -N -n -S 2947 tcp://127.0.0.1:10110. With --person, a second NMEA stream (--person-nmea-port) carries the person's receiver.

            Once every socket listens, the first line on stdout is one JSON object with the bound ports (port 0 = any free port): {"event":"listening","bind":"127.0.0.1","at_port":5556,"navdata_port":5554,"nmea_port":10110,...}. Then one status line per second follows (--json: one JSON object per second).

            With --control-port, a UDP port takes fault-injection commands, one JSON object per datagram, each answered with one JSON object to the sender (the port is "control_port" in the listening line): {"command":"silence","stream":"person|onboard|heading|navdata|mavlink","on":true}, {"command":"person-jump","meters":100,"bearing_deg":90} (next person fix only), {"command":"person-time-back","seconds":5} (next person fix only), {"command":"battery","percent":20}, {"command":"navdata-inject","kind":"corrupt|stale-sequence","count":10}, {"command":"heading-glitch","degrees":180,"count":1} (next onboard headings only, rotated), {"command":"heading-value","degrees":0,"count":1} (next onboard headings only, this value), {"command":"heading-offset","degrees":180} (every later onboard heading; 0 ends it), {"command":"land"} (the drone lands on its own), {"command":"navdata-bootstrap","forget":"navdata-demo|all","restart_sequence":false} (navdata falls back to bootstrap as after a firmware restart), {"command":"pilot-mode","mode":"LOITER|BRAKE|RTL|LAND|GUIDED"} (--protocol mavlink: the Copter's RC pilot flips its mode switch), {"command":"pilot-takeoff","meters":5,"mode":"LOITER"} (--protocol mavlink: a pilot on their own ground station, system 255, sets GUIDED, arms and takes off to meters, then flips the mode switch to mode, default LOITER; refused unless the Copter is disarmed on the ground), {"command":"pilot-land"} (that pilot sends LAND: the Copter lands and disarms), {"command":"status"}.

            With --protocol mavlink the drone is an ArduPilot-like Copter instead (modes STABILIZE, GUIDED, LOITER, LAND, BRAKE, RTL; arming checks; NAV_TAKEOFF; velocity set-points; LAND and auto-disarm; the GCS failsafe of --fs-gcs-enable): it listens for MAVLink 2 on UDP --mavlink-port (default 14550), obeys commands from any source (a second ground station may switch its mode), and streams to every ground station that sends it a HEARTBEAT (one per system id, the latest source) with HEARTBEAT, GLOBAL_POSITION_INT, ATTITUDE, SYS_STATUS, EXTENDED_SYS_STATE and STATUSTEXT (docs/mavlink.md §8). The listening line then also has "protocol":"mavlink","mavlink_port":PORT; the AR.Drone ports stay bound but idle; the NMEA streams and the control port work as with the AR.Drone ("land" and "battery" act on the Copter, {"command":"silence","stream":"mavlink","on":true} stops everything it sends).

            --wind-mps, --wind-towards-deg and --gusts blow on the simulated drone (either protocol) as in followme bench: a steady wind and optional Dryden gusts (seeded by --seed). The AR.Drone raises navdata state bit 20 (too much wind) while airborne in a wind at or above what its full tilt holds, 17.5 m/s · sin(control:euler_angle_max): 6.0 m/s at the outdoor 20°.

            SIGINT/SIGTERM stop it (exit 0); exit 1 if a port cannot be bound.
            """
    )

    @Option(name: .long, help: "Address to bind every socket to.")
    var bind: String = "127.0.0.1"

    @Option(name: .long, help: "UDP port for AT commands (0 = any free port).")
    var atPort: Int = 5556

    @Option(name: .long, help: "UDP port for the navdata trigger and navdata (0 = any free port).")
    var navdataPort: Int = 5554

    @Option(name: .long, help: "TCP port serving the onboard receiver's NMEA (0 = any free port).")
    var nmeaPort: Int = 10110

    @Option(name: .long, help: "TCP port serving the person's NMEA, with --person (0 = any free port).")
    var personNMEAPort: Int = 10111

    @Option(name: .long, help: "UDP port for fault-injection commands (0 = any free port; default: no control channel).")
    var controlPort: Int?

    @Option(name: .long, help: "Which drone to simulate: ardrone (AR.Drone 2.0, AT/navdata UDP) or mavlink (an ArduPilot-like Copter on --mavlink-port).")
    var `protocol`: String = "ardrone"

    @Option(name: .long, help: "UDP port of the MAVLink Copter, with --protocol mavlink (0 = any free port).")
    var mavlinkPort: Int = 14550

    @Option(name: .long, help: "The MAVLink Copter's firmware, with --protocol mavlink: ardupilot (an ArduCopter: GUIDED, its GCS failsafe and the --fs-* parameters) or px4 (PX4's modes and parameters: OFFBOARD, AUTO.TAKEOFF to an AMSL altitude, the offboard-loss failsafe with COM_OBL_RC_ACT 4 and COM_OF_LOSS_T 1 s, a home altitude that moves after lift-off; the --fs-* options do not apply; pilot-takeoff is ArduPilot's).")
    var autopilot: String = "ardupilot"

    @Option(name: .long, help: "The MAVLink Copter's FS_GCS_ENABLE, with --protocol mavlink: what it does when FollowMe's HEARTBEAT (system SYSID_MYGCS 245) stops for FS_GCS_TIMEOUT 5 s while flying: 0 nothing, 1/2/3/6 RTL, 4/5 LAND, 7 BRAKE. Also what it answers PARAM_REQUEST_READ.")
    var fsGcsEnable: Int = 5

    @Option(name: .long, help: "The MAVLink Copter's MNT1_TYPE, with --protocol mavlink: 0 no mount (ArduCopter's default: a region of interest turns the nose until the next GUIDED set-point), anything else a mount that pans (a region of interest turns the mount only). Also what it answers PARAM_REQUEST_READ.")
    var mountType: Int = 0

    @Option(name: .long, help: "The MAVLink Copter's CAM1_TYPE, with --protocol mavlink: 0 no camera (ArduCopter's default: REQUEST_MESSAGE CAMERA_INFORMATION is accepted and nothing comes, VIDEO_START_CAPTURE fails), 6 a MAVLink camera (MAVLinkCamV2) that records video (CAMERA_INFORMATION with CAPTURE_VIDEO; VIDEO_START/STOP_CAPTURE accepted); the others as ArduPilot's own back-ends answer, none with CAPTURE_VIDEO: 1 servo (flags 0), 2 relay and 5 the older MAVLink camera (image capture only; video refused), 4 a servo mount (no camera message), 7 scripting (image only; video accepted), 8 RunCam without its camera (no CAMERA_INFORMATION; video accepted).")
    var cameraType: Int = 0

    @Option(name: .long, help: "The MAVLink Copter's FS_OPTIONS bitmask, with --protocol mavlink: bit 4 (16, ArduCopter's default) leaves a pilot's LOITER alone when the GCS failsafe fires, bit 3 (8) keeps a LAND landing. Also what it answers PARAM_REQUEST_READ.")
    var fsOptions: Int = 16

    @Option(name: .long, help: "The MAVLink Copter's FS_GCS_TIMEOUT in seconds, with --protocol mavlink (ArduCopter's range 2 to 120, default 5). Also what it answers PARAM_REQUEST_READ.")
    var fsGcsTimeout: Double = 5

    @Option(name: .long, help: "Where the drone starts, LAT,LON in degrees (default: Champ de Mars, Paris).")
    var home: String = "48.8584,2.2945"

    @Option(name: .long, help: "The drone's initial nose heading, degrees clockwise from north.")
    var noseHeadingDeg: Double = 0

    @Option(name: .long, help: "Nose heading minus receiver heading, degrees (default: [onboard] mount_offset_deg of --config, else 90).")
    var mountOffsetDeg: Double?

    @Option(name: .long, help: "Config file to take [onboard] mount_offset_deg from.")
    var config: String?

    @Option(name: .long, help: "The person's motion: none, straight-walk, square, stop-and-go, jog-curve.")
    var person: String = "none"

    @Option(name: .long, help: "A recorded GPX track for the person to replay (sets --person track; the drone starts 10 m behind the track's first point).")
    var personTrack: String?

    @Option(name: .long, help: "When the person starts: 'airborne' (drone finished takeoff) or seconds after start.")
    var personStart: String = "airborne"

    @Option(name: .long, help: "Direction the person walks off in, compass degrees (default 180: away from the drone, which starts 10 m north of them).")
    var personBearingDeg: Double = 180

    @Option(name: .long, help: "GPS error model: clean (truth at 5 Hz) or realistic (metre-level bias, 0.3 s latency).")
    var gpsNoise: String = "clean"

    @Option(name: .long, help: "Fixes per second of the person's NMEA stream, 0.5 to 20 (default: 5, the GPS model's).")
    var personRateHz: Double?

    @Option(name: .long, help: "Seed for the GPS noise.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Seconds after its epoch each receiver writes a fix, 0 to 0.6; the NMEA time is the epoch, so a flight measuring fix ages sees this (default: the GPS model's, 0 clean, 0.3 realistic).")
    var receiverLatency: Double?

    @OptionGroup var wind: WindOptions

    @Option(name: .long, help: ArgumentHelp(
        "An H.264 Annex B stream (e.g. ffmpeg -f h264) the simulated AR.Drone serves as its camera: PaVE-wrapped access units at 30 fps, looped, on --video-port and --live-video-port (TCP).",
        valueName: "file"))
    var video: String?

    @Option(name: .long, help: "TCP port of the simulated recording stream, with --video (the drone's 5553; 0 = any free port).")
    var videoPort: Int = 5553

    @Option(name: .long, help: "TCP port of the simulated live stream, with --video (the drone's 5555; 0 = any free port).")
    var liveVideoPort: Int = 5555

    @Option(name: .long, help: ArgumentHelp(
        "Faults of the video ports, with --video, comma-separated: split=BYTES (each frame in TCP segments of at most BYTES), garbage=BYTES (garbage before every other frame), drop=FRAMES (close each connection after FRAMES frames).",
        valueName: "list"))
    var videoFaults: String?

    @Flag(name: .long, help: "Print the status lines as JSON objects.")
    var json = false

    @Flag(name: .long, help: "Log protocol details (clients, malformed datagrams) to stderr.")
    var verbose = false

    func validate() throws {
        for (name, port) in [("--at-port", atPort), ("--navdata-port", navdataPort), ("--nmea-port", nmeaPort),
                             ("--person-nmea-port", personNMEAPort), ("--mavlink-port", mavlinkPort)] where !(0...65535).contains(port) {
            throw ValidationError("\(name) must be 0...65535, got \(port)")
        }
        for (name, port) in [("--video-port", videoPort), ("--live-video-port", liveVideoPort)] where !(0...65535).contains(port) {
            throw ValidationError("\(name) must be 0...65535, got \(port)")
        }
        _ = try parsedVideoFaults()
        if let controlPort, !(0...65535).contains(controlPort) {
            throw ValidationError("--control-port must be 0...65535, got \(controlPort)")
        }
        _ = try parsedHome()
        guard SimulatedDroneKind(rawValue: `protocol`) != nil else {
            throw ValidationError("--protocol must be one of \(SimulatedDroneKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(`protocol`)'")
        }
        guard PersonChoice(rawValue: person) != nil else {
            throw ValidationError("--person must be one of \(PersonChoice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if person == PersonChoice.track.rawValue && personTrack == nil {
            throw ValidationError("--person track needs --person-track FILE.gpx")
        }
        guard PersonStart(argument: personStart) != nil else {
            throw ValidationError("--person-start must be 'airborne' or a number of seconds >= 0, got '\(personStart)'")
        }
        guard GPSNoise(rawValue: gpsNoise) != nil else {
            throw ValidationError("--gps-noise must be clean or realistic, got '\(gpsNoise)'")
        }
        guard noseHeadingDeg.isFinite else { throw ValidationError("--nose-heading-deg must be finite") }
        guard personBearingDeg.isFinite else { throw ValidationError("--person-bearing-deg must be finite") }
        if let personRateHz, !(0.5...20).contains(personRateHz) {
            throw ValidationError("--person-rate-hz must be 0.5 to 20, got \(personRateHz)")
        }
        if let receiverLatency, !SimulatorConfiguration.receiverLatencyRange.contains(receiverLatency) {
            throw ValidationError("--receiver-latency must be 0 to 0.6 seconds, got \(receiverLatency)")
        }
        if let mountOffsetDeg, !mountOffsetDeg.isFinite { throw ValidationError("--mount-offset-deg must be finite") }
        guard (0...7).contains(fsGcsEnable) else { throw ValidationError("--fs-gcs-enable must be 0...7 (ArduCopter FS_GCS_ENABLE), got \(fsGcsEnable)") }
        guard (0...255).contains(cameraType) else { throw ValidationError("--camera-type must be 0...255 (ArduPilot CAM1_TYPE), got \(cameraType)") }
        guard (0...255).contains(mountType) else { throw ValidationError("--mount-type must be 0...255 (ArduPilot MNT1_TYPE), got \(mountType)") }
        guard (0...0xFFFF).contains(fsOptions) else { throw ValidationError("--fs-options must be 0...65535 (ArduCopter FS_OPTIONS bitmask), got \(fsOptions)") }
        guard SimulatedAutopilot(rawValue: autopilot) != nil else { throw ValidationError("--autopilot must be ardupilot or px4, got '\(autopilot)'") }
        guard (2...120).contains(fsGcsTimeout) else { throw ValidationError("--fs-gcs-timeout must be 2...120 s (ArduCopter FS_GCS_TIMEOUT), got \(fsGcsTimeout)") }
    }

    func run() async throws {
        var settings = SimulatorConfiguration()
        settings.bindHost = bind
        settings.atPort = atPort
        settings.navdataPort = navdataPort
        settings.onboardNMEAPort = nmeaPort
        settings.personNMEAPort = personNMEAPort
        settings.controlPort = controlPort
        settings.droneProtocol = SimulatedDroneKind(rawValue: `protocol`) ?? .ardrone
        settings.mavlinkPort = mavlinkPort
        if SimulatedAutopilot(rawValue: autopilot) == .px4 {
            settings.mavlinkCopter = .px4
        } else {
            settings.mavlinkCopter.gcsFailsafeAction = fsGcsEnable
            settings.mavlinkCopter.failsafeOptions = UInt32(fsOptions)
            settings.mavlinkCopter.gcsFailsafeTimeoutSeconds = fsGcsTimeout
        }
        settings.mavlinkCopter.mountType = mountType
        settings.mavlinkCopter.cameraType = cameraType
        settings.home = try parsedHome()
        settings.initialNoseHeadingDegrees = noseHeadingDeg
        settings.person = PersonChoice(rawValue: person) ?? .none
        if let personTrack { try settings.usePersonTrack(gpxPath: personTrack) }
        settings.personStart = PersonStart(argument: personStart) ?? .whenAirborne
        settings.personBearingDegrees = personBearingDeg
        settings.gpsNoise = GPSNoise(rawValue: gpsNoise) ?? .clean
        settings.personFixRateHertz = personRateHz
        settings.receiverLatencySeconds = receiverLatency
        settings.seed = seed
        settings.wind = wind.parameters
        if let mountOffsetDeg {
            settings.mountOffsetDegrees = mountOffsetDeg
        } else if let config {
            settings.mountOffsetDegrees = loadConfigurationOrExit(path: config).follow.mountOffsetDegrees
        }

        var logger = Logger(label: "followme.sim")
        logger.logLevel = verbose ? .debug : .warning
        let json = self.json
        let configuration = settings
        let videoServers = try await startVideo(logger: logger)
        do {
            try await SimulatorServer.runUntilSignalled(
                configuration: configuration, logger: logger,
                onStarted: { ports in
                    print(ports.jsonLine(configuration: configuration))
                    flushStandardOutput()
                },
                onStatus: { now, previous in
                    print(json ? now.jsonLine(since: previous) : now.statusLine(since: previous))
                    flushStandardOutput()
                })
        } catch let error as SimulatorServerError {
            for server in videoServers { await server.stop() }
            printError("followme sim: \(error)")
            throw ExitCode(1)
        }
        for server in videoServers { await server.stop() }
    }

    /// The video ports of `--video`, started (none without it); their bound ports go to stderr as one JSON line.
    private func startVideo(logger: Logger) async throws -> [SimulatedVideoServer] {
        guard let video else { return [] }
        guard let data = FileManager.default.contents(atPath: video) else {
            printError("followme sim: cannot read --video \(video)")
            throw ExitCode(1)
        }
        let units = H264AccessUnits.split([UInt8](data))
        guard !units.isEmpty else {
            printError("followme sim: --video \(video) holds no H.264 access unit (an Annex B stream, e.g. ffmpeg -f h264)")
            throw ExitCode(1)
        }
        let faults = try parsedVideoFaults()
        var servers: [SimulatedVideoServer] = []
        for port in [videoPort, liveVideoPort] {
            do {
                let server = try await SimulatedVideoServer.start(host: bind, port: port, units: units, logger: logger)
                server.faults = faults
                servers.append(server)
            } catch {
                for server in servers { await server.stop() }
                printError("followme sim: cannot bind the video port \(bind):\(port): \(error)")
                throw ExitCode(1)
            }
        }
        printError("{\"video_port\":\(servers[0].port),\"live_video_port\":\(servers[1].port),\"video_units\":\(units.count)}")
        return servers
    }

    /// `--video-faults split=N,garbage=N,drop=N`.
    private func parsedVideoFaults() throws -> SimulatedVideoFaults {
        var faults = SimulatedVideoFaults()
        for item in (videoFaults ?? "").split(separator: ",") {
            let kv = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, let n = Int(kv[1]), n >= 0 else {
                throw ValidationError("--video-faults: '\(item)' is not NAME=COUNT (split, garbage, drop)")
            }
            switch kv[0] {
            case "split": faults.segmentBytes = n
            case "garbage": (faults.garbageBytes, faults.garbageEvery) = (n, 2)
            case "drop": faults.dropAfterFrames = n
            default: throw ValidationError("--video-faults: unknown fault '\(kv[0])' (split, garbage, drop)")
            }
        }
        return faults
    }

    /// `--home LAT,LON` as a coordinate.
    private func parsedHome() throws -> GeoCoordinate {
        let parts = home.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
              let coordinate = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon)
        else {
            throw ValidationError("--home must be LAT,LON in degrees (lat -90...90, lon -180...180), got '\(home)'")
        }
        return coordinate
    }
}
