/// The altitude the flight aims for (`AltitudeMode`): above take-off, or above the person.
extension FlightStateMachine {
    /// Whether `AltitudeMode.person` changes anything on this vehicle: only an autopilot, whose altitude
    /// is above home (the AR.Drone's ultrasound height is already above the ground, `AltitudeMode.person`).
    var followsPersonAltitude: Bool {
        guard followParameters.altitudeMode == .person, case .velocityLoop = controller.vehicle else { return false }
        return true
    }

    /// The person's filtered altitude, metres (the receiver's datum); nil until the filter has seeded from
    /// agreeing 3-D fixes (`PersonAltitudeFilter`).
    public var personAltitudeMeters: Double? { personAltitude.filteredMeters }

    /// How far the person has risen (negative: descended) since take-off, metres: their filtered altitude
    /// minus its value at home, both from the same receiver (its datum cancels); nil until both are known.
    /// Any altitude mode: the camera aims at the person's ground with it (`LinkCommand.lookAtRiseMeters`).
    public var personRiseMeters: Double? {
        guard let person = personAltitudeMeters, let atHome = personAltitudeAtHomeMeters else { return nil }
        return person - atHome
    }

    /// The altitude to fly at, metres, in the vehicle's own altitude frame (navdata's): `altitudeMeters`;
    /// with `AltitudeMode.person` on an autopilot, plus how far the person's filtered altitude has risen
    /// (or fallen) since take-off, kept between `altitudeFloorMeters` and `altitudeCeilingMeters` above
    /// take-off (the ceiling wins if they cross: it is the vehicle's own limit). While the person's altitude
    /// or its value at home is unknown (no rise known) it is `altitudeMeters`, no lower than the floor (the
    /// drone holds for it, `targetAltitudeStale(now:)`).
    public func followAltitudeMeters() -> Double {
        guard followsPersonAltitude else { return followParameters.altitudeMeters }
        var altitude = followParameters.altitudeMeters
        if let rise = personRiseMeters { altitude += rise }
        return min(max(altitude, followParameters.altitudeFloorMeters), followParameters.altitudeCeilingMeters)
    }

    /// With `AltitudeMode.person` on an autopilot, while moving sideways (following, or held for this):
    /// the person's altitude is unknown — no used 3-D fix since `personAltitudeTimeoutSeconds`, or none by the
    /// end of the climb (the rise since take-off cannot be known). Confirmed by the next used 3-D fix.
    func targetAltitudeStale(now: MonotonicTime) -> Bool {
        guard followsPersonAltitude, state == .following || state == .holding(.targetAltitudeStale) else { return false }
        return personAltitudeAtHomeMeters == nil || !personAltitudeFresh(now: now)
    }

    /// The filter has a value and used a fix within `personAltitudeTimeoutSeconds`.
    private func personAltitudeFresh(now: MonotonicTime) -> Bool {
        guard let at = personAltitude.lastUsedAt else { return false }
        return now.seconds(since: at) <= Self.personAltitudeTimeoutSeconds
    }

    /// The person's altitude at home, when the filter seeds (`PersonAltitudeFilter`: only from a run of
    /// agreeing fixes) after home was set but before the drone leaves the climb straight up over home: the
    /// person has walked a few seconds at most, so it still stands for their height at take-off. Once per tick.
    mutating func notePersonAltitudeAtHomeDuringClimb() {
        guard personAltitudeAtHomeMeters == nil, home != nil, state.kind == .takingOff || state.kind == .climbing else { return }
        personAltitudeAtHomeMeters = personAltitudeMeters
    }

    /// With `AltitudeMode.person` on an autopilot, before take-off: the person's altitude is not known now —
    /// the filter has not seeded from agreeing 3-D fixes yet, or its last used fix is older than
    /// `personAltitudeTimeoutSeconds` (`Prerequisites.targetAltitude`; home takes the altitude at take-off).
    func personAltitudeUnknown(now: MonotonicTime) -> Bool {
        followsPersonAltitude && !personAltitudeFresh(now: now)
    }

    /// How long `AltitudeMode.person` flies on without a 3-D fix from the person, seconds (our choice:
    /// a walker on a 10 % grade climbs 0.7 m in 5 s, about the height tolerance; a receiver dropping to
    /// 2-D under trees for a few fixes must not stop the flight).
    public static let personAltitudeTimeoutSeconds = 5.0
}
