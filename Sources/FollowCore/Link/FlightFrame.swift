/// What a flight keeps of its own frame so a FollowMe restarted in flight goes on with it
/// (docs/mavlink.md §7.2): home and the person's rise since take-off. Sent with every `LinkCommand`;
/// handed back with `LinkEvent.flightResumed`.
public struct FlightFrame: Sendable, Hashable {
    /// Where the flight took off (or was adopted, if it never had a frame): the home fence's centre.
    public var home: GeoCoordinate
    /// The person's filtered altitude rise since take-off, metres; nil while unknown.
    public var personRiseMeters: Double?

    public init(home: GeoCoordinate, personRiseMeters: Double?) {
        self.home = home
        self.personRiseMeters = personRiseMeters
    }
}
