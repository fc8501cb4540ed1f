import ARDrone
import FollowCore
import Links
import FlightRecords

/// The ports a `SimulatorServer` actually bound (configured port 0 becomes the kernel's choice).
public struct SimulatorPorts: Sendable, Hashable {
    /// UDP, AT commands in.
    public var atPort: Int
    /// UDP, navdata trigger in / navdata out.
    public var navdataPort: Int
    /// TCP, the onboard receiver's NMEA.
    public var onboardNMEAPort: Int
    /// TCP, the person's receiver's NMEA; nil when no person is simulated.
    public var personNMEAPort: Int?
    /// UDP, the fault-injection control channel; nil when not enabled.
    public var controlPort: Int? = nil
    /// UDP, the MAVLink Copter (`--protocol mavlink`); nil for the AR.Drone.
    public var mavlinkPort: Int? = nil
}

/// One consistent view of the simulator, taken on its event loop.
public struct SimulatorSnapshot: Sendable {
    /// Simulation time (the monotonic clock of the process).
    public var time: MonotonicTime
    /// Seconds since the server started.
    public var uptimeSeconds: Double
    public var flightPhase: DroneSimulator.FlightPhase
    /// What the next navdata packet will report: the simulator's header state bits (without
    /// `SimulatedDroneProtocol.alwaysOnStateBits`) and demo option.
    public var navdata: NavdataSummary
    public var navdataMode: SimulatedDroneProtocol.NavdataMode
    public var counters: SimulatedDroneProtocol.Counters
    public var lastAcceptedSequenceNumber: UInt32?
    /// Where navdata goes (the last trigger's source), e.g. `[IPv4]127.0.0.1/127.0.0.1:40000`.
    public var navdataClient: String?

    // Ground truth.
    /// Drone position, metres east/north of `home`.
    public var positionPlane: PlaneVector
    /// Drone position as a coordinate (nil only if the plane position left the globe).
    public var coordinate: GeoCoordinate?
    public var velocityENU: PlaneVector
    public var altitudeMeters: Double
    public var noseHeadingDegrees: Double
    public var batteryPercent: Double

    /// The person's true position, metres east/north of `home`; nil without a person.
    public var personPlane: PlaneVector?
    /// Whether the person's scenario clock has started.
    public var personStarted: Bool

    /// Clients connected to the onboard / person NMEA streams.
    public var onboardNMEAClients: Int
    public var personNMEAClients: Int
    /// Onboard fixes (RMC + GGA pairs) and headings (HDT) written so far.
    public var onboardFixesSent: Int
    public var onboardHeadingsSent: Int
    /// Person fixes written so far.
    public var personFixesSent: Int

    // Fault injection (control channel).
    /// Why the drone is landing or last landed; nil if it never landed since its last takeoff.
    public var landingReason: DroneSimulator.LandingReason? = nil
    /// Seconds since the last AT datagram arrived (+∞ before the first).
    public var secondsSinceLastCommand: Double = .infinity
    /// The longest silence between two AT datagrams so far, seconds (0 before the second).
    public var maxCommandGapSeconds: Double = 0
    /// The faults in force and what they suppressed or injected so far.
    public var faults = SimulatorFaults()
    /// Config keys the drone holds now (written since start or since it last forgot them).
    public var configurationKeyCount = 0
    /// When the first navdata packet reporting the drone landed went out after its last touchdown
    /// (nil while it is airborne, or before such a packet was sent).
    public var landedAnnouncedAt: MonotonicTime?
    /// REF commands with bit 9 (take off) that arrived while the drone was landed and had already
    /// said so in navdata (`landedAnnouncedAt`): take-off requests a client made knowing the drone
    /// was down. Cumulative over the run.
    public var takeoffBitsAfterLandedAnnounced = 0
    /// When the last of those arrived.
    public var lastTakeoffBitAfterLandedAnnouncedAt: MonotonicTime?
    /// With `--protocol mavlink`: the Copter's mode, armed, landed state, ground station and
    /// counters as one JSON object (`MAVLinkVehicleEndpoint.json`); nil for the AR.Drone.
    public var mavlinkJSON: String?
    /// The same in a few words for the status line (`GUIDED armed in-air`); nil for the AR.Drone.
    public var mavlinkSummary: String?

