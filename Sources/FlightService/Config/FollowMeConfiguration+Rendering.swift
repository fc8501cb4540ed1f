import FlightRecords

extension FollowMeConfiguration {
    /// The effective configuration as TOML: every table and key, defaults filled in, `[target]` and
    /// `[onboard]` endpoints resolved, `mount_offset_deg` normalised. Each line carries its unit and range.
    ///
    /// What `followme config check FILE` prints. Parsing the output gives back an equal value.
    public func renderedTOML() -> String {
        let f = follow, s = failsafe
        let lines: [String] = [
            "# FollowMe effective configuration: every key, defaults filled in.",
            "",
            "[gpsd]",
            "host = \(renderTOMLString(gpsd.host))",
            "port = \(gpsd.port)  # 1 to 65535",
            "",
            "[target]",
            "device = \(renderTOMLString(target.device ?? ""))  # \"\" = any device on its gpsd",
            "host = \(renderTOMLString(target.host))",
            "port = \(target.port)  # 1 to 65535",
            "rate_hz = \(target.rate)  # \"max\", \"device\" or Hz \(range(ReceiverRate.hertzRange))",
            "",
            "[onboard]",
            "device = \(renderTOMLString(onboard.device ?? ""))  # \"\" = any device on its gpsd",
            "host = \(renderTOMLString(onboard.host))",
            "port = \(onboard.port)  # 1 to 65535",
            "mount_offset_deg = \(String(onboard.mountOffsetDegrees))  # degrees clockwise, receiver heading → drone nose",
            "rate_hz = \(onboard.rate)  # \"max\", \"device\" or Hz \(range(ReceiverRate.hertzRange))",
            "",
            "[drone]",
        ] + protocolLines + [
            "address = \(renderTOMLString(drone.address))",
            "at_port = \(drone.atPort)  # UDP, 1 to 65535",
            "navdata_port = \(drone.navdataPort)  # UDP, 1 to 65535",
            "outdoor = \(drone.outdoor)",
            number("drone", "altitude_max_m", drone.altitudeMaxMeters),
        ] + mavlinkLines + [
            "",
            "[follow]",
            number("follow", "standoff_m", f.standoffMeters),
            number("follow", "altitude_m", f.altitudeMeters),
            number("follow", "max_tilt_deg", f.maxTiltDegrees),
            number("follow", "max_yaw_rate_dps", f.maxYawRateDegreesPerSecond),
            number("follow", "max_climb_mps", f.maxClimbMetersPerSecond),
            "",
            "[failsafe]",
            number("failsafe", "target_timeout_s", s.targetTimeoutSeconds),
            number("failsafe", "land_after_s", s.landAfterSeconds, note: "> target_timeout_s"),
            number("failsafe", "onboard_timeout_s", s.onboardTimeoutSeconds),
            number("failsafe", "heading_timeout_s", s.headingTimeoutSeconds),
            number("failsafe", "navdata_timeout_s", s.navdataTimeoutSeconds),
            number("failsafe", "min_battery_pct", Double(s.minBatteryPercent)),
            number("failsafe", "geofence_m", s.geofenceMeters),
            number("failsafe", "max_target_distance_m", s.maxTargetDistanceMeters),
            number("failsafe", "min_separation_m", s.minSeparationMeters),
            number("failsafe", "gps_relative_error_m", s.gpsRelativeErrorMeters),
            number("failsafe", "takeoff_timeout_s", s.takeOffTimeoutSeconds),
            number("failsafe", "climb_timeout_s", s.climbTimeoutSeconds),
            number("failsafe", "low_battery_confirm_s", s.lowBatteryConfirmSeconds),
            number("failsafe", "critical_battery_pct", Double(s.criticalBatteryPercent),
                   note: "the lower of it and min_battery_pct applies"),
            number("failsafe", "max_eph_m", s.maxEphMeters),
            number("failsafe", "max_fix_lag_s", s.maxFixLagSeconds),
            number("failsafe", "max_wind_mps", s.maxWindMetersPerSecond, note: "0 = off"),
            number("failsafe", "wind_saturation_s", s.windSaturationSeconds),
            "",
            "[log]",
            "path = \(renderTOMLString(log.path ?? ""))  # \"\" = none; a fixed file every flight appends to",
            "directory = \(renderTOMLString(log.directory ?? ""))  # \"\" = none; one file per flight",
            number("log", "max_flights", Double(log.maxFlights), note: "0 = no limit"),
            number("log", "max_total_mb", Double(log.maxTotalMegabytes), note: "0 = no limit"),
            "",
            "[status]",
            "socket = \(renderTOMLString(status.socketPath))  # \"\" = none",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `protocol` and `[mavlink]` are written only for a MAVLink file, so an AR.Drone file (every file
    /// from before MAVLink) prints and logs exactly what it did; its `[mavlink]` holds the defaults.
    private var protocolLines: [String] {
        guard drone.linkProtocol == .mavlink else { return [] }
        return ["protocol = \(renderTOMLString(drone.linkProtocol.rawValue))  # \(choices(LinkProtocol.self))"]
    }

    private var mavlinkLines: [String] {
        guard drone.linkProtocol == .mavlink else { return [] }
        let m = mavlink
        return [
            "",
            "[mavlink]",
            "address = \(renderTOMLString(m.address))",
            "port = \(m.port)  # UDP, 1 to 65535",
            number("mavlink", "local_port", Double(m.localPort), note: "0 = any free port"),
            number("mavlink", "system_id", Double(m.systemID), note: "FollowMe's own"),
            number("mavlink", "component_id", Double(m.componentID), note: "FollowMe's own"),
            number("mavlink", "target_system", Double(m.targetSystem), note: "0 = the first vehicle heard"),
            "autopilot = \(renderTOMLString(m.autopilot.rawValue))  # \(choices(Autopilot.self))",
            "position_source = \(renderTOMLString(m.positionSource.rawValue))  # \(choices(PositionSource.self))",
        ]
    }

    private func choices<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) -> String
    where Choice.RawValue == String {
        Choice.allCases.map { renderTOMLString($0.rawValue) }.joined(separator: " or ")
    }

    private func range(_ r: ClosedRange<Double>) -> String { ConfigReader.format(r) }

    /// `key = value  # unit, range[, note]` from the key's declared spec (`ConfigSchema.specs`); a whole
    /// number for an integer key, else the shortest round-trip float; a dependent upper bound as the key
    /// it comes from (`ConfigSchema.dependentUpperBounds`).
    private func number(_ table: String, _ key: String, _ value: Double, note: String? = nil) -> String {
        let spec = ConfigSchema.spec(table, key)
        let dotted = "\(table).\(key)"
        let text = ConfigSchema.integerKeys.contains(dotted) ? String(Int(value)) : String(value)
        let bounds = ConfigSchema.dependentUpperBounds[dotted].map { "\(ConfigReader.format(spec.range.lowerBound)) to \($0)" }
            ?? range(spec.range)
        return "\(key) = \(text)  # \(spec.unit), \(bounds)" + (note.map { ", \($0)" } ?? "")
    }
}

/// `text` as a TOML basic string: quoted, with `"`, `\` and control characters escaped.
package func renderTOMLString(_ text: String) -> String {
    var out = ""
    appendQuoted(text, to: &out, uppercaseHex: true, escapeDelete: true)
    return out
}
