/// What a flight sends a drone link on every decision: fly or not, and how. Link-neutral: a link flies
/// `setpoint` when its family's `VehicleModel` made one, else `motion` as it is (docs/architecture.md §3).
public struct LinkCommand: Sendable, Hashable {
    /// Take off / stay airborne (true) or land / stay landed (false).
    public var flying: Bool
    /// The motion the core asks for; nil = hover (an autopilot: zero velocity, it holds where it stops).
    public var motion: MotionCommand?
    /// The flight let go of the vehicle (`FlightState.released`): send nothing that commands it.
    public var released: Bool
    /// With `flying` false: land the vehicle if airborne. Without it, `flying` false only means "stay on
    /// the ground" (docs/mavlink.md §7.3); a link whose protocol has no such difference reads `flying` alone.
    public var land: Bool
    /// Where the person is while the flight follows or holds with them in sight; nil otherwise (a MAVLink
    /// link may point the camera there).
    public var lookAt: GeoCoordinate?
    /// The person's ground above (negative: below) home's, metres; nil while unknown. Only with `lookAt`.
    public var lookAtRiseMeters: Double?
    /// The flight's own frame once it has one (nil before take-off), kept across a restart (docs/mavlink.md §7.2).
    public var frame: FlightFrame?
    /// The family's set-point for this command (`VehicleModel.setpoint(for:)`); nil: fly `motion` as it is,
    /// or hover without one.
    public var setpoint: VehicleSetpoint?

    public init(flying: Bool, motion: MotionCommand? = nil, released: Bool = false,
                land: Bool = false, lookAt: GeoCoordinate? = nil, lookAtRiseMeters: Double? = nil, frame: FlightFrame? = nil) {
        self.frame = frame
        self.flying = flying
        self.motion = motion
        self.released = released
        self.land = land
        self.lookAt = lookAt
        self.lookAtRiseMeters = lookAt == nil ? nil : lookAtRiseMeters
    }

    /// Stay (or go) on the ground, hovering meanwhile.
    public static let landed = LinkCommand(flying: false)
}
