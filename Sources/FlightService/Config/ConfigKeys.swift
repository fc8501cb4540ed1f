import FollowCore

/// Every key of `followme.toml`, one row each, in file order: the one place a key is declared.
///
/// Parsing, the defaults, `followme config check`'s printout, the unknown-key suggestions, the
/// unused-key notes, the shipped-comment test and docs/config-keys.md all walk this table
/// (``ConfigKey``). A key the flight core reads names the core's parameter itself (`\.follow.…` into
/// `FollowParameters`, `\.failsafe.…` into `FailsafeParameters`) and takes its `ParameterSpec`
/// (declared once, in FollowCore); the others write a field of the config's own tables and declare
/// their spec here. Adding a core-backed key: its field and spec in FollowCore's `Parameters/`, one row
/// here, its line in `etc/followme.toml`, and docs/config-keys.md regenerated (docs/configuration.md §4).
package enum ConfigKeys {
    private typealias F = FollowParameters.Spec
    private typealias S = FailsafeParameters.Spec
    private typealias C = FollowMeConfiguration

    /// The rows, in file order (tables in the order they are printed).
    package static let all: [ConfigKey] = gpsd + receivers + drone + mavlink + follow + failsafe + log + video

    private static let gpsd: [ConfigKey] = [
        .string("gpsd", "host", \.gpsd.host, default: .value("127.0.0.1"),
                help: "gpsd host (DNS name, IPv4 or IPv6) both receivers are read from.") { C.hostProblem($0, allowIPv6: true) },
        // gpsd's DEFAULT_GPSD_PORT (docs/gpsd.md §1.1).
        .port("gpsd", "port", \.gpsd.port, default: .value(2947), help: "gpsd TCP port."),
    ]

    private static let receivers: [ConfigKey] = [
        .optionalString("target", "device", \.target.device, default: nil,
                        help: "Exact gpsd device path of the person's puck (e.g. \"/dev/gpstarget\"); \"\" = any device.",
                        comment: "\"\" = any device on its gpsd", problem: C.deviceProblem),
        .string("target", "host", \.target.host, default: .sameAs(\.gpsd.host, key: "gpsd.host"),
                help: "gpsd host of the puck.") { C.hostProblem($0, allowIPv6: true) },
        .port("target", "port", \.target.port, default: .sameAs(\.gpsd.port, key: "gpsd.port"), help: "gpsd TCP port of the puck."),
        .rate("target", \.target.rate, default: .max, help: "Fix rate to ask gpsd to run the puck at."),
        .number("target", "latency_s", \.follow.assumedGPSLatencySeconds, F.assumedGPSLatencySeconds,
                help: "How old the puck's fixes are on arrival when not measured (docs/gps-latency.md); also what the standoff rule sizes for."),
        // Default auto: measured only against a host clock the kernel says is synchronised (docs/gps-latency.md §3).
        .choice("target", "latency_source", \.target.latencySource, default: .auto,
                help: "\"auto\": measure the fixes' age when the host clock is synchronised, else latency_s; \"clock\": measure even when it is not; \"config\": always latency_s."),

        .optionalString("onboard", "device", \.onboard.device, default: nil,
                        help: "Exact gpsd device path of the receiver on the drone; \"\" = any device.",
                        comment: "\"\" = any device on its gpsd", use: .onboardReceiver, problem: C.deviceProblem),
        .string("onboard", "host", \.onboard.host, default: .sameAs(\.gpsd.host, key: "gpsd.host"),
                help: "gpsd host of the onboard receiver (may be a second gpsd on the drone).",
                use: .onboardReceiver) { C.hostProblem($0, allowIPv6: true) },
        .port("onboard", "port", \.onboard.port, default: .sameAs(\.gpsd.port, key: "gpsd.port"),
              help: "gpsd TCP port of the onboard receiver.", use: .onboardReceiver),
        .angle("onboard", "mount_offset_deg", \.follow.mountOffsetDegrees, F.mountOffsetDegrees,
               help: "Degrees clockwise from the receiver's heading to the drone's nose (normalised into [0, 360)).",
               comment: "degrees clockwise, receiver heading → drone nose", use: .onboardReceiver),
        // Default "device": leave the drone's receiver as its integrator set it up (it may feed other
        // equipment, and it already runs faster than a puck).
        .rate("onboard", \.onboard.rate, default: .device, help: "Fix rate to ask gpsd to run the onboard receiver at.",
              use: .onboardReceiver),
        .number("onboard", "latency_s", \.follow.assumedOnboardGPSLatencySeconds, F.assumedOnboardGPSLatencySeconds,
                help: "How old the onboard receiver's fixes (and headings) are on arrival when not measured.",
                use: .onboardReceiver),
        .choice("onboard", "latency_source", \.onboard.latencySource, default: .auto,
                help: "As target.latency_source, for the onboard receiver.", use: .onboardReceiver),
    ]

    private static let drone: [ConfigKey] = [
        // Every file written before MAVLink existed means what it did.
        .choice("drone", "protocol", \.drone.linkProtocol, default: .ardrone,
                help: "Which drone link `followme run` flies with.", printedOnlyWithMAVLink: true),
        .string("drone", "address", \.drone.address, default: .value("192.168.1.1"),
                help: "AR.Drone IPv4 address or host name (its own access point gives it 192.168.1.1).",
                use: .ardrone) { C.hostProblem($0, allowIPv6: false) },
        // config.h AT_PORT and NAVDATA_PORT (docs/ardrone-protocol.md §1.1).
        .port("drone", "at_port", \.drone.atPort, default: .value(5556), udp: true,
              help: "UDP port of the AR.Drone's AT command channel.", use: .ardrone),
        .port("drone", "navdata_port", \.drone.navdataPort, default: .value(5554), udp: true,
              help: "UDP port of the AR.Drone's navdata channel.", use: .ardrone),
        .bool("drone", "outdoor", \.drone.outdoor, default: true,
              help: "Selects the AR.Drone's outdoor limit set (`control:outdoor`).", use: .ardrone),
        // Metres, 1…100 (100 m is the SDK's `no_altitude_limit`, docs/ardrone-protocol.md §4), default 10: high
        // enough to clear people, low enough to stay in sight. The config's own (the drone enforces it, as
        // `control:altitude_max`).
        .number("drone", "altitude_max_m", \.drone.altitudeMaxMeters,
                ParameterSpec("altitudeMaxMeters", unit: "m", range: 1...100, default: 10),
                help: "Altitude ceiling above take-off; caps follow.altitude_m."),
    ]

    private static let mavlink: [ConfigKey] = [
        // The usual SITL or companion-computer case (our choice: never a broadcast or listen-anywhere address).
        .string("mavlink", "address", \.mavlink.address, default: .value("127.0.0.1"),
                help: "The autopilot's (or its MAVLink router's) IPv4 address or host name.", use: .mavlink,
                problem: C.mavlinkAddressProblem),
        // The port ground stations and `followme sim --protocol mavlink` use.
        .port("mavlink", "port", \.mavlink.port, default: .value(14550), udp: true,
              help: "UDP port the autopilot listens on.", use: .mavlink),
        // Our choice: the vehicle answers whatever port it hears from; a fixed one is for a router or a
        // PX4 SITL that sends to a known port (14540).
        .integer("mavlink", "local_port", \.mavlink.localPort,
                 ParameterSpec("localPort", unit: "UDP port", range: 0...65535, default: 0),
                 help: "Local UDP port FollowMe binds; 0 = any free port.", note: "0 = any free port", use: .mavlink),
        // 1 to 255 (0 is broadcast); default 245: not 255, the id QGroundControl and Mission Planner both
        // use, so a ground station on the same link neither takes FollowMe's COMMAND_ACKs nor counts as
        // FollowMe for the vehicle's GCS failsafe (ArduPilot SYSID_MYGCS / MAV_GCS_SYSID must be set to it,
        // docs/mavlink.md §3, §10).
        .integer("mavlink", "system_id", \.mavlink.systemID,
                 ParameterSpec("systemID", unit: "MAVLink id", range: 1...255, default: 245),
                 help: "FollowMe's own MAVLink system id.", note: "FollowMe's own", use: .mavlink),
        // Default 190, MAV_COMP_ID_MISSIONPLANNER, a ground station's component (FollowMe runs on the ground
        // unit; its system id already tells it apart, docs/mavlink.md §3).
        .integer("mavlink", "component_id", \.mavlink.componentID,
                 ParameterSpec("componentID", unit: "MAVLink id", range: 1...255, default: 190),
                 help: "FollowMe's own MAVLink component id.", note: "FollowMe's own", use: .mavlink),
        // Default 0: the first vehicle heard (autopilots ship as system 1, docs/mavlink.md §3). Set it when
        // several vehicles share the link.
        .integer("mavlink", "target_system", \.mavlink.targetSystem,
                 ParameterSpec("targetSystem", unit: "MAVLink id", range: 0...255, default: 0),
                 help: "The vehicle's MAVLink system id; 0 = the first vehicle heard.",
                 note: "0 = the first vehicle heard", use: .mavlink),
        .choice("mavlink", "autopilot", \.mavlink.autopilot, default: .ardupilot,
                help: "The flight stack on the vehicle (take-off sequence and mode numbers differ).", use: .mavlink),
        .choice("mavlink", "position_source", \.mavlink.positionSource, default: .autopilot,
                help: "Where the drone's own position and nose heading come from.", use: .mavlink),
        // Default false: a file without the key sends no region of interest.
        .bool("mavlink", "point_camera", \.mavlink.pointCamera, default: false,
              help: "Point the camera at the person (MAV_CMD_DO_SET_ROI_LOCATION; PX4, or ArduPilot with a mount), cleared on landing or release (DO_SET_ROI_NONE).",
              use: .mavlink),
    ]

    private static let follow: [ConfigKey] = [
        .number("follow", "standoff_m", \.follow.standoffMeters, F.standoffMeters,
                help: "Horizontal distance kept from the person."),
        // follow.altitude_m ≤ drone.altitude_max_m: the drone would fight its own ceiling.
        .number("follow", "altitude_m", \.follow.altitudeMeters, F.altitudeMeters,
                help: "Flight altitude above take-off.",
                bound: ("drone.altitude_max_m", ["drone.altitude_max_m"], { r, c, declared in
                    guard !r.isRejected("drone", "altitude_max_m") else { return (declared, nil) }
                    return (declared.lowerBound...min(declared.upperBound, c.drone.altitudeMaxMeters), "drone.altitude_max_m")
                })),
        .number("follow", "max_tilt_deg", \.follow.maxTiltDegrees, F.maxTiltDegrees,
                help: "Maximum tilt (roll/pitch) while cruising; the AR.Drone brakes up to braking_tilt_deg."),
        // Default 25, or max_tilt_deg when larger: a file without the key brakes at 25° (docs/stopping-model.md §1).
        .number("follow", "braking_tilt_deg", \.follow.brakingTiltDegrees, F.brakingTiltDegrees,
                help: "AR.Drone: the tilt it may use to brake, its `control:euler_angle_max`; at least max_tilt_deg.",
                note: "default max(25, max_tilt_deg)",
                bound: ("follow.max_tilt_deg", ["follow.max_tilt_deg"], { r, c, declared in
                    guard !r.isRejected("follow", "max_tilt_deg") else { return (declared, nil) }
                    return (max(declared.lowerBound, c.follow.maxTiltDegrees)...declared.upperBound,
                            "at least follow.max_tilt_deg")
                }), lowerBound: true),
        .number("follow", "max_yaw_rate_dps", \.follow.maxYawRateDegreesPerSecond, F.maxYawRateDegreesPerSecond,
                help: "Maximum yaw rate, the AR.Drone's `control:control_yaw`."),
        .number("follow", "max_climb_mps", \.follow.maxClimbMetersPerSecond, F.maxClimbMetersPerSecond,
                help: "Maximum climb/descent rate, the AR.Drone's `control:control_vz_max`."),
        // Default auto: a file without the key takes off by itself.
        .choice("follow", "takeoff", \.failsafe.takeOffOnStart, as: C.TakeOff.takeOffOnStart, default: .auto,
                help: "\"auto\": take off as soon as every preflight check passes; \"start\": only on the operator's START."),
        // Default leash: a file without the key flies behind a walker.
        .choice("follow", "mode", \.follow.mode, default: .leash,
                help: "\"leash\": behind a walker; \"angle\": at angle_deg from their direction of travel; \"orbit\": circle them."),
        .number("follow", "angle_deg", \.follow.angleDegrees, F.angleDegrees,
                help: "mode \"angle\": degrees clockwise from the person's direction of travel (0 front, 90 right, 180 behind, -90 left)."),
        .number("follow", "orbit_speed_mps", \.follow.orbitSpeedMetersPerSecond, F.orbitSpeedMetersPerSecond,
                help: "Speed round the person: mode \"orbit\"'s, and mode \"angle\"'s fastest on its way to the angle."),
        .choice("follow", "orbit_direction", \.follow.orbitDirection, default: .clockwise,
                help: "mode \"orbit\": which way round, seen from above."),
        // Default face-person: a file without the key keeps the nose on the person.
        .choice("follow", "yaw", \.follow.yawMode, default: .facePerson,
                help: "Where the nose points while following: \"face-person\", or \"travel\" (along the flight from 0.5 m/s until it slows below 0.35 m/s)."),
        // Default takeoff: a file without the key flies altitude_m above take-off.
        .choice("follow", "altitude_mode", \.follow.altitudeMode, default: .takeoff,
                help: "\"takeoff\": altitude_m above take-off; \"person\": above the person (their 3-D fix), at most drone.altitude_max_m above take-off."),
        // follow.altitude_min_m ≤ drone.altitude_max_m, as altitude_m (the ceiling would win in flight). Default
        // 3 m: "person" climbs with the person but never below the shipped altitude over the take-off ground.
        .number("follow", "altitude_min_m", \.follow.altitudeFloorMeters, F.altitudeFloorMeters,
                help: "altitude_mode \"person\": the lowest the drone flies above take-off, whatever the person's altitude says.",
                bound: ("drone.altitude_max_m", ["drone.altitude_max_m"], { r, c, declared in
                    guard !r.isRejected("drone", "altitude_max_m") else { return (declared, nil) }
                    return (declared.lowerBound...min(declared.upperBound, c.drone.altitudeMaxMeters), "drone.altitude_max_m")
                })),
    ]

    private static let failsafe: [ConfigKey] = [
        .number("failsafe", "target_timeout_s", \.failsafe.targetTimeoutSeconds, S.targetTimeoutSeconds,
                help: "Target fix older than this: stop following and hover."),
        .number("failsafe", "land_after_s", \.failsafe.landAfterSeconds, S.landAfterSeconds,
                help: "No target fix for this long: land.", note: "> target_timeout_s"),
        .number("failsafe", "onboard_timeout_s", \.failsafe.onboardTimeoutSeconds, S.onboardTimeoutSeconds,
                help: "Onboard fix older than this: hover."),
        .number("failsafe", "heading_timeout_s", \.failsafe.headingTimeoutSeconds, S.headingTimeoutSeconds,
                help: "Onboard heading older than this: hover."),
        .number("failsafe", "navdata_timeout_s", \.failsafe.telemetryTimeoutSeconds, S.telemetryTimeoutSeconds,
                help: "No navdata for this long: link lost."),
        .integer("failsafe", "min_battery_pct", \.failsafe.minBatteryPercent, S.minBatteryPercent,
                 help: "Battery at or below this (confirmed for low_battery_confirm_s): land."),
        .number("failsafe", "geofence_m", \.failsafe.geofenceMeters, S.geofenceMeters,
                help: "Radius of the allowed flight area around the take-off point."),
        .number("failsafe", "max_target_distance_m", \.failsafe.maxTargetDistanceMeters, S.maxTargetDistanceMeters,
                help: "Drone–person distance beyond which the drone stops following and holds."),
        // min_separation_m + gps_relative_error_m ≤ follow.standoff_m − margin: the drone keeps both from the
        // measured person and aims `margin` beyond that; a shorter standoff could never be flown. Read against
        // its declared range only: the cross-field rule (FollowMeConfiguration+Parsing) reports the conflict,
        // knowing the value written, with the standoff to set.
        .number("failsafe", "min_separation_m", \.failsafe.minSeparationMeters, S.minSeparationMeters,
                help: "Closer than this to the person: back off or hold.",
                bound: ("follow.standoff_m - 0.5 - gps_relative_error_m",
                        ["follow.standoff_m", "failsafe.gps_relative_error_m"], { _, _, declared in (declared, nil) })),
        .number("failsafe", "gps_relative_error_m", \.failsafe.gpsRelativeErrorMeters, S.gpsRelativeErrorMeters,
                help: "How far the two receivers' measured offset may be off the truth."),
        .number("failsafe", "takeoff_timeout_s", \.failsafe.takeOffTimeoutSeconds, S.takeOffTimeoutSeconds,
                help: "Lift-off must be confirmed this soon after take-off, or the take-off is abandoned."),
        .number("failsafe", "climb_timeout_s", \.failsafe.climbTimeoutSeconds, S.climbTimeoutSeconds,
                help: "Longest climb to follow.altitude_m before holding where it got to."),
        .number("failsafe", "low_battery_confirm_s", \.failsafe.lowBatteryConfirmSeconds, S.lowBatteryConfirmSeconds,
                help: "Battery must stay under min_battery_pct this long before the drone lands for it."),
        .integer("failsafe", "critical_battery_pct", \.failsafe.criticalBatteryPercent, S.criticalBatteryPercent,
                 help: "Battery under this lands at once.", note: "the lower of it and min_battery_pct applies"),
        .number("failsafe", "max_eph_m", \.failsafe.maxEphMeters, S.maxEphMeters,
                help: "Fixes whose gpsd `eph` exceeds this are refused."),
        .number("failsafe", "max_fix_lag_s", \.failsafe.maxFixLagSeconds, S.maxFixLagSeconds,
                help: "A fix lagging the stream's clock by more than this is stale (a backlog)."),
        .number("failsafe", "max_wind_mps", \.failsafe.maxWindMetersPerSecond, S.maxWindMetersPerSecond,
                help: "Mean wind estimate above this lands the drone; 0 = no fixed limit.", note: "0 = off"),
        .number("failsafe", "wind_saturation_s", \.failsafe.windSaturationSeconds, S.windSaturationSeconds,
                help: "How long the wind may sit at the edge of what full tilt can fight before the drone lands."),
    ]

    private static let log: [ConfigKey] = [
        .optionalString("log", "path", \.log.path, default: nil,
                        help: "A fixed flight-log file every flight appends to; wins over `directory`; \"\" = none.",
                        comment: "\"\" = none; a fixed file every flight appends to", problem: C.logPathProblem),
        .optionalString("log", "directory", \.log.directory, default: C.Log.defaultDirectory,
                        help: "Directory that gets one flight log per flight; \"\" = none.",
                        comment: "\"\" = none; one file per flight", problem: C.logPathProblem),
        // Our choice: a couple of weeks of flying at a few flights a day; max_total_mb usually binds first
        // for full-length flights.
        .integer("log", "max_flights", \.log.maxFlights,
                 ParameterSpec("maxFlights", unit: "flights", range: 0...100_000, default: 50),
                 help: "At most this many flight logs in `directory`, oldest removed first; 0 = no limit.",
                 note: "0 = no limit"),
        // MB = 10^6 bytes. Our choice: a log grows about 6.5 kB per second of flight (measured: the demo's
        // 230 kB over 35 s), 4.7 MB for a whole 12-minute AR.Drone battery, so about 40 such flights; small
        // beside the OS on an SD card.
        .integer("log", "max_total_mb", \.log.maxTotalMegabytes,
                 ParameterSpec("maxTotalMegabytes", unit: "MB", range: 0...1_000_000, default: 200),
                 help: "At most this many MB of flight logs in `directory`, oldest removed first; 0 = no limit.",
                 note: "0 = no limit"),
        .string("status", "socket", \.status.socketPath, default: .value(""),
                help: "Unix socket `followme run` publishes its status on for `followme watch`; \"\" = none.",
                comment: "\"\" = none", problem: C.logPathProblem),
        .string("web", "listen", \.web.listen, default: .value(""),
                help: "HOST:PORT the phone cockpit is served on (e.g. \"0.0.0.0:8080\"); \"\" = none.",
                comment: "\"\" = no cockpit", problem: C.listenProblem),
        .bool("web", "land_without_code", \.web.landWithoutCode, default: false,
              help: "Accept LAND from the cockpit without the pairing code (every other command needs it)."),
        .optionalString("web", "code_file", \.web.codeFile, default: nil,
                        help: "The file holding the unit's pairing secret (mode 0600; the package's: /etc/followme/pairing-secret); \"\" = a new one at every start.",
                        comment: "\"\" = a new code at every start", problem: C.logPathProblem),
    ]

    private static let video: [ConfigKey] = [
        // A missing key means off, so an existing install keeps its disk use; etc/followme.toml turns it on.
        .bool("video", "record", \.video.record, default: false,
              help: "Record the drone's camera while it flies (the AR.Drone's front camera: docs/video.md)."),
        .choice("video", "stream", \.video.stream, default: .hd720,
                help: "\"720p\": the drone's H.264 recording stream (TCP 5553); \"360p\": its live stream (TCP 5555)."),
        // 0: the drone's own ports (ARDroneLib config.h); another one for a drone behind a port forward, or the simulator.
        .integer("video", "port", \.video.port,
                 ParameterSpec("videoPort", unit: "TCP port", range: 0...65535, default: 0),
                 help: "The drone's TCP port for the stream; 0 = its own (5553 for 720p, 5555 for 360p).",
                 note: "0 = the stream's own"),
        .optionalString("video", "directory", \.video.directory, default: nil,
                        help: "The recordings' own directory; \"\" = `video` inside [log] directory.",
                        comment: "\"\" = video/ inside [log] directory", problem: C.logPathProblem),
        // Our choice: the 720p stream runs at up to 4 Mbit/s, about 360 MB for a 12-minute battery: five such flights.
        .integer("video", "max_total_mb", \.video.maxTotalMegabytes,
                 ParameterSpec("videoMaxTotalMegabytes", unit: "MB", range: 0...10_000_000, default: 2000),
                 help: "At most this many MB of recordings in the directory, this one included, oldest deleted first; 0 = no limit.",
                 note: "0 = no limit"),
        // Our choice: room for the flight logs and the system to go on after the video stops.
        .integer("video", "min_free_mb", \.video.minFreeMegabytes,
                 ParameterSpec("videoMinFreeMegabytes", unit: "MB", range: 0...10_000_000, default: 500),
                 help: "Below this many MB free on the directory's file system, recording stops (and says so).",
                 note: "0 = no floor"),
    ]
}
