extension FollowMeConfiguration {
    /// Keys written with a non-default value that the chosen link does not read: `[mavlink]` in an
    /// AR.Drone file, the AR.Drone's `[drone]` keys in a MAVLink file, `[onboard]` when the autopilot
    /// gives the drone's position. Not errors: one file may carry both drones' settings, and the
    /// shipped file writes every key; a key left at its default is not reported (nothing is lost).
    static func unusedKeys(_ c: FollowMeConfiguration, mavlinkAsWritten m: MAVLink, _ r: ConfigReader) -> [ConfigNote] {
        let d = FollowMeConfiguration.defaults
        var rows: [(table: String, key: String, differs: Bool, why: String)] = []
        switch c.drone.linkProtocol {
        case .ardrone:
            let why = "not used: drone.protocol is \"ardrone\"; set drone.protocol = \"mavlink\" to fly over "
                + "MAVLink, or remove the key"
            let dm = d.mavlink
            rows += [
                ("address", m.address != dm.address), ("port", m.port != dm.port),
                ("local_port", m.localPort != dm.localPort), ("system_id", m.systemID != dm.systemID),
                ("component_id", m.componentID != dm.componentID), ("target_system", m.targetSystem != dm.targetSystem),
                ("autopilot", m.autopilot != dm.autopilot), ("position_source", m.positionSource != dm.positionSource),
            ].map { ("mavlink", $0.0, $0.1, why) }
        case .mavlink:
            let why = "not used: it is the AR.Drone's, and drone.protocol is \"mavlink\" (see [mavlink])"
            rows += [
                ("address", c.drone.address != d.drone.address), ("at_port", c.drone.atPort != d.drone.atPort),
                ("navdata_port", c.drone.navdataPort != d.drone.navdataPort),
                ("outdoor", c.drone.outdoor != d.drone.outdoor),
            ].map { ("drone", $0.0, $0.1, why) }
        }
        if !c.readsOnboardReceiver {
            let why = "not used: mavlink.position_source is \"autopilot\", so the drone's position and nose "
                + "heading are the autopilot's and no onboard receiver is read"
            rows += [
                ("device", c.onboard.device != nil), ("host", c.onboard.host != c.gpsd.host),
                ("port", c.onboard.port != c.gpsd.port),
                ("mount_offset_deg", c.onboard.mountOffsetDegrees != d.onboard.mountOffsetDegrees),
                ("rate_hz", c.onboard.rate != d.onboard.rate),
            ].map { ("onboard", $0.0, $0.1, why) }
        }
        return rows.compactMap { row in
            guard row.differs, let line = r.lineIfWritten(row.table, row.key) else { return nil }
            return ConfigNote(path: r.path, line: line, key: "\(row.table).\(row.key)", message: row.why)
        }.sorted { $0.line < $1.line }
    }
}
