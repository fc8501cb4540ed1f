extension FollowMeConfiguration {
    /// Keys written with a non-default value that the chosen link does not read (their row's
    /// `ConfigKey.Use`): `[mavlink]` in an AR.Drone file, the AR.Drone's `[drone]` keys in a MAVLink
    /// file, `[onboard]` when the autopilot gives the drone's position. Not errors: one file may carry
    /// both drones' settings, and the shipped file writes every key; a key left at its default is not
    /// reported (nothing is lost).
    ///
    /// - Parameters:
    ///   - c: the configuration (`[mavlink]` at its defaults unless the file flies MAVLink).
    ///   - written: every key as the file writes it (`[mavlink]` included).
    static func unusedKeys(_ c: FollowMeConfiguration, asWritten written: FollowMeConfiguration, _ r: ConfigReader)
        -> [ConfigNote] {
        ConfigKeys.all.compactMap { key -> ConfigNote? in
            guard let why = c.unusedReason(key.use), key.differsFromDefault(written),
                let line = r.lineIfWritten(key.table, key.name)
            else { return nil }
            return ConfigNote(path: r.path, line: line, key: key.dotted, message: why)
        }.sorted { $0.line < $1.line }
    }

    /// Why a key read only by `use` is not read by this configuration, or `nil` when it is.
    private func unusedReason(_ use: ConfigKey.Use) -> String? {
        switch use {
        case .always:
            return nil
        case .ardrone:
            guard drone.linkProtocol == .mavlink else { return nil }
            return "not used: it is the AR.Drone's, and drone.protocol is \"mavlink\" (see [mavlink])"
        case .mavlink:
            guard drone.linkProtocol == .ardrone else { return nil }
            return "not used: drone.protocol is \"ardrone\"; set drone.protocol = \"mavlink\" to fly over "
                + "MAVLink, or remove the key"
        case .onboardReceiver:
            guard !readsOnboardReceiver else { return nil }
            return "not used: mavlink.position_source is \"autopilot\", so the drone's position and nose "
                + "heading are the autopilot's and no onboard receiver is read"
        }
    }
}
