@testable import FollowCore
@testable import MAVLink
import Testing

/// What keeps a released pilot in control once FollowMe's HEARTBEATs stop, and how long a dead FollowMe
/// leaves the vehicle alone (docs/mavlink.md §7.8): ArduCopter's FS_OPTIONS bit 4 and FS_GCS_TIMEOUT,
/// older PX4's COM_OBL_ACT; refused and named like FS_GCS_ENABLE; and the re-read cadence after a refusal.
@Suite("Leaving cleanly: FS_OPTIONS, FS_GCS_TIMEOUT, COM_OBL_ACT")
struct MAVLinkSessionLeavingTests {
    static func failure(_ key: String, in h: SessionHarness) -> (value: String, reason: String)? {
        let failures: [(value: String, reason: String)] = h.events.compactMap {
            if case .configurationFailed(key, let value, let reason, _) = $0 { (value: value, reason: reason) } else { nil }
        }
        return failures.last
    }

    static func px4OnGround() -> SessionHarness {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.vehicle = (SessionHarness.heartbeat(.px4, mode: PX4Mode(mainMode: 3).customMode), SessionHarness.landed(.onGround),
                     SessionHarness.position())
        h.vehicleSays()
        for _ in 0..<4 { h.run(SessionHarness.tick); h.ack() }
        return h
    }

