/// What a link that closes the velocity loop itself (the AR.Drone's `TiltLoop`) commanded for the last
/// `LinkCommand`: the attitude as sines of its tilt in the body frame (the core turns it into the plane
/// with that tick's nose heading), and the PCMD sent. Reported with `LinkEvent.commandSent`; read by
/// `FollowController.noteCommandedTilt`.
public struct CommandedTilt: Sendable, Hashable {
    /// sin(tilt) towards the nose (positive = nose down = accelerating forward).
    public var forwardSine: Double
    /// sin(tilt) to the right of the nose (positive = right side down).
    public var rightSine: Double
    /// The PCMD fractions sent; nil = hover (PCMD flag 0), and the sines are the attitude the next PCMD ramps from.
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
