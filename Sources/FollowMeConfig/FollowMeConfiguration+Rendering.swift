extension FollowMeConfiguration {
    /// The effective configuration as TOML: every table and key, defaults filled in, `[target]` and
    /// `[onboard]` endpoints resolved, `mount_offset_deg` normalised. Each line carries its unit and range.
    ///
    /// What `followme config check FILE` prints. Parsing the output gives back an equal value.
    public func renderedTOML() -> String {
        func number(_ value: Double) -> String { String(value) }  // shortest round-trip form, always a float
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
            "mount_offset_deg = \(number(onboard.mountOffsetDegrees))  # degrees clockwise, receiver heading → drone nose",
            "rate_hz = \(onboard.rate)  # \"max\", \"device\" or Hz \(range(ReceiverRate.hertzRange))",
            "",
            "[drone]",
            "address = \(renderTOMLString(drone.address))",
            "at_port = \(drone.atPort)  # UDP, 1 to 65535",
            "navdata_port = \(drone.navdataPort)  # UDP, 1 to 65535",
            "outdoor = \(drone.outdoor)",
            "altitude_max_m = \(number(drone.altitudeMaxMeters))  # m, \(range(Drone.altitudeMaxMetersRange))",
            "",
            "[follow]",
            "standoff_m = \(number(f.standoffMeters))  # m, \(range(Follow.standoffMetersRange))",
            "altitude_m = \(number(f.altitudeMeters))  # m, 1 to drone.altitude_max_m",
            "max_tilt_deg = \(number(f.maxTiltDegrees))  # degrees, \(range(Follow.maxTiltDegreesRange))",
            "max_yaw_rate_dps = \(number(f.maxYawRateDegreesPerSecond))  # degrees/s, "
                + range(Follow.maxYawRateDegreesPerSecondRange),
            "max_climb_mps = \(number(f.maxClimbMetersPerSecond))  # m/s, \(range(Follow.maxClimbMetersPerSecondRange))",
            "",
            "[failsafe]",
            "target_timeout_s = \(number(s.targetTimeoutSeconds))  # s, \(range(Failsafe.targetTimeoutSecondsRange))",
            "land_after_s = \(number(s.landAfterSeconds))  # s, \(range(Failsafe.landAfterSecondsRange)), "
                + "> target_timeout_s",
            "onboard_timeout_s = \(number(s.onboardTimeoutSeconds))  # s, \(range(Failsafe.onboardTimeoutSecondsRange))",
            "heading_timeout_s = \(number(s.headingTimeoutSeconds))  # s, \(range(Failsafe.headingTimeoutSecondsRange))",
            "navdata_timeout_s = \(number(s.navdataTimeoutSeconds))  # s, \(range(Failsafe.navdataTimeoutSecondsRange))",
            "min_battery_pct = \(s.minBatteryPercent)  # %, \(Failsafe.minBatteryPercentRange.lowerBound) to "
                + "\(Failsafe.minBatteryPercentRange.upperBound)",
            "geofence_m = \(number(s.geofenceMeters))  # m, \(range(Failsafe.geofenceMetersRange))",
            "max_target_distance_m = \(number(s.maxTargetDistanceMeters))  # m, \(range(Failsafe.maxTargetDistanceMetersRange))",
            "min_separation_m = \(number(s.minSeparationMeters))  # m, 1 to follow.standoff_m - 0.5 - gps_relative_error_m",
            "gps_relative_error_m = \(number(s.gpsRelativeErrorMeters))  # m, \(range(Failsafe.gpsRelativeErrorMetersRange))",
            "takeoff_timeout_s = \(number(s.takeOffTimeoutSeconds))  # s, \(range(Failsafe.takeOffTimeoutSecondsRange))",
            "climb_timeout_s = \(number(s.climbTimeoutSeconds))  # s, \(range(Failsafe.climbTimeoutSecondsRange))",
            "low_battery_confirm_s = \(number(s.lowBatteryConfirmSeconds))  # s, "
                + range(Failsafe.lowBatteryConfirmSecondsRange),
            "critical_battery_pct = \(s.criticalBatteryPercent)  # %, \(Failsafe.criticalBatteryPercentRange.lowerBound) to "
                + "\(Failsafe.criticalBatteryPercentRange.upperBound), the lower of it and min_battery_pct applies",
            "max_eph_m = \(number(s.maxEphMeters))  # m, \(range(Failsafe.maxEphMetersRange))",
            "max_fix_lag_s = \(number(s.maxFixLagSeconds))  # s, \(range(Failsafe.maxFixLagSecondsRange))",
            "",
            "[log]",
            "path = \(renderTOMLString(log.path ?? ""))  # \"\" = no flight log",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private func range(_ r: ClosedRange<Double>) -> String { ConfigReader.format(r) }
}

/// `text` as a TOML basic string: quoted, with `"`, `\` and control characters escaped.
package func renderTOMLString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
