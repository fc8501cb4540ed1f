import FollowCore

/// The one height frame of a flight FollowMe owns (docs/mavlink.md §7.2): the home altitude above
/// mean sea level as the autopilot gave it when the flight became ours (GLOBAL_POSITION_INT `alt` −
/// `relative_alt` then), latched and never taken again from the autopilot's home. The height the core
/// flies by is `alt` − that reference.
///
/// Why: PX4 re-estimates its home altitude during the first minutes after take-off, and its
/// `relative_alt` is measured from that moving home (`-(lpos.z − home.z)`, mavlink
/// GLOBAL_POSITION_INT stream), so it jumps by metres between two messages while the vehicle does not
/// move; its `alt` is `-lpos.z + lpos.ref_alt`, which moves only with the vehicle or with a reset of
/// the estimator's origin. A step in `alt` faster than any multicopter climbs (`maxVerticalSpeed`) is
/// such a reset: the reference moves with it, so the height stays continuous and the core never
/// chases a frame change at full climb rate. Pure: time is an argument.
public struct AltitudeReference: Sendable, Equatable {
    /// The home altitude AMSL, metres, the height is measured from.
    public private(set) var homeMSLMeters: Double
    /// Steps in `alt` taken as frame resets.
    public private(set) var resets = 0
    private var lastMSLMeters: Double
    private var lastAt: MonotonicTime

    /// Faster than this, m/s, a step in `alt` is not the vehicle moving: our bound, above any
    /// multicopter's climb or sink (ArduCopter PILOT_SPEED_UP 2.5 m/s and WPNAV_SPEED_DN 1.5 m/s by
    /// default, PX4 MPC_Z_VEL_MAX_UP 3 m/s) and its fastest fall-back descent, with room for a gust.
    public static let maxVerticalSpeedMetersPerSecond = 10.0
    /// A step up to this, metres, is always movement or noise (a barometer's ±0.5 m between messages).
    public static let stepAllowanceMeters = 1.0

    /// The vehicle's boot clock (`time_boot_ms`) when the reference was latched: a later message of
    /// the same boot has a larger one (a reboot starts it again), which `FlightFrameRecord` relies on.
    public let latchedBootMilliseconds: UInt32

    /// Latched from `position` at `now`: the autopilot's home altitude then.
    public init?(_ position: GlobalPositionInt, now: MonotonicTime) {
        let msl = Double(position.altitudeMSLMillimeters) / 1000, relative = Double(position.relativeAltitudeMillimeters) / 1000
        guard msl.isFinite, relative.isFinite else { return nil }
        (homeMSLMeters, lastMSLMeters, lastAt) = (msl - relative, msl, now)
        latchedBootMilliseconds = position.timeBootMilliseconds
    }

    /// The reference a flight of this run kept (`FlightFrameRecord`), taken on again after a restart:
    /// its home altitude, not the autopilot's of the moment.
    public init(homeMSLMeters: Double, _ position: GlobalPositionInt, now: MonotonicTime) {
        self.homeMSLMeters = homeMSLMeters
        (lastMSLMeters, lastAt) = (Double(position.altitudeMSLMillimeters) / 1000, now)
        latchedBootMilliseconds = position.timeBootMilliseconds
    }

    /// Takes in the next position; returns the height above the reference, metres.
    public mutating func height(_ position: GlobalPositionInt, now: MonotonicTime) -> Double {
        let msl = Double(position.altitudeMSLMillimeters) / 1000
        let elapsed = max(0, now.seconds(since: lastAt))
        let step = msl - lastMSLMeters
        if abs(step) > Self.stepAllowanceMeters + Self.maxVerticalSpeedMetersPerSecond * elapsed {
            homeMSLMeters += step
            resets += 1
        }
        (lastMSLMeters, lastAt) = (msl, now)
        return msl - homeMSLMeters
    }
}

/// What a restarted FollowMe needs to fly the flight it took off in the same frame (docs/mavlink.md
/// §7.2): which vehicle, which boot of it, and the home altitude the flight's heights are measured
/// from. The link keeps it in the service's state directory while a flight of ours is in the air.
public struct FlightFrameRecord: Sendable, Equatable, Codable {
    public var systemID: UInt8
    /// `time_boot_ms` when the frame was latched: the same boot goes on counting from it.
    public var bootMilliseconds: UInt32
    public var homeMSLMeters: Double
    /// The flight's home (take-off point, the home fence's centre), degrees, and the person's rise since
    /// take-off, metres (`FlightFrame`); absent in a record without them (the adoption's are used).
    public var homeLatitudeDegrees: Double?
    public var homeLongitudeDegrees: Double?
    public var personRiseMeters: Double?
    /// The vehicle's boot clock when the record was last kept, ms, in whole seconds (so it is written about
    /// once a second): a restart adopts the flight only within `maxRestartMilliseconds` of it. Absent in a
    /// record without it (only the boot and the flight's length are checked then).
    public var seenBootMilliseconds: UInt32?

    /// `personRiseMeters` is kept to 0.1 m (the record is not rewritten for centimetres).
    public init(systemID: UInt8, bootMilliseconds: UInt32, homeMSLMeters: Double, frame: FlightFrame? = nil,
                seenBootMilliseconds: UInt32? = nil) {
        (self.systemID, self.bootMilliseconds, self.homeMSLMeters) = (systemID, bootMilliseconds, homeMSLMeters)
        (homeLatitudeDegrees, homeLongitudeDegrees) = (frame?.home.latitudeDegrees, frame?.home.longitudeDegrees)
        personRiseMeters = frame?.personRiseMeters.map { ($0 * 10).rounded() / 10 }
        self.seenBootMilliseconds = seenBootMilliseconds.map { $0 / 1000 * 1000 }
    }

    /// The longest a restart may take to adopt the flight after the record was last kept, ms: our bound,
    /// well above systemd's 0.5 s `RestartSec=` plus a start-up, well below a landing and a new flight.
    public static let maxRestartMilliseconds: UInt32 = 30_000

    /// The flight's own frame, when the record has its home.
    public var frame: FlightFrame? {
        guard let homeLatitudeDegrees, let homeLongitudeDegrees,
              let home = GeoCoordinate(latitudeDegrees: homeLatitudeDegrees, longitudeDegrees: homeLongitudeDegrees) else { return nil }
        return FlightFrame(home: home, personRiseMeters: personRiseMeters.flatMap { $0.isFinite ? $0 : nil })
    }

    /// The longest a flight lasts, ms: our bound, above any multicopter battery's endurance (2 h). A
    /// boot clock further on than this from the record's is another boot that has run long, not the flight.
    public static let maxFlightMilliseconds: UInt32 = 2 * 3600 * 1000

    /// Whether `position`, from vehicle `systemID`, belongs to the flight this record is of: the same
    /// vehicle, the same boot (its clock has gone on from the record's, by less than a flight lasts),
    /// and a finite home altitude.
    public func describes(systemID: UInt8, _ position: GlobalPositionInt) -> Bool {
        let now = position.timeBootMilliseconds
        let sameBoot = now >= bootMilliseconds && now - bootMilliseconds <= Self.maxFlightMilliseconds
        let recent = seenBootMilliseconds.map { now >= $0 && now - $0 <= Self.maxRestartMilliseconds } ?? true
        return systemID == self.systemID && sameBoot && recent && homeMSLMeters.isFinite
    }
}
