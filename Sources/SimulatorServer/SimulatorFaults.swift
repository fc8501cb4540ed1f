import Geometry
import ShellSupport
import TextFormats

/// Faults in force in a running simulator, and what they did so far.
public struct SimulatorFaults: Sendable, Hashable {
    public var personSilent = false
    public var onboardSilent = false
    public var headingSilent = false
    public var navdataSilent = false
    /// Added to the next person fix only, metres east/north.
    public var pendingPersonJump: PlaneVector?
    /// Subtracted from the next person fix's UTC time only, seconds.
    public var pendingPersonTimeBackSeconds: Double?
    /// Heading reports still to rotate by `headingGlitchDegrees` (`heading-glitch`).
    public var pendingHeadingGlitches = 0
    public var headingGlitchDegrees = 0.0
    /// Heading reports still to replace by `headingValueDegrees` (`heading-value`).
    public var pendingHeadingValues = 0
    public var headingValueDegrees = 0.0
    /// Added to every heading report (`heading-offset`), degrees; 0 = none.
    public var headingOffsetDegrees = 0.0

    /// Person fixes not sent while silent.
    public var personFixesSuppressed = 0
    /// Onboard fixes not sent while silent.
    public var onboardFixesSuppressed = 0
    /// HDT sentences not sent (onboard or heading silent).
    public var headingsSuppressed = 0
    /// Navdata packets not sent while silent.
    public var navdataPacketsSuppressed = 0
    public var personJumpsSent = 0
    public var personTimeShiftsSent = 0
    /// Bad navdata packets sent by `navdata-inject`.
    public var navdataInjected = 0
    /// Heading reports sent rotated by `heading-glitch`.
    public var headingGlitchesSent = 0
    /// Heading reports sent replaced by `heading-value`.
    public var headingValuesSent = 0
    /// Heading reports sent rotated by `heading-offset`.
    public var headingsOffsetSent = 0
    /// Landings started by the `land` command.
    public var automaticLandings = 0
    /// `navdata-bootstrap` commands carried out.
    public var bootstrapFallbacks = 0

    /// The heading the next report sends instead of `trueDegrees` (the receiver's heading), and
    /// counts what was applied: a `heading-value` replaces it; otherwise the offset and a glitch
    /// rotate it.
    mutating func takeHeading(trueDegrees: Double) -> Double {
        if pendingHeadingValues > 0 {
            pendingHeadingValues -= 1
            headingValuesSent += 1
            return headingValueDegrees
        }
        var degrees = trueDegrees + headingOffsetDegrees
        if headingOffsetDegrees != 0 { headingsOffsetSent += 1 }
        if pendingHeadingGlitches > 0 {
            pendingHeadingGlitches -= 1
            headingGlitchesSent += 1
            degrees += headingGlitchDegrees
        }
        return degrees
    }

    public init() {}

    /// Whether `stream` is silenced.
    public func isSilent(_ stream: SimulatorStream) -> Bool {
        switch stream {
        case .person: personSilent
        case .onboard: onboardSilent
        case .heading: headingSilent
        case .navdata: navdataSilent
        }
    }

    mutating func set(_ stream: SimulatorStream, silent: Bool) {
        switch stream {
        case .person: personSilent = silent
        case .onboard: onboardSilent = silent
        case .heading: headingSilent = silent
        case .navdata: navdataSilent = silent
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
        j.add("person_fixes_suppressed", personFixesSuppressed)
        j.add("onboard_fixes_suppressed", onboardFixesSuppressed)
        j.add("headings_suppressed", headingsSuppressed)
        j.add("navdata_suppressed", navdataPacketsSuppressed)
        j.add("person_jumps_sent", personJumpsSent)
        j.add("person_time_shifts_sent", personTimeShiftsSent)
        j.add("navdata_injected", navdataInjected)
        j.add("heading_glitches_pending", pendingHeadingGlitches)
        j.add("heading_glitches_sent", headingGlitchesSent)
        j.add("heading_values_pending", pendingHeadingValues)
        j.add("heading_values_sent", headingValuesSent)
        j.add("heading_offset_deg", headingOffsetDegrees)
        j.add("headings_offset_sent", headingsOffsetSent)
        j.add("automatic_landings", automaticLandings)
        j.add("bootstrap_fallbacks", bootstrapFallbacks)
        return j.string
    }
}
