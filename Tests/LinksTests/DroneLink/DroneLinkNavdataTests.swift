@testable import ARDrone
@testable import Links
import NIOCore
import Testing
import TestSupport

/// Navdata reception: silence, spoofing, sequence numbers, malformed packets (loopback UDP).
@Suite("DroneLink navdata reception (loopback UDP)")
struct DroneLinkNavdataTests {
    @Test("after 1 s of silence: lost event, trigger re-sent, PCMD hover; restored when navdata returns")
    func silenceRetriggerLostRestored() async throws {
        // Given a connected link steering with a progressive command
        let peer = try await DronePeer.start()
        let harness = try await LinkHarness.start(peer: peer)
        #expect(await eventually { harness.recorder.connected != nil })
        let steering = ProgressiveCommand(pitchFraction: -0.3)
        harness.link.setDesired(flying: false, pilot: steering)
        #expect(await eventually { peer.commands.contains { $0.command == .pcmd(steering) } })

        // When the drone goes silent and ignores triggers
        peer.state.withLock {
            $0.streaming = false
            $0.respondToTriggers = false
        }
        let triggersBefore = peer.snapshot.triggers.count
        let lost = await eventually(timeoutSeconds: 4) {
            harness.recorder.events.contains { if case .telemetryLost = $0 { true } else { false } }
        }
        // Then the link reports it lost and re-sends the trigger
        #expect(lost)
        #expect(await eventually(timeoutSeconds: 4) { peer.snapshot.triggers.count > triggersBefore })
        let lostAt = try #require(harness.recorder.timedEvents.first {
            if case .telemetryLost = $0.event { true } else { false }
        }?.at)
        // and every PCMD sent after the loss (plus one in-flight tick) is hover
        #expect(await eventually { peer.snapshot.datagrams.filter { $0.receivedAt > lostAt }.count >= 5 })
        let afterLoss = peer.snapshot.datagrams.filter { $0.receivedAt > lostAt }.dropFirst()
        #expect(afterLoss.allSatisfy { datagram in datagram.commands.contains { $0.command == .pcmd(.hover) } })

        // When the drone answers triggers again
        peer.state.withLock { $0.respondToTriggers = true }
        let restored = await eventually(timeoutSeconds: 4) {
            harness.recorder.events.contains { if case .navdataRestored = $0 { true } else { false } }
        }
        let statistics = await harness.statistics()
        await harness.shutdown()

        // Then navdata is reported restored, after at least the silence threshold
        #expect(restored)
        let silence = harness.recorder.events.compactMap {
            if case .navdataRestored(let seconds, _) = $0 { seconds } else { nil }
        }.first
        #expect((silence ?? 0) >= 1.0)
        #expect(statistics.counts[.navdataLosses] == 1)
        #expect(!statistics.telemetryLost)
        #expect(peer.snapshot.checker.violations.isEmpty, "\(peer.snapshot.checker.violations)")
    }

    @Test("navdata from another port on the same address is dropped and counted")
    func spoofedSourceIgnored() async throws {
        // Given a connected link and a spoofer on 127.0.0.1 (same address as the drone, other port)
        let peer = try await DronePeer.start()
        let harness = try await LinkHarness.start(peer: peer)
        let spoofer = try await Spoofer.start()
        #expect(await eventually { harness.recorder.navdata.count >= 3 })
        let linkAddress = try #require(peer.snapshot.linkNavdataAddress)

        // When the spoofer sends well-formed navdata claiming an emergency with a huge sequence number
        let spoofed = Navdata.demoPacket(
            state: DronePeer.landedState.union([.emergency, .flying]), sequenceNumber: 1_000_000,
            demo: NavdataDemo(controlState: .flying, batteryPercent: 5))
        for _ in 0..<3 { try await spoofer.send(try spoofed.encoded(), to: linkAddress) }
        let counted = await eventually { (await harness.statistics()).counts[.droppedUnexpectedSource] >= 3 }
        // and the real drone keeps streaming
        let acceptedBefore = await harness.statistics().counts[.navdataReceived]
        let stillAccepted = await eventually { (await harness.statistics()).counts[.navdataReceived] >= acceptedBefore + 3 }
        let statistics = await harness.statistics()
        await harness.shutdown()
        await spoofer.shutdown()

        // Then the spoofed packets were counted and never surfaced, and did not poison the sequence
        #expect(counted)
        #expect(statistics.counts[.droppedUnexpectedSource] == 3)
        #expect(stillAccepted)
        #expect(harness.recorder.navdata.allSatisfy { !$0.navdata.state.contains(.emergency) })
        #expect(!harness.recorder.events.contains { if case .desiredFlyingCleared = $0 { true } else { false } })
    }

    @Test("a sequence number going backwards is dropped; a restart to 1 is accepted")
    func sequenceNumbers() async throws {
        // Given a drone that does not stream on its own (the test sends each packet)
        let (peer, harness) = try await Self.quietDrone()

        // When packets arrive with sequence numbers 5000, 4000, 5000, 1, 2
        let sequence: [UInt32] = [5000, 4000, 5000, 1, 2]
        for (index, number) in sequence.enumerated() {
            peer.send(.bootstrap(state: DronePeer.landedState, sequenceNumber: number))
            #expect(await eventually { (await harness.statistics()).counts[.navdataDatagramsRead] == index + 1 })
        }
        let statistics = await harness.statistics()
        await harness.shutdown()

        // Then the backwards 4000 and the repeated 5000 were dropped, the restart at 1 accepted
        #expect(harness.recorder.navdata.map(\.navdata.sequenceNumber) == [5000, 1, 2])
        #expect(statistics.counts[.droppedSequenceNotIncreasing] == 2)
        #expect(statistics.counts[.sequenceRestarts] == 1)
        #expect(statistics.counts[.navdataReceived] == 3)
    }

    @Test("malformed navdata is dropped and counted by kind; valid navdata still flows")
    func malformedNavdata() async throws {
        // Given a drone that does not stream on its own
        let (peer, harness) = try await Self.quietDrone()
        var good = try Navdata.bootstrap(state: DronePeer.landedState, sequenceNumber: 10).encoded()
        var badChecksum = good
        badChecksum[badChecksum.count - 1] ^= 0xFF
        var badMagic = good
        badMagic[0] = 0x00

        // When a valid packet, three malformed ones and another valid one arrive
        let packets: [[UInt8]] = [good, [0x88, 0x77, 0x66, 0x55, 1, 2, 3], badChecksum, badMagic]
        for (index, bytes) in packets.enumerated() {
            peer.sendToLink(bytes)
            #expect(await eventually { (await harness.statistics()).counts[.navdataDatagramsRead] == index + 1 })
        }
        good = try Navdata.bootstrap(state: DronePeer.landedState, sequenceNumber: 11).encoded()
        peer.sendToLink(good)
        #expect(await eventually { (await harness.statistics()).counts[.navdataDatagramsRead] == 5 })
        let statistics = await harness.statistics()
        await harness.shutdown()

        // Then the three were dropped by kind and both valid packets accepted
        #expect(statistics.counts[.droppedMalformed] == 3)
        #expect(statistics.droppedMalformedByKind == [.packetTooShort: 1, .checksumMismatch: 1, .badMagic: 1])
        #expect(harness.recorder.navdata.map(\.navdata.sequenceNumber) == [10, 11])
    }
}

extension DroneLinkNavdataTests {
    /// A drone that sends navdata only when the test does (it ignores triggers), and a link to it
    /// that has sent its trigger.
    static func quietDrone() async throws -> (DronePeer, LinkHarness) {
        let peer = try await DronePeer.start()
        peer.state.withLock { $0.respondToTriggers = false }
        let harness = try await LinkHarness.start(peer: peer)
        #expect(await eventually { peer.snapshot.linkNavdataAddress != nil })
        return (peer, harness)
    }
}
