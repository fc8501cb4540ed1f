import FollowCore

/// Everything the after-flight page shows, as time series on one clock (seconds since the flight
/// started). Built from a flight log (FlightLog) or a bench run (FollowBench); rendered by
/// `FlightReportPage`. Pure values: no file, clock or socket.
///
/// Every series is optional data: an empty array is drawn as "no data" (a bench run has no fix
/// ages; a dry run has no PCMD). Times are seconds on the timeline's clock, 0 = the first record.
public struct FlightTimeline: Sendable, Hashable {
    /// One value at one time, seconds since the start: a chart's `Sample` or a track's `TrackPoint`.
    public struct Timed<Value: Sendable & Hashable>: Sendable, Hashable {
        public var t: Double
        public var value: Value

        public init(t: Double, value: Value) {
            self.t = t
            self.value = value
        }
    }

    /// One number at one time.
    public typealias Sample = Timed<Double>
    /// One position on the flight's local plane (metres east/north of its origin, `LocalPlane`).
    public typealias TrackPoint = Timed<PlaneVector>

    /// One flight state from `startSeconds` until `endSeconds` (the next transition, or the end).
    public struct StateSpan: Sendable, Hashable {
        public var startSeconds: Double
        public var endSeconds: Double
        /// The state's name as the flight log writes it: `following`, `holding(target-stale)`, …
        public var state: String
        /// Why it was entered (the transition's reason: `hold:target-stale`, `land:shutdown`, …).
        public var reason: String

        public var durationSeconds: Double { max(0, endSeconds - startSeconds) }
        /// What the state is, for its colour: `StateBandKind(stateName:)`.
        public var kind: StateBandKind { StateBandKind(stateName: state) }
        /// The part in parentheses: `target-stale` for `holding(target-stale)`; nil without one.
        public var detail: String? {
            guard let open = state.firstIndex(of: "("), state.hasSuffix(")") else { return nil }
            return String(state[state.index(after: open)..<state.index(before: state.endIndex)])
        }
    }

    /// A moment worth marking on every chart (SIGTERM, navdata lost, …).
    public struct Marker: Sendable, Hashable {
        public var t: Double
        public var label: String
    }

    /// The scored numbers, as the source scores them (the flight log's `FlightLogReport`, the
    /// bench's `BenchMetrics`): the page shows them, it does not recompute them.
    public struct Scores: Sendable, Hashable {
        /// RMS of |distance − standoff| while following (after the source's settling), metres.
        public var rmsStandoffErrorMeters: Double? = nil
        /// How many samples the RMS is over.
        public var rmsSamples: Int = 0
        /// The smallest person–drone distance while airborne, metres, and when (seconds).
        public var closestApproachMeters: Double? = nil
        public var closestApproachAtSeconds: Double? = nil
        /// Seconds spent in `following`.
        public var followingSeconds: Double? = nil
        /// One line saying how the numbers were measured (shown under the summary).
        public var method: String = ""
    }

    public var title: String = ""
    /// Lines under the title: source file, settings.
    public var notes: [String] = []
    /// The end of the time axis, seconds (the last record).
    public var endSeconds: Double = 0
    /// The source's own clock at the timeline's 0 (a flight log's first `t`, CLOCK_MONOTONIC seconds):
    /// what a recording's host times are taken against. Nil when unknown (a bench run).
    public var logStartSeconds: Double? = nil
    /// The standoff the flight aimed for, metres.
    public var standoffMeters: Double? = nil
    /// The configured minimum separation (the line nothing should cross), metres.
    public var minSeparationMeters: Double? = nil
    public var scores: Scores = Scores()
    /// The configuration the flight flew with, as `followme config check` prints it (the flight
    /// log's start record carries it); shown folded under the summary. Nil when unknown.
    public var configurationText: String? = nil
    public var states: [StateSpan] = []
    public var markers: [Marker] = []
    /// Positions on one local plane; the plan view draws them.
    public var personTrack: [TrackPoint] = []
    public var droneTrack: [TrackPoint] = []
    /// Horizontal person–drone distance, metres.
    public var distance: [Sample] = []
    /// The drone's altitude, metres.
    public var altitude: [Sample] = []
    /// Horizontal ground speeds, m/s.
    public var personSpeed: [Sample] = []
    public var droneSpeed: [Sample] = []
    /// Battery, percent.
    public var battery: [Sample] = []
    /// Seconds since the latest fix of the person's (target) and the drone's (onboard) receiver.
    public var targetFixAge: [Sample] = []
    public var onboardFixAge: [Sample] = []
    /// The progressive command sent, pilot fractions in [−1, 1] (0 while hovering).
    public var pcmdRoll: [Sample] = []
    public var pcmdPitch: [Sample] = []
    public var pcmdGaz: [Sample] = []
    public var pcmdYaw: [Sample] = []
    /// The wind failsafe's estimate while airborne, m/s (the flight log's `wind_mps`; empty in
    /// logs written before it existed).
    public var wind: [Sample] = []
    /// The ground speed full tilt holds against still air, c2·sin(max tilt), m/s: the wind at
    /// which the drone can no longer hold its ground. Nil when unknown.
    public var windAuthorityMetersPerSecond: Double? = nil
    /// What each receiver said of its own quality (error estimate, DOP, satellites) and when it had
    /// no fix; empty in logs without them and in bench runs.
    public var targetQuality = ReceiverQuality()
    public var onboardQuality = ReceiverQuality()
    /// The drone link's rates from its periodic statistics, and its navdata losses.
    public var linkRates = LinkRates()
}

