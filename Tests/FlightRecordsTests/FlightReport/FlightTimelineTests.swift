@testable import FlightRecords
@testable import FollowCore
import Testing

/// The timeline's derived facts: holds, landing reason, airborne time, battery used, state kinds.
@Suite("FlightTimeline")
struct FlightTimelineTests {
    typealias Span = FlightTimeline.StateSpan

    /// preflight 0–2, taking-off 2–4, following 4–10, holding(geofence) 10–12.5, following 12.5–20,
    /// holding(target-stale) 20–21, landing(hold-expired:target-stale) 21–25, landed 25–26.
    static let sample: FlightTimeline = {
        var t = FlightTimeline(title: "sample")
        t.endSeconds = 26
        t.states = [
            Span(startSeconds: 0, endSeconds: 2, state: "preflight(waiting: heading)", reason: "start"),
            Span(startSeconds: 2, endSeconds: 4, state: "taking-off", reason: "prerequisites-met"),
            Span(startSeconds: 4, endSeconds: 10, state: "following", reason: "altitude-reached"),
            Span(startSeconds: 10, endSeconds: 12.5, state: "holding(geofence)", reason: "hold:geofence"),
            Span(startSeconds: 12.5, endSeconds: 20, state: "following", reason: "data-fresh"),
            Span(startSeconds: 20, endSeconds: 21, state: "holding(target-stale)", reason: "hold:target-stale"),
            Span(startSeconds: 21, endSeconds: 25, state: "landing(hold-expired:target-stale)", reason: "land:hold-expired:target-stale"),
            Span(startSeconds: 25, endSeconds: 26, state: "landed", reason: "landed-confirmed"),
        ]
        t.battery = [.init(t: 0, value: 95), .init(t: 13, value: 93), .init(t: 26, value: 91.5)]
        return t
    }()

    @Test("a timeline keeps its title")
    func keepsTitle() {
        #expect(FlightTimeline(title: "flight").title == "flight")
    }

    @Test("holds come from the holding spans, with their reasons and durations")
    func holds() {
        #expect(Self.sample.holds == [
            .init(startSeconds: 10, durationSeconds: 2.5, reason: "geofence"),
            .init(startSeconds: 20, durationSeconds: 1, reason: "target-stale"),
        ])
    }

    @Test("landing reason, final state, airborne seconds, battery used")
    func derived() {
        #expect(Self.sample.landingReason == "hold-expired:target-stale")
        #expect(Self.sample.finalState == "landed")
        #expect(Self.sample.airborneSeconds == 23)
        #expect(Self.sample.batteryUsedPercent == 3.5)
        // A timeline without landing or battery says so with nil
        #expect(FlightTimeline(title: "x").landingReason == nil)
        #expect(FlightTimeline(title: "x", battery: [.init(t: 0, value: 50)]).batteryUsedPercent == nil)
    }

    @Test("state kinds from the flight log's state names", arguments: [
        ("preflight(waiting: heading,navdata)", StateBandKind.preflight), ("taking-off", .takingOff),
        ("climbing", .climbing), ("following", .following), ("holding(target-too-far)", .holding),
        ("landing(take-off-aborted:heading)", .landing), ("landed", .landed), ("emergency", .emergency),
        ("something-new", .other), ("", .other),
    ])
    func kinds(name: String, kind: StateBandKind) {
        #expect(StateBandKind(stateName: name) == kind)
    }
}
