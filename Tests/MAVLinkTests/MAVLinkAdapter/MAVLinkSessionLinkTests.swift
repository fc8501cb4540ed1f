@testable import FollowCore
import Foundation
@testable import MAVLink
import Testing


/// Heartbeat, finding the vehicle, message rates and counters (docs/mavlink.md §7.1).
@Suite("MAVLinkSession: heartbeat, vehicle, message rates")
struct MAVLinkSessionLinkTests {
    @Test("HEARTBEAT at start and every second: type GCS 6, autopilot INVALID 8, nothing else before a vehicle")
    func heartbeat() {
        var h = SessionHarness()
        h.run(3.05)
        #expect(h.heartbeats.count == 4)
        #expect(h.heartbeats.allSatisfy { $0.type.rawValue == 6 && $0.autopilot.rawValue == 8 && $0.mavlinkVersion == 3 })
        #expect(h.sent.count == 4)
    }

    @Test("the vehicle is the first non-GCS HEARTBEAT (with the configured system id); other systems are dropped and counted")
    func vehicleSelection() {
        var h = SessionHarness(SessionHarness.configuration(targetSystem: 2))
        // another ground station, then a vehicle with the wrong id
        h.receive(Heartbeat { $0.type = .init(.gcs); $0.autopilot = .init(.invalid) }, system: 200)
        h.receive(SessionHarness.heartbeat(), system: 1)
        #expect(h.session.vehicleTarget == nil)
        h.receive(SessionHarness.heartbeat(), system: 2, component: 1)
        #expect(h.session.vehicleTarget == MAVLinkTarget(system: 2, component: 1))
        #expect(h.events.contains { if case .connected(false, false, _) = $0 { true } else { false } })
        // a gimbal of the same system is not the autopilot
        h.receive(SessionHarness.position(), system: 2, component: 154)
        #expect(h.session.statistics.counts[.droppedUnexpectedSource] == 3)
        #expect(!h.events.contains { if case .telemetry = $0 { true } else { false } })
    }

    @Test("message rates: SET_MESSAGE_INTERVAL one at a time (33 and 30 at 100 ms, 1 and 245 at 500 ms); ACCEPTED → acknowledged, then complete")
    func messageIntervals() {
        var h = SessionHarness()
        h.receive(SessionHarness.heartbeat())
        var asked: [[Float]] = []
        for _ in 0..<4 {
            h.run(SessionHarness.tick)
            asked.append(Array(h.commands.last!.params.prefix(2)))
            #expect(h.commands.last!.command.rawValue == 511)
            h.ack()
        }
        #expect(asked == [[33, 100_000], [30, 100_000], [1, 500_000], [245, 500_000]])
        let acknowledged = h.events.compactMap { if case .configurationAcknowledged(let key, _, _, _) = $0 { key } else { nil } }
        #expect(acknowledged == ["interval:GLOBAL_POSITION_INT", "interval:ATTITUDE", "interval:SYS_STATUS", "interval:EXTENDED_SYS_STATE"])
        // complete once the GCS-failsafe parameters are read too
        #expect(h.lastComplete == nil)
        h.answerParameters()
        // (reported once no second vehicle spoke for 2 s, target_system being 0: docs/mavlink.md §7.7)
        h.run(2)
        #expect(h.events.contains { if case .configurationComplete(let failed, _) = $0 { failed.isEmpty } else { false } })
    }

    @Test("a refused message rate that is not seen fails (and is reported); one seen at its rate without an ACK counts as configured")
    func intervalRefusedOrSeen() {
        var h = SessionHarness()
        h.receive(SessionHarness.heartbeat())
        // GLOBAL_POSITION_INT arrives at 10 Hz on its own: configured without asking
        h.receive(SessionHarness.position())
        h.now = h.now.adding(seconds: 0.1)
        h.receive(SessionHarness.position())
        #expect(h.events.contains { if case .configurationAcknowledged("interval:GLOBAL_POSITION_INT", _, 0, _) = $0 { true } else { false } })
        // the other three are refused
        for _ in 0..<3 {
            h.receive(SessionHarness.heartbeat())
            h.run(SessionHarness.tick)
            h.ack(.unsupported)
        }
        let failed = h.events.compactMap { if case .configurationFailed(let key, _, let reason, _) = $0 { "\(key) \(reason)" } else { nil } }
        #expect(failed.count == 3 && failed.allSatisfy { $0.contains("UNSUPPORTED") })
        h.answerParameters()
        h.run(2)
        #expect(h.events.contains { if case .configurationComplete(let keys, _) = $0 { keys.count == 3 } else { false } })
        #expect(!h.commands.map(\.params[0]).contains(33))
    }

    @Test("garbage datagrams and bad checksums: never trap, counted as malformed; frames after them still read")
    func garbage() {
        var h = SessionHarness()
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            h.receive(bytes: (0..<random.nextInt(below: 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        var corrupted = SessionHarness.heartbeat().encoded(sequence: 0, systemID: 1, componentID: 1)
        corrupted[12] ^= 0xFF
        h.receive(bytes: corrupted)
        h.receive(bytes: [1, 2, 3], fromExpectedSource: false)
        h.receive(SessionHarness.heartbeat())
        #expect(h.session.vehicleTarget == MAVLinkTarget(system: 1, component: 1) || h.session.vehicleTarget != nil)
        #expect(h.session.statistics.counts[.droppedMalformed] >= 1)
        #expect(h.session.statistics.counts[.telemetryDatagramsRead] == 2_003)
        #expect(h.session.statistics.counts[.droppedUnexpectedSource] >= 1)
    }

    @Test("STATUSTEXT → .notice with its severity; GLOBAL_POSITION_INT → .telemetry (+ onboard events unless the receiver is the source)",
          arguments: [MAVLinkLinkConfiguration.PositionSource.autopilot, .receiver])
    func events(source: MAVLinkLinkConfiguration.PositionSource) {
        var h = SessionHarness(SessionHarness.configuration(positionSource: source))
        h.receive(SessionHarness.heartbeat())
        h.receive(StatusText { $0.severity = .init(.warning); $0.text = MAVLinkText(bytes: Array("PreArm: GPS".utf8)) })
        h.receive(SessionHarness.position())
        #expect(h.events.contains { if case .notice("PreArm: GPS", 4, _) = $0 { true } else { false } })
        #expect(h.events.contains { if case .telemetry = $0 { true } else { false } })
        let onboard = h.events.filter { if case .onboard = $0 { true } else { false } }.count
        #expect(onboard == (source == .autopilot ? 2 : 0))
    }
}
