import FollowCore
import Links

/// One gpsd event as the flight log and `followme gps --json` write it: the `event` object of a
/// `"kind":"gps"` line. Each event kind writes only its own fields, in this order:
///
/// Fix: `{"role":"target","device":…,"mode":3,"lat":…,"lon":…,"time":…,"alt_hae":…,"track":…,
/// "speed":…,"climb":…,"eph":…,"epv":…,"eps":…,"age_s":…,"age_source":…,"age_reason":…,"rx":…}` (absent
/// fields omitted; `age_*` = the age the flight dated the fix by, `GPSFix.age`; `rx` = monotonic
/// receive time, seconds). Heading: `{"role":"onboard","device":…,"heading":…,"rx":…}`.
/// Loss: `{"role":…,"event":"lost","device":…,"reason":"no-fix"|"device-deactivated"|"connection-lost",
/// "mode"|"detail":…,"rx":…}`. Connection: `{"role":…,"event":"connected"|"reconnected","gpsd":"host:port","rx":…}`.
/// gpsd error: `{"role":…,"event":"gpsd-error","message":…,"rx":…}`. Sky (gpsd SKY, with gpsd's own
/// names): `{"role":…,"event":"sky","device":…,"uSat":…,"nSat":…,"hdop":…,"vdop":…,"pdop":…,"rx":…}`.
public struct GPSEventRecord: Codable, Sendable, Hashable {
    public var role: String?
    /// Absent for a fix or a heading; `lost`, `connected`, `reconnected`, `gpsd-error`, `sky` otherwise.
    public var event: String?
    public var device: String?
    public var reason: String?
    /// gpsd's fix mode (2 = 2D, 3 = 3D; 0/1 on a no-fix loss).
    public var mode: Int?
    /// Degrees (WGS84).
    public var lat: Double?
    public var lon: Double?
    /// The receiver's UTC time, ISO 8601 with milliseconds.
    public var time: String?
    /// Height above the WGS84 ellipsoid, metres.
    public var altitudeHAEMeters: Double?
    /// Course over ground, degrees; speed and climb, m/s.
    public var track: Double?
    public var speed: Double?
    public var climb: Double?
    /// gpsd's error estimates: horizontal and vertical position (m), speed (m/s).
    public var eph: Double?
    public var epv: Double?
    public var eps: Double?
    /// How old the fix was on arrival, seconds; `clock` (measured) or `config`; which samples, or why
    /// not measured (`FixAge.Source`).
    public var ageSeconds: Double?
    public var ageSource: String?
    public var ageReason: String?
    /// Receiver heading, degrees from true north.
    public var heading: Double?
    public var detail: String?
    public var gpsd: String?
    public var message: String?
    /// Sky: satellites used in the solution and in view; dilutions of precision.
    public var satellitesUsed: Int?
    public var satellitesVisible: Int?
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    /// Monotonic receive time, seconds.
    public var rx: Double?

    enum CodingKeys: String, CodingKey {
        case role, event, device, reason, mode, lat, lon, time, altitudeHAEMeters = "alt_hae", track, speed, climb
        case eph, epv, eps, ageSeconds = "age_s", ageSource = "age_source", ageReason = "age_reason"
        case heading, detail, gpsd, message
        case satellitesUsed = "uSat", satellitesVisible = "nSat", hdop, vdop, pdop, rx
    }

    public init(_ event: GPSEvent) {
        role = event.role.rawValue
        switch event {
        case .fix(let f):
            device = f.device
            mode = f.mode.rawValue
            lat = f.coordinate.latitudeDegrees
            lon = f.coordinate.longitudeDegrees
            time = f.fixTime.map { iso8601UTC(seconds: $0.seconds, nanoseconds: $0.nanoseconds) }
            altitudeHAEMeters = f.altitudeHAEMeters
            track = f.trackDegrees
            speed = f.speedMetersPerSecond
            climb = f.climbMetersPerSecond
            eph = f.ephMeters
            epv = f.epvMeters
            eps = f.epsMetersPerSecond
            (ageSeconds, ageSource, ageReason) = (f.age?.seconds, f.age?.source.name, f.age?.source.reason)
            rx = f.receivedAt.seconds
        case .heading(let h):
            device = h.device
            heading = h.headingDegrees
            rx = h.receivedAt.seconds
        case .lost(let loss):
            self.event = "lost"
            device = loss.device
            switch loss.reason {
            case .noFix(let mode):
                reason = "no-fix"
                self.mode = mode
            case .deviceDeactivated:
                reason = "device-deactivated"
            case .connectionLost(let why):
                reason = "connection-lost"
                detail = why
            }
            rx = loss.at.seconds
        case .connected(_, let endpoint, let isReconnect, let at):
            self.event = isReconnect ? "reconnected" : "connected"
            gpsd = endpoint
            rx = at.seconds
        case .gpsdError(_, let message, let at):
            self.event = "gpsd-error"
            self.message = message
            rx = at.seconds
        case .sky(let sky):
            self.event = "sky"
            device = sky.device
            (satellitesUsed, satellitesVisible) = (sky.satellitesUsed, sky.satellitesVisible)
            (hdop, vdop, pdop) = (sky.hdop, sky.vdop, sky.pdop)
            rx = sky.receivedAt.seconds
        }
    }
}

extension GPSEvent {
    /// The event as one JSON object (`GPSEventRecord`), the format of `followme gps --json` and
    /// the `event` of the flight log's gps lines.
    public func jsonLine() -> String {
        // Cannot fail: the record has only scalar fields.
        (try? JSONLineEncoder().encode(GPSEventRecord(self))) ?? "{}"
    }
}
