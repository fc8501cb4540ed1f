/// What a flight sends a drone link on every decision: fly or not, and how.
///
/// Link-neutral: `motion` is the core's command in the local plane (`MotionCommand`). A MAVLink link
/// sends it as a velocity set-point in MAV_FRAME_LOCAL_NED (docs/mavlink.md §7.4); the AR.Drone
/// link runs its tilt loop on it and `motion.context` (`TiltLoop`, module ARDrone) and sends that PCMD
/// with REF bit 9 (docs/ardrone-protocol.md §2.3), reporting the tilt back (`LinkEvent.commandSent`).
/// Neither converts the other's terms.
public struct LinkCommand: Sendable, Hashable {
    /// Take off / stay airborne (true) or land / stay landed (false).
    public var flying: Bool
    /// The motion the core asks for; nil = hover (an autopilot: zero velocity, it holds where it stops).
    public var motion: MotionCommand?
    /// The flight let go of the vehicle (`FlightState.released`: a pilot or the autopilot's failsafe
    /// flies it): send nothing that commands it — no set-point, no mode change, no LAND.
    public var released: Bool
    /// With `flying` false: land the vehicle if it is airborne — the flight decided to land one it
    /// took off or adopted, or an operator said `followme drone land`. Without it, `flying` false only
    /// means "stay on the ground": a vehicle someone else flies is never landed for it (preflight, a
    /// dry run; docs/mavlink.md §7.3). The AR.Drone link reads `flying` alone (REF bit 9 is a level).
    public var land: Bool
    /// Where the person is (their estimate) while the flight follows or holds with them in sight; nil
    /// otherwise. A MAVLink link with `[mavlink] point_camera` points the camera there
    /// (MAV_CMD_DO_SET_ROI_LOCATION); the AR.Drone link ignores it.
    public var lookAt: GeoCoordinate?
    /// How far the person's ground is above (negative: below) the ground at home, metres: their filtered
    /// 3-D altitude's rise since take-off (`FlightStateMachine.personRiseMeters`); nil while unknown (the
    /// link then aims at home's ground). Only with `lookAt`.
    public var lookAtRiseMeters: Double?
    /// The flight's own frame (home, the person's rise) once it has one; a link that keeps a flight across
    /// a restart keeps this with it (docs/mavlink.md §7.2). nil before take-off.
    public var frame: FlightFrame?

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
