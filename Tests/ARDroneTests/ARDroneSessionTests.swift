@testable import ARDrone
@testable import FollowCore
import Testing

/// The link's decisions without sockets or a clock: time is an argument.
@Suite("ARDroneSession (pure state machine)")
struct ARDroneSessionTests {
    /// The flight limits every fixture writes.
    static let testLimits: FlightLimits = try! FlightLimits(
        outdoor: true, flightWithoutShell: true, eulerAngleMaxRadians: 20 * Double.pi / 180,
        controlVzMaxMillimetersPerSecond: 700, controlYawRadiansPerSecond: 120 * Double.pi / 180,
        altitudeMaxMillimeters: 10_000)

    struct Fixture {
        var core: ARDroneSession
        var effects = DroneLinkEffects()
        var datagram: [UInt8] = []
        var now = MonotonicTime(seconds: 100)

        init(limits: FlightLimits = ARDroneSessionTests.testLimits, ackTimeout: Double = 0.5, attempts: Int = 3) {
            let configuration = try! DroneLinkConfiguration(
                configAcknowledgementTimeoutSeconds: ackTimeout, configMaxAttempts: attempts, limits: limits)
            core = ARDroneSession(configuration: configuration)
            core.start(now: now, effects: &effects)
        }

        /// Advances time and ticks; returns the decoded commands (empty if nothing was sent).
        mutating func tick(after seconds: Double = 0.03) -> [ATCommand] {
            now = now.adding(seconds: seconds)
            effects.reset()
            guard core.tick(now: now, datagram: &datagram, effects: &effects) else { return [] }
            return ((try? ATDecoder.decode(datagram)) ?? []).map(\.command)
        }

        @discardableResult
        mutating func receive(_ navdata: Navdata, fromDrone: Bool = true)
            -> NavdataDropReason?
        {
            effects.reset()
            let bytes = try! navdata.encoded()
            return bytes.withUnsafeBytes { core.receiveNavdata($0, fromDrone: fromDrone, now: now, effects: &effects) }
        }
    }

    static func packet(_ sequence: UInt32, _ state: DroneState = [.navdataDemo], control: ControlState = .landed) -> Navdata {
        .demoPacket(state: state, sequenceNumber: sequence, demo: NavdataDemo(controlState: control, batteryPercent: 70))
    }

    @Test("no AT datagram before the first navdata; then REF+PCMD every tick")
    func holdsUntilNavdata() {
        var fixture = Fixture()
        #expect(fixture.effects.sendNavdataTrigger)
        #expect(fixture.tick().isEmpty)
        fixture.receive(Self.packet(1))
        let commands = fixture.tick()
        #expect(commands.first == .ref(.land))
        #expect(commands.dropFirst().first == .pcmd(.hover))
    }

