import Links
import FlightRecords

extension SimulatorSnapshot {
    /// The `status` reply of the control channel: flight state, ground truth, AT/navdata counters
    /// and faults, with `t` = simulation time (CLOCK_MONOTONIC seconds).
    public var controlStatusJSON: String {
        var j = JSONLine()
        j.add("ok", true)
        j.add("command", "status")
        j.add("t", time.seconds)
        j.add("uptime", uptimeSeconds)
        j.add("state", flightPhase.name)
        j.add("landing_reason", landingReason.map(Self.name))
        j.add("ctrl_state", Int(navdata.demo?.controlStateMajor ?? 0))
        j.add("state_word", Int(SimulatedDroneProtocol.headerState(navdata.state).rawValue))
        j.add("battery", batteryPercent)
        j.add("alt", altitudeMeters)
        j.add("east", positionPlane.east)
        j.add("north", positionPlane.north)
        j.add("speed", velocityENU.length)
        j.add("nose", noseHeadingDegrees)
        addPerson(to: &j)
        j.add("at_datagrams", counters[.atDatagrams])
        j.add("malformed", counters[.malformedDatagrams])
        j.add("accepted_commands", counters[.acceptedCommands])
        j.add("stale", counters[.staleCommands])
        j.add("navdata_packets", counters[.navdataPackets])
        j.add("navdata_mode", navdataMode.rawValue)
        j.add("config_writes", counters[.configWrites])
        j.add("navdata_demo_writes", counters[.navdataDemoWrites])
        j.add("config_acks", counters[.configAcknowledgements])
        j.add("config_keys", configurationKeyCount)
        j.add("takeoff_bits", counters[.takeoffBits])
        j.add("landed_announced_at", landedAnnouncedAt?.seconds)
        j.add("takeoff_bits_after_landed_announced", takeoffBitsAfterLandedAnnounced)
        j.add("last_takeoff_bit_after_landed_announced_at", lastTakeoffBitAfterLandedAnnouncedAt?.seconds)
        j.add("navdata_client", navdataClient)
        j.add("seconds_since_last_command", secondsSinceLastCommand)
        j.add("max_command_gap_s", maxCommandGapSeconds)
        j.add("com_watchdog", navdata.state.contains(.communicationWatchdog))
        j.add("onboard_fixes_sent", onboardFixesSent)
        j.add("onboard_headings_sent", onboardHeadingsSent)
        j.add("person_fixes_sent", personFixesSent)
        j.addRaw("faults", faults.json)
        if let mavlinkJSON { j.addRaw("mavlink", mavlinkJSON) }
        return j.string
    }

    /// Short lower-case name of a landing reason.
    public static func name(_ reason: DroneSimulator.LandingReason) -> String {
        switch reason {
        case .commanded: "commanded"
        case .comLost: "com-lost"
        case .lowBattery: "low-battery"
        case .automatic: "automatic"
        }
    }
}
