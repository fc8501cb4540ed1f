/// What a link that closes the velocity loop itself (the AR.Drone's, `TiltLoop` in module ARDrone)
/// actually commanded for the flight's last `LinkCommand`: the attitude, as the sines of its tilt in
/// the body frame, and the PCMD fractions sent (for the flight log). The link reports it with
/// `LinkEvent.commandSent` in the same decision step (`DroneControlLink.send` returns it), and the
/// core's latency prediction and wind observers read it on the next tick
/// (`FollowController.noteCommandedTilt`).
///
/// Body frame, not world frame: a PCMD holds its attitude relative to the nose, so the core turns it
/// into the plane with the nose heading of the tick that reads it, exactly as it read the PCMD it
/// made itself before issue 25. The still-air velocity the attitude holds is c2·sin(tilt)
/// (`stillAirVelocity`, docs/dynamics-and-follow.md §1.2).
public struct CommandedTilt: Sendable, Hashable {
    /// sin(tilt) towards the nose (positive = nose down = accelerating forward).
    public var forwardSine: Double
    /// sin(tilt) to the right of the nose (positive = right side down).
    public var rightSine: Double
    /// The PCMD fractions the link sent (roll, pitch, gaz, yaw); nil = hover (PCMD flag 0, the
    /// firmware holds position) — then the sines are the attitude the next PCMD ramps from.
    public var pilot: PilotCommand?

    public init(forwardSine: Double, rightSine: Double, pilot: PilotCommand?) {
        self.forwardSine = forwardSine
        self.rightSine = rightSine
        self.pilot = pilot
    }

    /// No tilt, nothing sent.
    public static let level = CommandedTilt(forwardSine: 0, rightSine: 0, pilot: nil)

    /// The world-frame sin(tilt) vector, plane (east, north), for a nose at `noseHeadingDegrees`.
    @inlinable public func worldSinTilt(noseHeadingDegrees: Double) -> PlaneVector {
        PlaneVector.unit(bearingDegrees: noseHeadingDegrees) * forwardSine
            + PlaneVector.unit(bearingDegrees: noseHeadingDegrees + 90) * rightSine
    }

    /// The still-air velocity the attitude holds, plane m/s: c2·sin(tilt) (`ControllerTuning.tiltSpeedMetersPerSecond`).
    @inlinable public func stillAirVelocity(noseHeadingDegrees: Double, tiltSpeedMetersPerSecond: Double) -> PlaneVector {
        worldSinTilt(noseHeadingDegrees: noseHeadingDegrees) * tiltSpeedMetersPerSecond
    }

    /// Whether both sines are finite and inside [−1, 1].
    @inlinable public var isValid: Bool {
        forwardSine.isFinite && rightSine.isFinite && abs(forwardSine) <= 1 && abs(rightSine) <= 1
    }
}