/// Built across the module line (the bench's timeline) as `FlightTimeline { $0.title = … }`.
extension FlightTimeline: Configurable { public static var defaults: Self { Self() } }
extension FlightTimeline.Scores: Configurable { public static var defaults: Self { Self() } }

extension FlightTimeline.Timed where Value == PlaneVector {
    /// A track point at `t`, `plane` metres east/north of the plane's origin.
    public init(t: Double, plane: PlaneVector) { self.init(t: t, value: plane) }
    public var plane: PlaneVector { value }
}

extension FlightTimeline {
    /// A hold: its reason and how long it lasted.
    public struct Hold: Sendable, Hashable {
        public var startSeconds: Double
        public var durationSeconds: Double
        public var reason: String
    }

    /// The spans of a flight that starts in `preflight` at 0 and enters `state` at each transition's
    /// `t` (the timeline's clock, in order), the last one lasting until `endSeconds` (without
    /// transitions: preflight throughout); zero-length spans are left out but the last.
    public static func stateSpans(transitions: [(t: Double, state: String, reason: String)], endSeconds: Double) -> [StateSpan] {
        var spans: [StateSpan] = []
        var state = "preflight", reason = "start", since = 0.0
        for transition in transitions {
            spans.append(StateSpan(startSeconds: since, endSeconds: transition.t, state: state, reason: reason))
            (state, reason, since) = (transition.state, transition.reason, transition.t)
        }
        spans.append(StateSpan(startSeconds: since, endSeconds: endSeconds, state: state, reason: reason))
        return spans.filter { $0.durationSeconds > 0 || $0.endSeconds == endSeconds }
    }

    /// Every `holding(…)` span, in order.
    public var holds: [Hold] {
        states.filter { $0.kind == .holding }.map {
            Hold(startSeconds: $0.startSeconds, durationSeconds: $0.durationSeconds, reason: $0.detail ?? $0.reason)
        }
    }

    /// Why the drone landed: the last `landing(…)` state's reason (`shutdown`,
    /// `hold-expired:target-stale`, …); nil if it never landed under our control.
    public var landingReason: String? {
        states.last { $0.kind == .landing }.map { $0.detail ?? $0.reason }
    }

    /// The flight state at the end of the timeline.
    public var finalState: String? { states.last?.state }

    /// Seconds from the first take-off (or an adopted flight) to the end of the last airborne state.
    public var airborneSeconds: Double {
        states.filter(\.kind.isAirborne).reduce(0) { $0 + $1.durationSeconds }
    }

    /// First battery reading − last, percent points; nil with fewer than two readings.
    public var batteryUsedPercent: Double? {
        guard battery.count >= 2, let first = battery.first, let last = battery.last else { return nil }
        return first.value - last.value
    }
}

/// What a flight state is, for the coloured bands: its name up to the parenthesis.
public enum StateBandKind: String, Sendable, Hashable, CaseIterable {
    case preflight, takingOff = "taking-off", climbing, following, holding, landing, landed, emergency, released, other

    /// `holding(geofence)` → `.holding`; an unknown name → `.other`.
    public init(stateName: String) {
        let base = stateName.split(separator: "(", maxSplits: 1).first.map(String.init) ?? stateName
        self = StateBandKind(rawValue: base) ?? .other
    }

    /// Off the ground (or on its way up or down) under our control (`released`: someone else's).
    public var isAirborne: Bool { [.takingOff, .climbing, .following, .holding, .landing].contains(self) }
}