    @Test("FS_OPTIONS without bit 4 is refused, naming the value to set (bit 4 added to what is there)",
          arguments: [(options: Float(0), set: "16"), (8, "24"), (3, "19")])
    func fsOptionsWithoutBit4(options: Float, set: String) throws {
        // Given an ArduCopter whose GCS failsafe lands and watches FollowMe
        var h = SessionHarness.onGroundRatesAnswered()
        #expect(h.parameterReads.contains("FS_OPTIONS") && h.parameterReads.contains("FS_GCS_TIMEOUT"))
        // When FS_OPTIONS lacks "continue if in pilot controlled modes on GCS failsafe"
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "FS_OPTIONS": options])
        h.run(2.5)
        // Then the configuration fails on FS_OPTIONS, and the reason says what to set
        let failure = try #require(Self.failure("FS_OPTIONS", in: h), "\(h.events)")
        #expect(failure.value == String(Int(options)))
        #expect(failure.reason.contains("set FS_OPTIONS to \(set)"), "\(failure.reason)")
        #expect(h.lastComplete == ["FS_OPTIONS"])
    }

    @Test("FS_OPTIONS with bit 4 (16, ArduCopter's default; 24 with continue-landing) passes", arguments: [Float(16), 24, 19])
    func fsOptionsWithBit4(options: Float) {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "FS_OPTIONS": options])
        h.run(2.5)
        #expect(h.failedKeys.isEmpty, "\(h.failedKeys)")
        #expect(h.lastComplete == [])
    }

    @Test("FS_OPTIONS never answered: refused after its reads, named")
    func fsOptionsUnanswered() throws {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "FS_OPTIONS": .nan])
        h.run(6)
        let failure = try #require(Self.failure("FS_OPTIONS", in: h))
        #expect(failure.value == "unanswered")
        #expect(failure.reason.contains("FS_OPTIONS bit 4"))
        #expect(h.lastComplete == ["FS_OPTIONS"])
    }

    @Test("FS_GCS_TIMEOUT above 5 s is refused, naming the bound; 2–5 s and absent (a fixed 5 s) pass",
          arguments: [(timeout: Float(120), refused: true), (5.5, true), (5, false), (2, false), (.nan, false)])
    func fsGCSTimeout(timeout: Float, refused: Bool) throws {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 245, "FS_GCS_TIMEOUT": timeout])
        h.run(6)
        if refused {
            let failure = try #require(Self.failure("FS_GCS_TIMEOUT", in: h), "\(h.events)")
            #expect(failure.value == (timeout == 120 ? "120" : "5.5"))
            #expect(failure.reason.contains("set FS_GCS_TIMEOUT to at most 5"), "\(failure.reason)")
            #expect(h.lastComplete == ["FS_GCS_TIMEOUT"])
        } else {
            #expect(h.failedKeys.isEmpty, "\(h.failedKeys)")
            #expect(h.lastComplete == [])
        }
    }

    @Test("PX4 COM_OBL_ACT (older PX4, no RC): 0 Land and 2 Return pass; -1 Disabled, 1 Hold, 3 Terminate, 4 Lockdown are refused",
          arguments: [(Float(0), false), (2, false), (-1, true), (1, true), (3, true), (4, true)])
    func px4OffboardLossWithoutRC(action: Float, refused: Bool) throws {
        var h = Self.px4OnGround()
        #expect(h.parameterReads.contains("COM_OBL_ACT"))
        h.answerParameters(["COM_OBL_RC_ACT": 4, "COM_OF_LOSS_T": 1, "COM_OBL_ACT": action], px4: true)
        h.run(2.5)   // the 2 s vehicle-discovery window (target_system 0)
        if refused {
            let failure = try #require(Self.failure("COM_OBL_ACT", in: h), "\(h.events)")
            #expect(failure.value == String(Int(action)))
            #expect(failure.reason.contains("set COM_OBL_ACT to 0 (Land) or 2 (Return)"))
            #expect(h.lastComplete == ["COM_OBL_ACT"])
        } else {
            #expect(h.failedKeys.isEmpty, "\(h.failedKeys)")
            #expect(h.lastComplete == [])
        }
    }

    @Test("a PX4 without COM_OBL_ACT (newer PX4): read once, not refused, complete after the first timeout")
    func px4WithoutOffboardLossAction() {
        var h = Self.px4OnGround()
        h.answerParameters(["COM_OBL_RC_ACT": 4, "COM_OF_LOSS_T": 1, "COM_OBL_ACT": .nan], px4: true)
        h.run(2.5)   // the 2 s vehicle-discovery window (target_system 0); the one read's timeout is 1 s
        #expect(h.failedKeys.isEmpty, "\(h.failedKeys)")
        #expect(h.lastComplete == [])
        #expect(h.parameterReads.filter { $0 == "COM_OBL_ACT" }.count == 1)
    }

    @Test("after a refusal the parameters are read again every 2 s from one round's start to the next, absent names included")
    func rereadCadence() {
        // Given an ArduCopter refused for FS_GCS_ENABLE 0, one of whose names is absent (FS_GCS_TIMEOUT: an
        // older firmware), answering each PARAM_REQUEST_READ once, at once
        var h = SessionHarness.onGroundRatesAnswered()
        let values: [String: Float] = ["FS_GCS_ENABLE": 0, "MAV_GCS_SYSID": 245, "FS_GCS_TIMEOUT": .nan, "FS_OPTIONS": 16,
                                       "WPNAV_ACCEL": 250, "PSC_JERK_XY": 5]
        var answered = 0
        func answerNewReads(_ h: inout SessionHarness) {
            let reads = h.parameterReads
            for name in reads[answered...] {
                guard let value = values[name], !value.isNaN else { continue }
                var answer = ParamValue()
                answer.value = value
                answer.count = 900
                answer.parameterID = MAVLinkText(name)
                answer.type = 9
                h.receive(answer)
            }
            answered = reads.count
        }
        answerNewReads(&h)
        // When 20 s pass
        var rounds: [Double] = []
        var seen = h.parameterReads.filter { $0 == "FS_GCS_ENABLE" }.count
        let start = h.now
        while h.now.seconds(since: start) < 20 {
            h.run(SessionHarness.tick)
            answerNewReads(&h)
            let count = h.parameterReads.filter { $0 == "FS_GCS_ENABLE" }.count
            if count > seen { rounds.append(h.now.seconds(since: start)) }
            seen = count
        }
        // Then FS_GCS_ENABLE is asked once per round, each round 2 s after the one before (the old session:
        // 2 s after the absent name's fifth unanswered read, 7 s apart), the absent name once per round
        let gaps = zip(rounds.dropFirst(), rounds).map { $0 - $1 }
        #expect(rounds.count >= 6, "\(rounds)")
        #expect(gaps.allSatisfy { abs($0 - MAVLinkSession.parameterRereadSeconds) < 0.1 }, "\(gaps)")
        let timeoutReads = h.parameterReads.filter { $0 == "FS_GCS_TIMEOUT" }.count
        #expect(timeoutReads <= 5 + rounds.count, "\(timeoutReads) reads of the absent FS_GCS_TIMEOUT in \(rounds.count) rounds")
        // And the refusal is reported once, not again each round
        #expect(h.failedKeys == ["FS_GCS_ENABLE"], "\(h.failedKeys)")
    }
}
