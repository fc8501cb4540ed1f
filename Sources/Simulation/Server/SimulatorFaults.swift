import FollowCore
import Links
import FlightRecords

/// Faults in force in a running simulator, and what they did so far.
public struct SimulatorFaults: Sendable, Hashable {
    public var personSilent = false
    public var onboardSilent = false
    public var headingSilent = false
    public var navdataSilent = false
    /// The MAVLink Copter's output (`--protocol mavlink`); not in `json`, which stays the AR.Drone's.
    public var mavlinkSilent = false
    /// Added to the next person fix only, metres east/north.
    public var pendingPersonJump: PlaneVector?
    /// Subtracted from the next person fix's UTC time only, seconds.
    public var pendingPersonTimeBackSeconds: Double?
    /// Heading reports still to rotate by `degrees` (`heading-glitch`).
    public var headingGlitch = PendingHeadingChange()
    /// Heading reports still to replace by `degrees` (`heading-value`).
    public var headingValue = PendingHeadingChange()
    /// Added to every heading report (`heading-offset`), degrees; 0 = none.
    public var headingOffsetDegrees = 0.0

    /// What the faults did so far:
    /// - not sent while silent: `personFixesSuppressed`, `onboardFixesSuppressed`, `navdataPacketsSuppressed`,
    ///   and `headingsSuppressed` (HDT sentences; onboard or heading silent);
    /// - `personJumpsSent`, `personTimeShiftsSent`; `navdataInjected`: bad navdata packets sent by `navdata-inject`;
    /// - heading reports sent rotated by `heading-glitch` (`headingGlitchesSent`), replaced by
    ///   `heading-value` (`headingValuesSent`), rotated by `heading-offset` (`headingsOffsetSent`);
    /// - `automaticLandings`: landings started by the `land` command; `bootstrapFallbacks`:
    ///   `navdata-bootstrap` commands carried out.
    ///
    /// Each raw value is the counter's key in `json`.
    public enum Counter: String, CaseIterable, Sendable, Hashable {
        case personFixesSuppressed = "person_fixes_suppressed", onboardFixesSuppressed = "onboard_fixes_suppressed"
        case headingsSuppressed = "headings_suppressed", navdataPacketsSuppressed = "navdata_suppressed"
        case personJumpsSent = "person_jumps_sent", personTimeShiftsSent = "person_time_shifts_sent"
        case navdataInjected = "navdata_injected", headingGlitchesSent = "heading_glitches_sent"
        case headingValuesSent = "heading_values_sent", headingsOffsetSent = "headings_offset_sent"
        case automaticLandings = "automatic_landings", bootstrapFallbacks = "bootstrap_fallbacks"
    }

    /// What the faults did so far (`counts[.navdataInjected]`).
    public var counts = Counts<Counter>()

    /// The heading the next report sends instead of `trueDegrees` (the receiver's heading), and
    /// counts what was applied: a `heading-value` replaces it; otherwise the offset and a glitch
    /// rotate it.
    mutating func takeHeading(trueDegrees: Double) -> Double {
        if let valueDegrees = headingValue.take() {
            counts[.headingValuesSent] += 1
            return valueDegrees
        }
        var degrees = trueDegrees + headingOffsetDegrees
        if headingOffsetDegrees != 0 { counts[.headingsOffsetSent] += 1 }
        if let glitchDegrees = headingGlitch.take() {
            counts[.headingGlitchesSent] += 1
            degrees += glitchDegrees
        }
        return degrees
    }

    /// Whether `stream` is silenced.
    public func isSilent(_ stream: SimulatorStream) -> Bool {
        switch stream {
        case .person: personSilent
        case .onboard: onboardSilent
        case .heading: headingSilent
        case .navdata: navdataSilent
        case .mavlink: mavlinkSilent
        }
    }

    mutating func set(_ stream: SimulatorStream, silent: Bool) {
        switch stream {
        case .person: personSilent = silent
        case .onboard: onboardSilent = silent
        case .heading: headingSilent = silent
        case .navdata: navdataSilent = silent
        case .mavlink: mavlinkSilent = silent
        }
    }

    /// The faults as one JSON object.
    public var json: String {
        var j = JSONLine()
        j.add("person_silent", personSilent)
        j.add("onboard_silent", onboardSilent)
        j.add("heading_silent", headingSilent)
        j.add("navdata_silent", navdataSilent)
        j.add("person_jump_pending", pendingPersonJump != nil)
        j.add("person_time_back_pending", pendingPersonTimeBackSeconds != nil)
        add([.personFixesSuppressed, .onboardFixesSuppressed, .headingsSuppressed, .navdataPacketsSuppressed,
             .personJumpsSent, .personTimeShiftsSent, .navdataInjected], to: &j)
        j.add("heading_glitches_pending", headingGlitch.remaining)
        add([.headingGlitchesSent], to: &j)
        j.add("heading_values_pending", headingValue.remaining)
        add([.headingValuesSent], to: &j)
        j.add("heading_offset_deg", headingOffsetDegrees)
        add([.headingsOffsetSent, .automaticLandings, .bootstrapFallbacks], to: &j)
        return j.string
    }

    /// Adds `counters` to `j` in this order, each under its raw value.
    private func add(_ counters: [Counter], to j: inout JSONLine) {
        for counter in counters { j.add(counter.rawValue, counts[counter]) }
    }
}

/// Heading reports a fault still has to change (`heading-glitch`, `heading-value`), and by how much.
public struct PendingHeadingChange: Sendable, Hashable {
    /// Reports still to change; 0 = none.
    public var remaining = 0
    /// Degrees: the rotation of a glitch, or the heading a `heading-value` sends.
    public var degrees = 0.0

    /// `degrees` for the next report if one is still to change (counting it off), else nil.
    mutating func take() -> Double? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return degrees
    }
}
