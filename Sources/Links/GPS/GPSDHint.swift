/// What to do about the field's most common gpsd failures: the words shown beside
/// the symptom in logs, `followme gps` and `watch`, so the person in the field sees the fix.
public enum GPSDHint {
    /// gpsd could not be reached at `endpoint`.
    public static func unreachable(_ endpoint: GPSDAddress) -> String {
        if ["127.0.0.1", "localhost", "::1"].contains(endpoint.host) {
            return "is gpsd running? `systemctl status gpsd.socket` (Debian's gpsd starts on the first connection "
                + "to that socket); else check [gpsd] host/port in the config"
        }
        return "is the gpsd on \(endpoint.host) running and listening on the network (gpsd -G), and is \(endpoint) "
            + "reachable from here? else check the host/port of this receiver in the config"
    }

    /// The fix for gpsd's ERROR `message`, when there is one to give.
    public static func forError(_ message: String) -> String? {
        let prefix = "No such device as "
        guard message.hasPrefix(prefix) else { return nil }
        let path = message.dropFirst(prefix.count).trimmingSuffix(while: { $0 == "." || $0 == " " })
        return "gpsd has no receiver at \(path): `ls -l \(path)` — is the puck plugged in, and does the udev rule "
            + "pin it to that name (/etc/udev/rules.d/61-followme-gps.rules, `udevadm info` for its serial)?"
    }

    /// The onboard receiver at `device` has given fixes for `seconds` but no heading: preflight waits
    /// "heading" until it does. `sentTrack`: its fixes carry a TPV track (course over ground).
    public static func noHeading(device: String, seconds: Double, sentTrack: Bool) -> String {
        let receiver = device.isEmpty ? "the onboard receiver" : "the onboard receiver (\(device))"
        return "\(receiver) has sent fixes for \(Int(seconds)) s but no heading, so preflight waits for one: "
            + "FollowMe takes the drone's heading only from gpsd ATT reports, i.e. a receiver with a compass "
            + "(NMEA $HCHDT) or a dual-antenna heading ($..HDT); `gpspipe -w | grep ATT` must show \"heading\". "
            + (sentTrack ? "Its TPV \"track\" (course over ground) is the direction of travel, which a hovering "
                + "drone does not have, so it is not used. " : "")
            + "A single-antenna puck cannot give one: fit a compass or dual-antenna receiver, then measure "
            + "[onboard] mount_offset_deg (nose pointing north: 360 minus the receiver's heading)"
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