    @Test("sequence rule", arguments: [
        // (last accepted, next, accepted?)
        (UInt32(100), UInt32(101), true),
        (100, 100, false),
        (100, 99, false),
        (5000, 1, true),          // drone restart
        (5000, 200, true),        // restart with a few packets missed
        (5000, 201, false),       // not a small number
        (300, 50, true),          // 250 back to a small number
        (150, 1, false),          // too close to tell from reordering
    ])
    func sequenceRule(last: UInt32, next: UInt32, accepted: Bool) {
        var fixture = Fixture()
        #expect(fixture.receive(Self.packet(last)) == nil)
        let reason = fixture.receive(Self.packet(next))
        #expect((reason == nil) == accepted)
        if !accepted { #expect(reason == .sequenceNotIncreasing) }
    }

    @Test("a datagram not from the drone's navdata address and port is dropped before decoding")
    func sourceCheck() throws {
        var fixture = Fixture()
        #expect(fixture.receive(Self.packet(1), fromDrone: false) == .unexpectedSource)
        #expect(fixture.receive(Self.packet(2), fromDrone: false) == .unexpectedSource)
        #expect(!fixture.core.isConnected)
        #expect(fixture.core.statistics.counts[.droppedUnexpectedSource] == 2)
    }

    @Test("config handshake: CTRL 5 clears a stale ACK first, CONFIG waits for bit 6, retries, then gives up")
    func configurationStateMachine() {
        // Given a drone whose ACK bit is still set from an earlier client
        var fixture = Fixture(ackTimeout: 0.1, attempts: 2)
        fixture.receive(Self.packet(1, [.navdataDemo, .commandAcknowledged]))
        // When ticking, Then only CTRL 5 goes out (no CONFIG while bit 6 is set)
        var commands = fixture.tick()
        #expect(commands.contains(.ctrl(.acknowledgeCommand)))
        #expect(!commands.contains { $0.configKey != nil })
        // When the bit clears, Then CONFIG_IDS + navdata_demo go out
        fixture.receive(Self.packet(2))
        commands = fixture.tick()
        #expect(commands.suffix(2) == [
            .configIDs(sessionID: "00000000", userID: "00000000", applicationID: "00000000"),
            .config(key: "general:navdata_demo", value: "TRUE"),
        ])
        // When no ACK comes within the timeout, Then it is re-sent once
        #expect(!fixture.tick(after: 0.05).contains { $0.configKey != nil })
        #expect(fixture.tick(after: 0.06).contains { $0.configKey == "general:navdata_demo" })
        // When the ACK arrives, Then it is reported with 2 attempts and CTRL 5 follows
        fixture.receive(Self.packet(3, [.navdataDemo, .commandAcknowledged]))
        guard case .configurationAcknowledged(.navdataDemo, 2, _) = fixture.effects.events.first else {
            Issue.record("expected ACK event, got \(fixture.effects.events)")
            return
        }
        #expect(fixture.tick().contains(.ctrl(.acknowledgeCommand)))
        // When bit 6 clears, Then the next key (control:outdoor) is sent; with no ACK it fails after 2 attempts
        fixture.receive(Self.packet(4))
        #expect(fixture.tick().contains(.config(key: "control:outdoor", value: "TRUE")))
        #expect(fixture.tick(after: 0.11).contains(.config(key: "control:outdoor", value: "TRUE")))
        _ = fixture.tick(after: 0.11)
        let failed = fixture.effects.events.contains {
            if case .configurationFailed(let write, .notAcknowledged(2), _) = $0 { write.key == "control:outdoor" } else { false }
        }
        #expect(failed)
        #expect(fixture.core.statistics.counts[.configurationFailures] == 1)
    }

    @Test("silence: lost exactly at the threshold, trigger every threshold, PCMD hover; restored on return")
    func silence() {
        var fixture = Fixture()
        fixture.receive(Self.packet(1))
        fixture.core.setDesired(flying: false, pilot: ProgressiveCommand(pitchFraction: -0.5), heading: nil)
        let receivedAt = fixture.now
        _ = fixture.tick(after: 0.99)
        #expect(!fixture.effects.events.contains { if case .telemetryLost = $0 { true } else { false } })
        let commands = fixture.tick(after: 0.01)
        #expect(fixture.effects.events.contains { if case .telemetryLost(receivedAt, _) = $0 { true } else { false } })
        #expect(fixture.effects.sendNavdataTrigger)
        #expect(commands.contains(.pcmd(.hover)))
        _ = fixture.tick(after: 0.5)
        #expect(!fixture.effects.sendNavdataTrigger)
        _ = fixture.tick(after: 0.5)
        #expect(fixture.effects.sendNavdataTrigger)
        #expect(fixture.core.statistics.counts[.navdataTriggersSent] == 3)
        // A restarted drone counts from 1 again: accepted because the expectation was reset on loss
        fixture.receive(Self.packet(1))
        #expect(fixture.effects.events.contains { if case .navdataRestored = $0 { true } else { false } })
    }

    @Test("emergency: desired flying is cleared, REF bit 9 masked, and bit 8 only after a reset request")
    func emergency() {
        var fixture = Fixture()
        fixture.receive(Self.packet(1, [.navdataDemo, .flying], control: .hovering))
        #expect(fixture.core.desiredFlying)
        #expect(fixture.tick().first == .ref(.takeoff))
        fixture.receive(Self.packet(2, [.navdataDemo, .emergency]))
        #expect(!fixture.core.desiredFlying)
        fixture.core.setDesired(flying: true, pilot: .hover, heading: nil)
        #expect(fixture.tick().first == .ref(.land))
        #expect(fixture.core.requestEmergencyReset().refusal == nil)
        #expect(fixture.tick().first == .ref(.emergencyToggle))
        fixture.receive(Self.packet(3, [.navdataDemo]))
        #expect(fixture.tick().first == .ref(.land))
    }

    @Test("emergency cutoff: bit 8 while bit 31 is clear, then released; refused if already in emergency")
    func cutoff() {
        var fixture = Fixture()
        fixture.receive(Self.packet(1, [.navdataDemo, .flying], control: .flying))
        #expect(fixture.core.requestEmergencyCutoff(now: fixture.now, effects: &fixture.effects).refusal == nil)
        #expect(fixture.tick().first == .ref(.emergencyToggle))
        fixture.receive(Self.packet(2, [.navdataDemo, .emergency]))
        #expect(fixture.tick().first == .ref(.land))
        #expect(fixture.core.requestEmergencyCutoff(now: fixture.now, effects: &fixture.effects).refusal == .alreadyInEmergency)
    }

    @Test("COMWDG once per navdata showing bit 30, never in bootstrap")
    func comWatchdog() {
        var fixture = Fixture()
        fixture.receive(.bootstrap(state: [.communicationWatchdog], sequenceNumber: 1))
        #expect(!fixture.tick().contains(.comwdg))
        fixture.receive(Self.packet(2, [.navdataDemo, .communicationWatchdog]))
        #expect(fixture.tick().first == .comwdg)
        #expect(!fixture.tick().contains(.comwdg))
    }

    @Test("float config values are formatted like C's %f of a float", arguments: [
        (Float(0.35), "0.350000"), (Float(700), "700.000000"), (Float(20 * Double.pi / 180), "0.349066"),
        (Float(6.11), "6.110000"), (Float(0), "0.000000"), (Float(-1.5), "-1.500000"), (Float(0.0000004), "0.000000"),
    ])
    func floatFormat(value: Float, expected: String) {
        #expect(ConfigurationValue.float(value) == expected)
    }

    @Test("flight limits outside their ranges are rejected with the field named")
    func limitValidation() {
        #expect(throws: DroneLinkConfigurationError.self) {
            _ = try FlightLimits(outdoor: true, eulerAngleMaxRadians: 0.6, controlVzMaxMillimetersPerSecond: 700,
                                 controlYawRadiansPerSecond: 2, altitudeMaxMillimeters: 3000)
        }
        do {
            _ = try FlightLimits(outdoor: true, eulerAngleMaxRadians: 0.3, controlVzMaxMillimetersPerSecond: 700,
                                 controlYawRadiansPerSecond: 2, altitudeMaxMillimeters: 200_000)
            Issue.record("accepted altitude 200 m")
        } catch {
            guard case .outOfRange(let field, _, _) = error else { Issue.record("\(error)"); return }
            #expect(field == "altitudeMaxMillimeters")
        }
        #expect(throws: DroneLinkConfigurationError.samePorts(port: 5556)) {
            _ = try DroneLinkConfiguration(atPort: 5556, navdataPort: 5556, limits: ARDroneSessionTests.testLimits)
        }
    }
}

extension Result where Success == Void {
    /// The failure, or nil on success (`Result<Void, _>` is not `Equatable`).
    var refusal: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}

extension ATCommand {
    /// The key a CONFIG command writes, nil for any other command.
    var configKey: String? {
        if case .config(let key, _) = self { key } else { nil }
    }
}
