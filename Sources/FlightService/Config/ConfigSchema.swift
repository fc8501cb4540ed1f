import FollowCore

/// The names FollowMe accepts in `followme.toml`: every table and key, in file order.
///
/// Anything else is an error (a misspelt safety limit must not silently fall back to its default).
/// Unit, range and default of each numeric key: ``specs``, the flight core's own `ParameterSpec`s
/// (declared once); `FollowMeConfiguration+Parsing.swift` enforces them, `+Rendering` prints them, and
/// tests check `etc/followme.toml` states them.
package enum ConfigSchema {
    static let tables: [(name: String, keys: [String])] = [
        ("gpsd", ["host", "port"]),
        ("target", ["device", "host", "port", "rate_hz"]),
        ("onboard", ["device", "host", "port", "mount_offset_deg", "rate_hz"]),
        ("drone", ["protocol", "address", "at_port", "navdata_port", "outdoor", "altitude_max_m"]),
        (
            "mavlink",
            ["address", "port", "local_port", "system_id", "component_id", "target_system", "autopilot", "position_source"]
        ),
        ("follow", ["standoff_m", "altitude_m", "max_tilt_deg", "max_yaw_rate_dps", "max_climb_mps"]),
        (
            "failsafe",
            [
                "target_timeout_s", "land_after_s", "onboard_timeout_s", "heading_timeout_s",
                "navdata_timeout_s", "min_battery_pct", "geofence_m", "max_target_distance_m", "min_separation_m",
                "gps_relative_error_m", "takeoff_timeout_s", "climb_timeout_s", "low_battery_confirm_s",
                "critical_battery_pct", "max_eph_m", "max_fix_lag_s", "max_wind_mps", "wind_saturation_s",
            ]
        ),
        ("log", ["path", "directory", "max_flights", "max_total_mb"]),
        ("status", ["socket"]),
    ]

    /// Unit, range and default of each numeric key, by `table.key`: the flight core's declarations,
    /// so a value `config check` accepts is one the core accepts (mount_offset_deg: any finite angle,
    /// normalised into [0, 360) before it reaches the core). `rate_hz`, ports and the `[mavlink]` ids are the
    /// config's own.
    package static let specs: [String: ParameterSpec] = {
        typealias F = FollowParameters.Spec
        typealias S = FailsafeParameters.Spec
        typealias M = FollowMeConfiguration.MAVLink
        return [
            "onboard.mount_offset_deg": F.mountOffsetDegrees,
            "drone.altitude_max_m": FollowMeConfiguration.Drone.altitudeMaxMetersSpec,
            "follow.standoff_m": F.standoffMeters, "follow.altitude_m": F.altitudeMeters,
            "follow.max_tilt_deg": F.maxTiltDegrees, "follow.max_yaw_rate_dps": F.maxYawRateDegreesPerSecond,
            "follow.max_climb_mps": F.maxClimbMetersPerSecond,
            "failsafe.target_timeout_s": S.targetTimeoutSeconds, "failsafe.land_after_s": S.landAfterSeconds,
            "failsafe.onboard_timeout_s": S.onboardTimeoutSeconds, "failsafe.heading_timeout_s": S.headingTimeoutSeconds,
            "failsafe.navdata_timeout_s": S.navdataTimeoutSeconds, "failsafe.min_battery_pct": S.minBatteryPercent,
            "failsafe.geofence_m": S.geofenceMeters, "failsafe.max_target_distance_m": S.maxTargetDistanceMeters,
            "failsafe.min_separation_m": S.minSeparationMeters, "failsafe.gps_relative_error_m": S.gpsRelativeErrorMeters,
            "failsafe.takeoff_timeout_s": S.takeOffTimeoutSeconds, "failsafe.climb_timeout_s": S.climbTimeoutSeconds,
            "failsafe.low_battery_confirm_s": S.lowBatteryConfirmSeconds,
            "failsafe.critical_battery_pct": S.criticalBatteryPercent, "failsafe.max_eph_m": S.maxEphMeters,
            "failsafe.max_fix_lag_s": S.maxFixLagSeconds, "failsafe.max_wind_mps": S.maxWindMetersPerSecond,
            "failsafe.wind_saturation_s": S.windSaturationSeconds,
            "log.max_flights": FollowMeConfiguration.Log.maxFlightsSpec,
            "log.max_total_mb": FollowMeConfiguration.Log.maxTotalMegabytesSpec,
            "mavlink.local_port": M.localPortSpec, "mavlink.system_id": M.systemIDSpec,
            "mavlink.component_id": M.componentIDSpec, "mavlink.target_system": M.targetSystemSpec,
        ]
    }()

    /// Numeric keys written as whole numbers (a float there is a wrong type).
    package static let integerKeys: Set<String> = [
        "failsafe.min_battery_pct", "failsafe.critical_battery_pct", "log.max_flights", "log.max_total_mb",
        "mavlink.local_port", "mavlink.system_id", "mavlink.component_id", "mavlink.target_system",
    ]

    /// Keys whose upper bound another key narrows, with that bound as the file states it.
    package static let dependentUpperBounds: [String: String] = [
        "follow.altitude_m": "drone.altitude_max_m",
        "failsafe.min_separation_m": "follow.standoff_m - 0.5 - gps_relative_error_m",
    ]

    /// The declared spec of a numeric key; a missing entry is a programming error caught by every test.
    static func spec(_ table: String, _ key: String) -> ParameterSpec {
        guard let spec = specs["\(table).\(key)"] else { preconditionFailure("no ParameterSpec for \(table).\(key)") }
        return spec
    }

    package static var tableNames: [String] { tables.map(\.name) }

    /// The keys of a known table, or `nil` for an unknown one.
    static func keys(inTable table: String) -> [String]? {
        tables.first { $0.name == table }?.keys
    }

    /// Every known key as `table.key`.
    package static var dottedKeys: [String] { tables.flatMap { t in t.keys.map { "\(t.name).\($0)" } } }

    /// The closest known table name to `name`, if close enough to be a typo.
    static func suggestTable(for name: String) -> String? {
        closest(to: name, among: tableNames)
    }

    /// The closest known `table.key` for an unknown `key` found in `table` ("" = the root).
    ///
    /// Tries, in order: a near miss within the same table (`mount_ofset_deg` → `onboard.mount_offset_deg`);
    /// the exact key in another table, i.e. a key under the wrong header; a near miss anywhere.
    static func suggestKey(for key: String, inTable table: String) -> String? {
        if let keys = keys(inTable: table), let near = closest(to: key, among: keys) {
            return "\(table).\(near)"
        }
        if let home = tables.first(where: { $0.name != table && $0.keys.contains(key) }) {
            return "\(home.name).\(key)"
        }
        let elsewhere = tables.filter { $0.name != table }.flatMap { t in t.keys.map { (t.name, $0) } }
        if let near = closest(to: key, among: elsewhere.map(\.1)),
            let match = elsewhere.first(where: { $0.1 == near })
        {
            return "\(match.0).\(match.1)"
        }
        return nil
    }

    /// The candidate with the smallest edit distance (case-insensitive), if it is small enough to be a
    /// typo: at most a quarter of the longer name's length, between 1 and 3 edits. Ties go to the first.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            let allowed = min(3, max(1, max(name.count, candidate.count) / 4))
            guard distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }
}

/// Optimal-string-alignment edit distance: insertions, deletions, substitutions and adjacent
/// transpositions each cost 1 (`ofset` → `offset` is 1, `prot` → `port` is 1).
func editDistance(_ a: String, _ b: String) -> Int {
    let s = Array(a), t = Array(b)
    if s.isEmpty { return t.count }
    if t.isEmpty { return s.count }
    // d[i][j] = distance between s[..<i] and t[..<j].
    var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
    for i in 0...s.count { d[i][0] = i }
    for j in 0...t.count { d[0][j] = j }
    for i in 1...s.count {
        for j in 1...t.count {
            let cost = s[i - 1] == t[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[s.count][t.count]
}