    /// One human-readable status line; rates are per second since `previous`.
    public func statusLine(since previous: SimulatorSnapshot?) -> String {
        let rates = Rates(self, previous)
        var s = "t=\(NMEASentence.decimal(uptimeSeconds, fractionDigits: 1))s \(flightPhase.name)"
        s += " ctrl=\(Self.controlStateName(navdata)) bat=\(NMEASentence.decimal(batteryPercent, fractionDigits: 1))%"
        s += " alt=\(NMEASentence.decimal(altitudeMeters, fractionDigits: 2))m"
        if let c = coordinate {
            s += " pos=\(NMEASentence.decimal(c.latitudeDegrees, fractionDigits: 7)),\(NMEASentence.decimal(c.longitudeDegrees, fractionDigits: 7))"
        }
        s += " en=(\(NMEASentence.decimal(positionPlane.east, fractionDigits: 2)),\(NMEASentence.decimal(positionPlane.north, fractionDigits: 2)))m"
        s += " nose=\(NMEASentence.decimal(noseHeadingDegrees, fractionDigits: 1))°"
        s += " speed=\(NMEASentence.decimal(velocityENU.length, fractionDigits: 2))m/s"
        s += " cmd/s=\(NMEASentence.decimal(rates.commandsPerSecond, fractionDigits: 0))"
        s += " navdata=\(navdataMode.rawValue)@\(NMEASentence.decimal(rates.navdataPerSecond, fractionDigits: 1))Hz"
        if counters[.malformedDatagrams] > 0 { s += " malformed=\(counters[.malformedDatagrams])" }
        if counters[.staleCommands] > 0 { s += " stale=\(counters[.staleCommands])" }
        s += " nmea-clients=\(onboardNMEAClients)"
        if let mavlinkSummary { s += " mavlink=\(mavlinkSummary)" }
        if let p = personPlane {
            s += " person=(\(NMEASentence.decimal(p.east, fractionDigits: 1)),\(NMEASentence.decimal(p.north, fractionDigits: 1)))m"
            s += personStarted ? "" : "(waiting)"
        }
        return s
    }

    /// The same as one JSON object (`"event":"status"`).
    public func jsonLine(since previous: SimulatorSnapshot?) -> String {
        let rates = Rates(self, previous)
        var j = JSONLine()
        j.add("event", "status")
        j.add("uptime", uptimeSeconds)
        j.add("state", flightPhase.name)
        j.add("ctrl_state", Self.controlStateName(navdata))
        j.add("state_word", Int(SimulatedDroneProtocol.headerState(navdata.state).rawValue))
        j.add("battery", batteryPercent)
        j.add("alt", altitudeMeters)
        j.add("lat", coordinate?.latitudeDegrees)
        j.add("lon", coordinate?.longitudeDegrees)
        j.add("east", positionPlane.east)
        j.add("north", positionPlane.north)
        j.add("nose", noseHeadingDegrees)
        j.add("speed", velocityENU.length)
        j.add("commands_per_s", rates.commandsPerSecond)
        j.add("navdata_mode", navdataMode.rawValue)
        j.add("navdata_per_s", rates.navdataPerSecond)
        j.add("malformed", counters[.malformedDatagrams])
        j.add("stale", counters[.staleCommands])
        j.add("nmea_clients", onboardNMEAClients)
        addPerson(to: &j)
        if let mavlinkJSON { j.addRaw("mavlink", mavlinkJSON) }
        return j.string
    }

    /// The major control state as the status line and JSON have always named it (the simulator's
    /// former case names, kept so `followme sim` output does not change): `landed`, `hovering`,
    /// `transTakeoff`, … (docs/ardrone-protocol.md §3.4).
    static func controlStateName(_ navdata: NavdataSummary) -> String {
        switch navdata.demo?.controlState {
        case .defaultState?, nil: "default"
        case .initializing?: "initializing"
        case .landed?: "landed"
        case .flying?: "flying"
        case .hovering?: "hovering"
        case .test?: "test"
        case .transitionTakeoff?: "transTakeoff"
        case .transitionGotoFix?: "transGotofix"
        case .transitionLanding?: "transLanding"
        case .transitionLooping?: "transLooping"
        }
    }

    /// The person's fields of both status JSON objects (none without a person).
    func addPerson(to j: inout JSONLine) {
        guard let p = personPlane else { return }
        j.add("person_east", p.east)
        j.add("person_north", p.north)
        j.add("person_started", personStarted)
    }

    private struct Rates {
        var commandsPerSecond = 0.0
        var navdataPerSecond = 0.0

        init(_ now: SimulatorSnapshot, _ previous: SimulatorSnapshot?) {
            guard let previous else { return }
            let dt = now.time.seconds(since: previous.time)
            guard dt > 0 else { return }
            commandsPerSecond = Double(now.counters[.acceptedCommands] - previous.counters[.acceptedCommands]) / dt
            navdataPerSecond = Double(now.counters[.navdataPackets] - previous.counters[.navdataPackets]) / dt
        }
    }
}

extension SimulatorPorts {
    /// The start line of `followme sim`: `{"event":"listening","bind":…,"at_port":…,…}`.
    public func jsonLine(configuration: SimulatorConfiguration) -> String {
        var j = JSONLine()
        j.add("event", "listening")
        j.add("bind", configuration.bindHost)
        j.add("at_port", atPort)
        j.add("navdata_port", navdataPort)
        j.add("nmea_port", onboardNMEAPort)
        if let personNMEAPort { j.add("person_nmea_port", personNMEAPort) }
        if let controlPort { j.add("control_port", controlPort) }
        if let mavlinkPort {
            j.add("protocol", configuration.droneProtocol.rawValue)
            j.add("mavlink_port", mavlinkPort)
        }
        j.add("home_lat", configuration.home.latitudeDegrees)
        j.add("home_lon", configuration.home.longitudeDegrees)
        j.add("mount_offset_deg", configuration.mountOffsetDegrees)
        j.add("gps_noise", configuration.gpsNoise.rawValue)
        j.add("person", configuration.person.rawValue)
        return j.string
    }
}
