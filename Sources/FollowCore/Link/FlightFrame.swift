/// What a flight keeps of its own frame while it flies, so that a FollowMe restarted in flight goes on
/// with the same one (docs/mavlink.md §7.2): home — the take-off point, the home fence's centre — and
/// how far the person's ground has risen since take-off. The flight hands it to the link with every
/// command (`LinkCommand.frame`); a link that keeps it across a restart (MAVLink's flight record) hands
/// it back when the vehicle's flight is that one (`LinkEvent.flightResumed`).
public struct FlightFrame: Sendable, Hashable {
    /// Where the flight took off (or was adopted, if it never had a frame): the home fence's centre.
    public var home: GeoCoordinate
    /// The person's filtered altitude rise since take-off, metres (`FlightStateMachine.personRiseMeters`);
    /// nil while unknown.
    public var personRiseMeters: Double?

    public init(home: GeoCoordinate, personRiseMeters: Double?) {
        self.home = home
        self.personRiseMeters = personRiseMeters
    }
}
