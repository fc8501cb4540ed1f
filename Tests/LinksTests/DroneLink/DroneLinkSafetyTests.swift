@testable import ARDrone
@testable import Links
import Testing
import TestSupport

/// Never land a flying drone on connect; FTRIM and emergency toggles only in the right state.
@Suite("DroneLink safety rules (loopback UDP)")
struct DroneLinkSafetyTests {
    @Test("on connect the REF bit 9 follows what the first navdata says", arguments: [
        // (drone state, control state, drone is flying)
        (DronePeer.landedState.union([.flying, .navdataDemo]), ControlState.hovering, true),
        (DronePeer.landedState.union(.navdataDemo), ControlState.hovering, true),  // demo says hovering, FLY bit clear
        (DronePeer.landedState.union(.navdataDemo), ControlState.landed, false),
    ])
    func alreadyFlyingIsNotLanded(droneState: DroneState, controlState: ControlState, flying: Bool) async throws {
        // Given a drone that is already in the state above when the link starts (owner wants nothing)
        let peer = try await DronePeer.start(droneState: droneState, controlState: controlState, demoMode: true)
        let harness = try await LinkHarness.start(peer: peer)

        // When the link has sent a good number of ticks
        #expect(await eventually { peer.snapshot.datagrams.count >= 20 })
        await harness.shutdown()

        // Then every single REF kept bit 9 exactly when the drone was flying (never a land REF to a
        // flying drone), and nothing was sent before the first navdata
        let snapshot = peer.snapshot
        if flying {
            #expect(snapshot.checker.landREFCount == 0)
            #expect(snapshot.checker.flyREFCount == snapshot.checker.datagramCount)
        } else {
            #expect(snapshot.checker.flyREFCount == 0)
        }
        #expect(harness.recorder.connected?.droneWasFlying == flying)
        #expect(harness.recorder.connected?.desiredFlying == flying)
        let firstNavdataAt = try #require(snapshot.firstNavdataSentAt)
        #expect(snapshot.datagrams.allSatisfy { $0.receivedAt > firstNavdataAt })
        #expect(snapshot.checker.violations.isEmpty, "\(snapshot.checker.violations)")
    }

    @Test("FTRIM is refused while flying and sent while landed")
    func flatTrim() async throws {
        // Given a flying drone
        let flyingPeer = try await DronePeer.start(
            droneState: DronePeer.landedState.union([.flying, .navdataDemo]), controlState: .hovering, demoMode: true)
        let flying = try await LinkHarness.start(peer: flyingPeer)
        #expect(await eventually { flying.recorder.connected != nil })

        // When flat trim is requested, Then it is refused as not landed and no FTRIM goes out
        await #expect(throws: DroneLinkRefusal.self) { try await flying.link.requestFlatTrim() }
        do {
            try await flying.link.requestFlatTrim()
        } catch {
            guard case .notLanded = error else { Issue.record("unexpected refusal \(error)"); return }
        }
        let datagramsAfterRequest = flyingPeer.snapshot.datagrams.count
        #expect(await eventually { flyingPeer.snapshot.datagrams.count >= datagramsAfterRequest + 15 })
        await flying.shutdown()
        #expect(flyingPeer.snapshot.flatTrimsReceived == 0)

        // Given a landed drone, When flat trim is requested, Then FTRIM reaches the drone
        let landedPeer = try await DronePeer.start(
            droneState: DronePeer.landedState.union(.navdataDemo), controlState: .landed, demoMode: true)
        let landed = try await LinkHarness.start(peer: landedPeer)
        #expect(await eventually { landed.recorder.connected != nil })
        try await landed.link.requestFlatTrim()
        #expect(await eventually { landedPeer.snapshot.flatTrimsReceived >= 1 })
        await landed.shutdown()
        #expect(landedPeer.snapshot.checker.violations.isEmpty)
    }

    @Test("emergency toggle: refused without the emergency bit, held only until the bit clears")
    func emergencyToggle() async throws {
        // Given a healthy landed drone
        let peer = try await DronePeer.start(droneState: DronePeer.landedState.union(.navdataDemo), demoMode: true)
        let harness = try await LinkHarness.start(peer: peer)
        #expect(await eventually { harness.recorder.connected != nil })

        // When a reset is requested, Then it is refused (bit 8 would cut the motors)
        do {
            try await harness.link.requestEmergencyToggle()
            Issue.record("emergency toggle accepted on a healthy drone")
        } catch {
            guard case .notInEmergency = error else { Issue.record("unexpected refusal \(error)"); return }
        }

        // When the drone reports an emergency and a reset is requested
        peer.state.withLock { _ = $0.droneState.insert(.emergency) }
        #expect(await eventually { harness.recorder.navdata.last?.navdata.state.contains(.emergency) == true })
        try await harness.link.requestEmergencyToggle()

        // Then the drone sees bit 8 once, leaves emergency, and the link stops sending bit 8
        #expect(await eventually { !peer.snapshot.droneState.contains(.emergency) })
        #expect(await eventually { harness.recorder.navdata.last?.navdata.state.contains(.emergency) == false })
        let settled = peer.snapshot.datagrams.count
        #expect(await eventually { peer.snapshot.datagrams.count >= settled + 10 })
        await harness.shutdown()
        let snapshot = peer.snapshot
        #expect(snapshot.emergencyTogglesReceived == 1)
        let lastREFs = snapshot.datagrams[(settled + 2)...].flatMap(\.commands).compactMap { command -> REFInput? in
            if case .ref(let input) = command.command { input } else { nil }
        }
        #expect(!lastREFs.isEmpty)
        #expect(lastREFs.allSatisfy { !$0.togglesEmergency && !$0.requestsFlight })
        #expect(snapshot.checker.violations.isEmpty, "\(snapshot.checker.violations)")
    }
}
