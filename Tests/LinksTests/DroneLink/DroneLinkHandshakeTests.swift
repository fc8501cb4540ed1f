@testable import ARDrone
@testable import Links
import Testing
import TestSupport

/// Bootstrap and configuration over real UDP on 127.0.0.1 against `DronePeer`.
@Suite("DroneLink handshake and configuration (loopback UDP)")
struct DroneLinkHandshakeTests {
    @Test("bootstrap: trigger, navdata_demo CONFIG after CONFIG_IDS, ACK bit 6, CTRL 5 until it clears")
    func bootstrapHandshake() async throws {
        // Given a drone in bootstrap mode that streams navdata once triggered
        let peer = try await DronePeer.start(droneState: DronePeer.landedState.union(.navdataBootstrap))
        let harness = try await LinkHarness.start(peer: peer)

        // When the link runs until the drone has acknowledged navdata_demo, sends demo packets and
        // the link has moved on to the next write (so the ACK bit was reset)
        let acknowledged = await eventually {
            harness.recorder.acknowledged.contains { $0.write == .navdataDemo }
                && harness.recorder.navdata.contains { $0.navdata.demo != nil }
                && peer.snapshot.receivedConfigurations.count >= 2
        }
        await harness.shutdown()
        #expect(acknowledged)

        // Then the trigger came first, 01 00 00 00 to the navdata port
        let snapshot = peer.snapshot
        #expect(snapshot.triggers.count >= 1)
        let firstNavdataAt = try #require(snapshot.firstNavdataSentAt)
        let firstDatagram = try #require(snapshot.datagrams.first)
        #expect(snapshot.triggers[0] < firstNavdataAt)
        // and no AT command was sent before the first navdata
        #expect(firstDatagram.receivedAt > firstNavdataAt)

        // and navdata_demo = TRUE went out in a datagram, right after CONFIG_IDS
        let datagrams = snapshot.datagrams
        let configIndex = try #require(datagrams.firstIndex { datagram in
            datagram.commands.contains { $0.command == .config(key: "general:navdata_demo", value: "TRUE") }
        })
        let configDatagram = datagrams[configIndex].commands
        let configPosition = try #require(configDatagram.firstIndex { $0.command.configKey == "general:navdata_demo" })
        #expect(configPosition > 0)
        if configPosition > 0 {
            let ids = configDatagram[configPosition - 1]
            #expect(ids.command == .configIDs(sessionID: "00000000", userID: "00000000", applicationID: "00000000"))
            #expect(ids.sequenceNumber + 1 == configDatagram[configPosition].sequenceNumber)
        }
        // and the drone was in bootstrap when it arrived
        #expect(datagrams[configIndex].stateBefore.contains(.navdataBootstrap))

        // and after the ACK (bit 6 set at the peer) the link sent CTRL 5 while it was set
        let ctrlAfterACK = datagrams[(configIndex + 1)...].contains { datagram in
            datagram.stateBefore.contains(.commandAcknowledged)
                && datagram.commands.contains { $0.command == .ctrl(.acknowledgeCommand) }
        }
        #expect(ctrlAfterACK)
        // and the ACK was observed after exactly one attempt
        #expect(harness.recorder.acknowledged.first { $0.write == .navdataDemo }?.attempts == 1)
        #expect(snapshot.checker.violations.isEmpty, "\(snapshot.checker.violations)")
    }

    @Test("config ACK and retry: the drone ignores the first CONFIG, the link re-sends and it is acknowledged")
    func configRetry() async throws {
        // Given a drone that ignores the first CONFIG it receives
        let peer = try await DronePeer.start()
        peer.state.withLock { $0.configurationsToIgnore = 1 }
        let harness = try await LinkHarness.start(peer: peer, configAcknowledgementTimeoutSeconds: 0.5)

        // When the link waits past the ACK timeout
        let acknowledged = await eventually {
            harness.recorder.acknowledged.contains { $0.write == .navdataDemo }
        }
        let statistics = await harness.statistics()
        await harness.shutdown()

        // Then navdata_demo was sent twice and acknowledged on the second attempt
        #expect(acknowledged)
        let sent = peer.snapshot.receivedConfigurations.filter { $0.key == "general:navdata_demo" }
        #expect(sent.count == 2)
        #expect(harness.recorder.acknowledged.first { $0.write == .navdataDemo }?.attempts == 2)
        #expect(statistics.counts[.configurationRetries] >= 1)
        #expect(harness.recorder.failed.isEmpty)
        #expect(peer.snapshot.checker.violations.isEmpty, "\(peer.snapshot.checker.violations)")
    }

    @Test("config give-up: a key never acknowledged fails after N attempts and the rest still gets written")
    func configGivesUp() async throws {
        // Given a drone that never acknowledges control:control_yaw
        let peer = try await DronePeer.start()
        peer.state.withLock { $0.ignoredKeys = ["control:control_yaw"] }
        let harness = try await LinkHarness.start(peer: peer, configAcknowledgementTimeoutSeconds: 0.3,
                                                  configMaxAttempts: 2)

        // When the link works through the start-up writes
        let done = await eventually {
            harness.recorder.acknowledged.contains { $0.write.key == "control:altitude_max" }
        }
        let statistics = await harness.statistics()
        await harness.shutdown()

        // Then control_yaw failed after 2 attempts, reported as an event, and altitude_max still followed
        #expect(done)
        let failures = harness.recorder.failed
        #expect(failures.count == 1)
        #expect(failures.first?.write.key == "control:control_yaw")
        #expect(failures.first?.reason == .notAcknowledged(attempts: 2))
        #expect(peer.snapshot.receivedConfigurations.filter { $0.key == "control:control_yaw" }.count == 2)
        #expect(statistics.counts[.configurationFailures] == 1)
    }

    @Test("flight limits are written one at a time, outdoor first, with SDK value formats")
    func limitsOrder() async throws {
        // Given a drone that acknowledges every CONFIG
        let peer = try await DronePeer.start()
        let harness = try await LinkHarness.start(peer: peer)

        // When every start-up write has been acknowledged
        let done = await eventually {
            harness.recorder.acknowledged.count == 7
        }
        await harness.shutdown()
        #expect(done)

        // Then the drone saw them in this order with these strings (booleans TRUE/FALSE, ints %d,
        // floats %f of the float32 value: 20° = 0.349066 rad, 120°/s = 2.094395 rad/s)
        let applied = peer.snapshot.appliedConfigurations
        #expect(applied.map(\.key) == [
            "general:navdata_demo", "control:outdoor", "control:flight_without_shell",
            "control:euler_angle_max", "control:control_vz_max", "control:control_yaw", "control:altitude_max",
        ])
        #expect(applied.map(\.value) == ["TRUE", "TRUE", "TRUE", "0.349066", "700.000000", "2.094395", "10000"])
        // and none was sent while the previous ACK bit was still set (one at a time)
        #expect(peer.snapshot.configurationsWhileAcknowledgeBitSet == 0)
        // and each CONFIG is directly preceded by CONFIG_IDS
        let commands = peer.commands
        for (index, command) in commands.enumerated() where command.command.configKey != nil {
            guard index > 0, case .configIDs = commands[index - 1].command else {
                Issue.record("CONFIG \(command) not preceded by CONFIG_IDS")
                continue
            }
        }
        #expect(harness.recorder.acknowledged.allSatisfy { $0.attempts == 1 })
    }
}
