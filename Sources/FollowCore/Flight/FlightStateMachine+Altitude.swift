/// The altitude the flight aims for (`AltitudeMode`): above take-off, or above the person.
extension FlightStateMachine {
    /// Whether `AltitudeMode.person` applies on this vehicle: only an autopilot (altitude above home).
    var followsPersonAltitude: Bool {
        guard followParameters.altitudeMode == .person, controller.vehicle.isAutopilot else { return false }
        return true
    }

    /// The person's filtered altitude, metres (the receiver's datum); nil until the filter has seeded.
    public var personAltitudeMeters: Double? { personAltitude.filteredMeters }

    /// How far the person has risen (negative: descended) since take-off, metres (same receiver, so its
    /// datum cancels); nil until both are known. Any altitude mode (`LinkCommand.lookAtRiseMeters`).
    public var personRiseMeters: Double? {
        guard let person = personAltitudeMeters, let atHome = personAltitudeAtHomeMeters else { return nil }
        return person - atHome
    }

    /// The altitude to fly at, metres, in the vehicle's altitude frame: `altitudeMeters`, plus the person's
    /// rise with `AltitudeMode.person` on an autopilot, kept between `altitudeFloorMeters` and
    /// `altitudeCeilingMeters` (the ceiling wins if they cross).
    public func followAltitudeMeters() -> Double {
        guard followsPersonAltitude else { return followParameters.altitudeMeters }
        var altitude = followParameters.altitudeMeters
        if let rise = personRiseMeters { altitude += rise }
        return min(max(altitude, followParameters.altitudeFloorMeters), followParameters.altitudeCeilingMeters)
    }

    /// With `AltitudeMode.person` on an autopilot, while following (or held for this): no used 3-D fix
    /// within `personAltitudeTimeoutSeconds`, or no altitude at home by the end of the climb.
    func targetAltitudeStale(now: MonotonicTime) -> Bool {
        guard followsPersonAltitude, state == .following || state == .holding(.targetAltitudeStale) else { return false }
        return personAltitudeAtHomeMeters == nil || !personAltitudeFresh(now: now)
    }

    /// The filter has a value and used a fix within `personAltitudeTimeoutSeconds`.
    private func personAltitudeFresh(now: MonotonicTime) -> Bool {
        guard let at = personAltitude.lastUsedAt else { return false }
        return now.seconds(since: at) <= Self.personAltitudeTimeoutSeconds
    }

    /// Takes the person's altitude at home if the filter seeds after home was set but during take-off or
    /// the climb (docs/flight-safety-faults.md §5). Once per tick.
    mutating func notePersonAltitudeAtHomeDuringClimb() {
        guard personAltitudeAtHomeMeters == nil, home != nil, state.kind == .takingOff || state.kind == .climbing else { return }
        personAltitudeAtHomeMeters = personAltitudeMeters
    }

    /// With `AltitudeMode.person` on an autopilot, before take-off: the person's altitude is not fresh
    /// (`Prerequisites.targetAltitude`).
    func personAltitudeUnknown(now: MonotonicTime) -> Bool {
        followsPersonAltitude && !personAltitudeFresh(now: now)
    }

    /// How long `AltitudeMode.person` flies on without a used 3-D fix, seconds (docs/flight-safety-faults.md §5).
    public static let personAltitudeTimeoutSeconds = 5.0
}
