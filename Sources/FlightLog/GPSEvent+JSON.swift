import Observations
import ShellSupport

extension GPSEvent {
    /// The event as one JSON object, the format of `followme gps --json` and the flight log.
    ///
    /// Fix: `{"role":"target","device":…,"mode":3,"lat":…,"lon":…,"time":…,"alt_hae":…,"track":…,
    /// "speed":…,"climb":…,"eph":…,"epv":…,"eps":…,"rx":…}` (absent fields omitted; `rx` = monotonic
    /// receive time, seconds). Heading: `{"role":"onboard","device":…,"heading":…,"rx":…}`.
    /// Loss: `{"role":…,"event":"lost","reason":"no-fix"|"device-deactivated"|"connection-lost",…}`.
    /// Connection: `{"role":…,"event":"connected"|"reconnected","gpsd":"host:port"}`.
    public func jsonLine() -> String {
        var j = JSONLine()
        j.add("role", role.rawValue)
        switch self {
        case .fix(let f):
            j.add("device", f.device)
            j.add("mode", f.mode.rawValue)
            j.add("lat", f.coordinate.latitudeDegrees)
            j.add("lon", f.coordinate.longitudeDegrees)
            if let t = f.fixTime { j.add("time", iso8601UTC(seconds: t.seconds, nanoseconds: t.nanoseconds)) }
            j.add("alt_hae", f.altitudeHAEMeters)
            j.add("track", f.trackDegrees)
            j.add("speed", f.speedMetersPerSecond)
            j.add("climb", f.climbMetersPerSecond)
            j.add("eph", f.ephMeters)
            j.add("epv", f.epvMeters)
            j.add("eps", f.epsMetersPerSecond)
            j.add("rx", f.receivedAt.seconds)
        case .heading(let h):
            j.add("device", h.device)
            j.add("heading", h.headingDegrees)
            j.add("rx", h.receivedAt.seconds)
        case .lost(let loss):
            j.add("event", "lost")
            j.add("device", loss.device)
            switch loss.reason {
            case .noFix(let mode):
                j.add("reason", "no-fix")
                j.add("mode", mode)
            case .deviceDeactivated:
                j.add("reason", "device-deactivated")
            case .connectionLost(let why):
                j.add("reason", "connection-lost")
                j.add("detail", why)
            }
            j.add("rx", loss.at.seconds)
        case .connected(_, let endpoint, let isReconnect, let at):
            j.add("event", isReconnect ? "reconnected" : "connected")
            j.add("gpsd", endpoint)
            j.add("rx", at.seconds)
        case .gpsdError(_, let message, let at):
            j.add("event", "gpsd-error")
            j.add("message", message)
            j.add("rx", at.seconds)
        }
        return j.string
    }
}
