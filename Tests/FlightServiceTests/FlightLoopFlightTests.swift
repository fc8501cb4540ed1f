@testable import FollowCore
@testable import FlightService
@testable import FlightRecords
import Foundation
import Testing

/// The flight glue in-process: `FlightLoop` against a fake link with scripted telemetry
/// (FlightRig.swift). What the subprocess suites (followmeTests: FaultInjection, CLI) check through
/// `followme run`, here without gpsd, sockets or a clock.
@Suite("Flight loop in-process: a fake link, scripted telemetry, invented times")
struct FlightLoopFlightTests {
    @Test("take-off → follow → target stale → hold → land, each step confirmed by telemetry")
    func takeOffFollowHoldLand() throws {
        // Given a loop whose link connected to a landed drone, every source live
        var rig = try FlightRig()
        rig.start()

        // When everything is fresh long enough, it takes off and follows
        #expect(rig.run(within: 30) { $0.state == .following }, "states: \(rig.states)")
        #expect(Array(rig.flightStates.prefix(3)) == ["taking-off", "climbing", "following"])
        #expect(rig.link.latest?.flying == true)
        #expect(rig.link.latestPilot != nil, "following sends pilot fractions, not hover")

        // When the person's receiver goes silent
        rig.sendsTarget = false
        #expect(rig.run(within: 10) { $0.state == .holding(.targetStale) }, "states: \(rig.states)")
        // Then it holds, still flying (REF bit 9 kept) …
        #expect(rig.link.latest?.flying == true)
        // … and, the hold expiring, lands; the firmware confirms it and the loop calls it landed
        #expect(rig.run(within: 60) { $0.state == .landed }, "states: \(rig.states)")
        #expect(rig.states.contains { $0.hasPrefix("landing") })
        #expect(rig.link.latest?.flying == false)
        #expect(rig.flightState == .landed)
        #expect(rig.outcome == nil, "no shutdown was asked: the flight goes on, landed")
    }

    @Test("no command reaches the link before the first telemetry (a flying drone is not landed on connect)")
    func nothingSentBeforeTelemetry() throws {
        // Given a loop that started and gets GPS but no telemetry yet
        var rig = try FlightRig()
        rig.sendsTelemetry = false
        rig.start()
        // When it ticks for a while
        rig.run(for: 3)
        // Then the link was never told anything (it keeps the REF bit 9 it adopted on connect)
        #expect(rig.link.sent.count == 0, "first: \(String(describing: rig.link.sent.first))")
        // And once telemetry arrives, it is
        rig.sendsTelemetry = true
        rig.run(for: 0.2)
        #expect(!rig.link.sent.isEmpty)
    }

    @Test("shutdown while following: land command at once, outcome only when telemetry says landed")
    func shutdownLandsConfirmedByTelemetry() throws {
        // Given a following drone
        var rig = try FlightRig()
        rig.start()
        try #require(rig.run(within: 30) { $0.state == .following })

        // When SIGTERM's equivalent arrives
        let sentBefore = rig.link.sent.count
        rig.send(.shutdown)

        // Then a land command goes out immediately, and the flight is not over yet
        let land = try #require(rig.link.sent.dropFirst(sentBefore).first)
        #expect(land == FakeDroneLink.Sent(command: LinkCommand(flying: false, land: true), immediately: true))
        #expect(rig.outcome == nil)
        // When the firmware lands the drone (telemetry: landing, then landed)
        #expect(rig.run(within: 10) { $0.outcome != nil })
        // Then the outcome is landed, reported only once telemetry said so
        #expect(rig.outcome == .landed)
        #expect(rig.flightState == .landed)
        #expect(rig.flightStates.last == "landed")
    }

    @Test("shutdown whose landing telemetry never confirms: landing-unconfirmed after the land timeout")
    func shutdownWithoutConfirmation() throws {
        // Given a following drone and a 2 s landing bound
        var options = FlightServiceOptions()
        options.landTimeoutSeconds = 2
        var rig = try FlightRig(options: options)
        rig.start()
        try #require(rig.run(within: 30) { $0.state == .following })

        // When shutdown is asked and telemetry stops (the link lost the drone)
        rig.sendsTelemetry = false
        rig.send(.shutdown)
        let asked = rig.now
        #expect(rig.run(within: 10) { $0.outcome != nil })

        // Then the loop gives up at the bound, unconfirmed
        #expect(rig.outcome == .landingUnconfirmed)
        #expect(abs(rig.now.seconds(since: asked) - 2) <= 0.1)
    }

    @Test("a dry run never flies: the link gets the adopted REF and hover, shutdown ends at once")
    func dryRunSendsOnlyHover() throws {
        // Given a dry run (followme run --no-takeoff) with everything fresh
        var options = FlightServiceOptions()
        options.noTakeoff = true
        var rig = try FlightRig(options: options)
        rig.start()
        // When the core decides to take off
        rig.run(for: 10)
        // Then every command the link got was "stay landed, hover" (the core's wish only logged)
        #expect(!rig.link.sent.isEmpty)
        #expect(rig.link.sent.allSatisfy { $0.command == .landed })
        #expect(rig.flightState == .landed)
        // And shutdown ends the run at once, landed (the drone never left the ground)
        rig.send(.shutdown)
        #expect(rig.outcome == .landed)
    }
}
