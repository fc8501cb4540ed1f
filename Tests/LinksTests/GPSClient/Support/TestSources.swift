/// The NMEA streams the integration tests serve: a slow walk per receiver, with positions
/// far enough apart (≥ 40 m between the two walks, ~0.1 m between cycles) that a fix
/// can be traced back to exactly one source and cycle.
enum TestSources {
    /// Where the target walk starts (Paris, Hôtel de Ville).
    static let targetStart = NMEAPosition(latitudeDegrees: 48.856600, longitudeDegrees: 2.352200)
    /// Where the onboard walk starts, ~50 m north-east of the target.
    static let onboardStart = NMEAPosition(latitudeDegrees: 48.857000, longitudeDegrees: 2.353000)
    /// Degrees moved per cycle (~0.11 m north, ~0.11 m east at 48.9° N).
    static let stepDegrees = (latitude: 1e-6, longitude: 1.5e-6)

    /// Tolerance when matching a received fix to a sent position: gpsd prints 9 decimals
    /// (gpsd_json.c json_tpv_dump "%.9f"), NMEA minutes carry 6 (1.7e-8 deg), so 1e-8 deg
    /// (~1 mm) is exact for our purposes and 100× smaller than the step between cycles.
    static let positionToleranceDegrees = 1e-8

    /// A heading that changes every cycle, one decimal as HDT carries it.
    static func heading(_ index: Int) -> Double {
        Double((300 + index * 37) % 3600) / 10
    }

    /// The position of cycle `index` of a walk from `start`.
    static func position(_ start: NMEAPosition, _ index: Int) -> NMEAPosition {
        NMEAPosition(latitudeDegrees: start.latitudeDegrees + Double(index) * stepDegrees.latitude,
                     longitudeDegrees: start.longitudeDegrees + Double(index) * stepDegrees.longitude).asEncoded
    }

    /// Time of day of cycle `index`: 12:00:00 UTC plus `periodCentiseconds` per cycle.
    static func time(_ index: Int, periodCentiseconds: Int) -> NMEA.TimeOfDay {
        NMEA.TimeOfDay(centiseconds: 12 * 360_000 + index * periodCentiseconds)
    }

    /// RMC + GGA of a walk (and `$HCHDT` when `withHeading`), one cycle per call.
    static func walk(from start: NMEAPosition, withHeading: Bool, periodCentiseconds: Int = 10)
        -> @Sendable (Int) -> ScriptedNMEAServer.Cycle
    {
        return { index in
            let p = position(start, index)
            let t = time(index, periodCentiseconds: periodCentiseconds)
            var text = NMEA.rmc(time: t, position: p) + NMEA.gga(time: t, position: p)
            var headingDegrees: Double?
            if withHeading {
                headingDegrees = heading(index)
                text += NMEA.hdt(headingDegrees: heading(index))
            }
            return ScriptedNMEAServer.Cycle(text: text, position: p, headingDegrees: headingDegrees)
        }
    }

    /// The sent cycle that carried this position, if any.
    static func cycle(latitudeDegrees: Double, longitudeDegrees: Double,
                      in sent: [ScriptedNMEAServer.SentCycle]) -> ScriptedNMEAServer.SentCycle? {
        sent.first { cycle in
            cycle.position?.matches(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees,
                                    toleranceDegrees: positionToleranceDegrees) ?? false
        }
    }
}
