@testable import FollowCore
@testable import MAVLink
import Testing


/// What ArduPilot's and PX4's source require of a ground station (docs/mavlink.md §7.7–§7.12), one
/// test or more per rule: take-off parameters, LAND confirmed by the HEARTBEAT, ids, which vehicle,
/// battery and state.
@Suite("MAVLinkSession: what ArduPilot and PX4 require of a ground station")
struct MAVLinkSessionAutopilotRulesTests {
    static let land9: [Float] = [1, 9]

    // MARK: 2. NAV_TAKEOFF parameters

    @Test("2. NAV_TAKEOFF: NaN for every parameter the autopilot does not use (PX4 reads finite p5/p6 as the take-off's lat/lon)",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func takeoffHere(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a configured vehicle that the owner wants flying, armed by us
        let control = SessionHarness.control(autopilot)
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.connectAndConfigure(control.heartbeat, mode: autopilot == .px4 ? PX4Mode(mainMode: 3).customMode : control.mode)
        h.fly(true)
        h.run(1.1)
        #expect(h.commandIDs.last == 400)
        h.ack()
        h.vehicleSays(armed: true)
        h.run(SessionHarness.tick)
        // When NAV_TAKEOFF goes out
        let takeoff = h.commands.last { $0.command.rawValue == 22 }
        #expect(takeoff != nil)
        guard let params = takeoff?.params else { return }
        // Then latitude and longitude (p5, p6) are NaN = here, never 0/0 (0° N 0° E); yaw (p4) NaN
        #expect(params[4].isNaN && params[5].isNaN, "\(params)")
        #expect(params[3].isNaN && params[0].isNaN && params[1].isNaN)
        // ArduCopter reads p3: 0 = the vehicle must hold its horizontal position itself
        if autopilot == .ardupilot { #expect(params[2] == 0) } else { #expect(params[2].isNaN) }
        #expect(params[6].isFinite)
    }

    // MARK: 6. ACKs and ids

    @Test("6. another station's ACK for DO_SET_MODE does not confirm our LAND: it is re-sent until our own ACK")
    func otherStationsAck() {
        // Given a vehicle flying in GUIDED, then the owner wants it down: LAND goes out
        var h = SessionHarness.landSent()
        #expect(h.commands.last.map { Array($0.params.prefix(2)) } == Self.land9)
        let sent = h.commands.count
        // When QGroundControl (255/190) gets an ACCEPTED for its own DO_SET_MODE (176, e.g. LOITER)
        h.receive(CommandAck { $0.command = .init(.doSetMode); $0.result = .init(.accepted); $0.target = MAVLinkTarget(system: 255, component: 190) })
        // Then our LAND is still unanswered and is sent again after the ACK timeout
        h.run(1.1)
        #expect(h.commands.count == sent + 1, "\(h.commandIDs)")
        #expect(h.commands.last?.confirmation == 1)
    }

    @Test("6. our LAND ACKed ACCEPTED but the HEARTBEAT never shows LAND: asked again; once it shows, never again")
    func landConfirmedByHeartbeat() {
        var h = SessionHarness.landSent()
        // When our LAND is acknowledged (addressed to us, 245/190) but the vehicle stays in GUIDED
        h.receive(CommandAck { $0.command = .init(.doSetMode); $0.result = .init(.accepted); $0.target = MAVLinkTarget(system: 245, component: 190) })
        h.clear()
        h.run(2)
        // Then LAND is asked again once the settle time has passed
        #expect(h.commands.filter { Array($0.params.prefix(2)) == Self.land9 }.count == 1, "\(h.commandIDs)")
        // and once the HEARTBEAT shows LAND, a pilot switching to LOITER is not overruled
        h.ack()
        h.vehicleSays(mode: ArduCopterMode.land.rawValue, landed: .landing)
        h.run(0.5)
        h.vehicleSays(mode: ArduCopterMode.loiter.rawValue)
        h.clear()
        h.run(3)
        #expect(h.commands.isEmpty, "\(h.commandIDs)")
    }

    @Test("6. default ids 245/190: not QGroundControl's or Mission Planner's 255")
    func defaultIDs() {
        let configuration = SessionHarness.configuration()
        #expect(configuration.systemID == 245 && configuration.componentID == 190)
    }

    // MARK: 7. Which vehicle

    @Test("7. a Plane, a Rover, an antenna tracker or a companion computer is not the vehicle; a quadrotor's autopilot is",
          arguments: [(MAVType.fixedWing, UInt8(1)), (.groundRover, 1), (.antennaTracker, 1), (.quadrotor, 191)])
    func onlyMultirotorAutopilots(type: MAVType, component: UInt8) {
        var h = SessionHarness()
        // Given a HEARTBEAT from an ArduPilot of another type (or a multirotor's other component)
        var heartbeat = SessionHarness.heartbeat()
        heartbeat.type = .init(type)
        h.receive(heartbeat, system: 1, component: component)
        // Then it is not taken as the vehicle
        #expect(h.session.vehicleTarget == nil)
        // but a hexarotor's autopilot (component 1) is
        var hexa = SessionHarness.heartbeat()
        hexa.type = .init(.hexarotor)
        h.receive(hexa, system: 3, component: 1)
        #expect(h.session.vehicleTarget == MAVLinkTarget(system: 3, component: 1))
    }

    @Test("7. two vehicles and target_system 0: the configuration fails naming both, no flight command")
    func twoVehicles() {
        // Given vehicle 1 connected and configured
        var h = SessionHarness()
        h.connectAndConfigure(mode: ArduCopterMode.guided.rawValue)
        // When vehicle 2 is heard too
        h.receive(SessionHarness.heartbeat(), system: 2, component: 1)
        // Then the configuration fails, naming both
        let reasons = h.events.compactMap { if case .configurationFailed("target_system", _, let reason, _) = $0 { reason } else { nil } }
        #expect(reasons.count == 1 && reasons[0].contains("1") && reasons[0].contains("2"), "\(reasons)")
        #expect(h.lastComplete?.contains("target_system") == true)
        // and no flight command goes out even when asked to fly
        h.clear()
        h.fly(true)
        h.run(3)
        #expect(h.commands.isEmpty, "\(h.commandIDs)")
    }

    @Test("7. target_system 0: the configuration is complete only after 2 s without a second vehicle; one heard within them refuses")
    func discoveryWindow() {
        // Given vehicle 1 configured (rates and parameters) within a fraction of a second
        var h = SessionHarness()
        h.connectAndConfigure()
        #expect(h.lastComplete == nil)
        // When vehicle 2's first HEARTBEAT comes 1.5 s later (HEARTBEATs are 1 Hz)
        h.run(1.5)
        h.receive(SessionHarness.heartbeat(), system: 2, component: 1)
        // Then the configuration completes only with target_system failed
        h.run(1)
        #expect(h.lastComplete == ["target_system"])
        // and alone, vehicle 1 is configured once 2 s have passed
        var alone = SessionHarness()
        alone.connectAndConfigure()
        alone.run(1.5)
        #expect(alone.lastComplete == nil)
        alone.run(0.6)
        #expect(alone.lastComplete == [])
    }

    // MARK: 8. Battery and health

    @Test("8. battery −1 after a known value: telemetry says unknown (the stale percentage is kept for the log)")
    func batteryUnknownAfterKnown() {
        var state = VehicleState()
        state.apply(SessionHarness.heartbeat())
        state.apply(SessionHarness.position())
        state.apply(SessionHarness.battery(80))
        #expect(state.telemetry(receivedAt: .zero)?.batteryUnknown == false)
        state.apply(SessionHarness.battery(-1))
        let telemetry = state.telemetry(receivedAt: .zero)
        #expect(telemetry?.batteryUnknown == true)
        #expect(telemetry?.batteryPercent == 80)
        state.apply(SessionHarness.battery(79))
        #expect(state.telemetry(receivedAt: .zero)?.batteryUnknown == false)
    }

    @Test("8. MAV_STATE_CRITICAL: telemetry says critical, and the session never arms")
    func critical() {
        var h = SessionHarness()
        h.connectAndConfigure(mode: ArduCopterMode.guided.rawValue)
        h.vehicleSays(status: .critical)
        #expect(h.session.vehicle.telemetry(receivedAt: h.now)?.critical == true)
        h.clear()
        h.fly(true)
        h.run(3)
        #expect(!h.commandIDs.contains(400), "\(h.commandIDs)")
    }

    // MARK: 0. Ready to arm

    @Test("0. SYS_STATUS pre-arm bit: absent or not enabled (ARMING_CHECK 0) → unknown (nil), present, enabled and unhealthy → false, healthy → true")
    func readyToArm() {
        var state = VehicleState()
        state.apply(SessionHarness.position())
        var status = SessionHarness.battery(90)
        state.apply(status)
        #expect(state.telemetry(receivedAt: .zero)?.readyToArm == nil)
        // ArduPilot with ARMING_CHECK 0: present, not enabled — no verdict
        status.sensors = SensorBitmasks(present: 0x1000_0000, enabled: 0, health: 0)
        state.apply(status)
        #expect(state.telemetry(receivedAt: .zero)?.readyToArm == nil)
        status.sensors = SensorBitmasks(present: 0x1000_0000, enabled: 0x1000_0000, health: 0)
        state.apply(status)
        #expect(state.telemetry(receivedAt: .zero)?.readyToArm == false)
        status.sensors.health = 0x1000_0000
        state.apply(status)
        #expect(state.telemetry(receivedAt: .zero)?.readyToArm == true)
    }

    @Test("0. ARM refused with the autopilot's PreArm reason: shown, asked again with a growing back-off, never given up")
    func armRefusedKeepsTrying() {
        var h = SessionHarness()
        h.readyToArm()
        var armsAt: [MonotonicTime] = [h.now]
        // ArduPilot says why before it refuses (PreArm STATUSTEXT), then DENIED — eight times
        h.receive(StatusText { $0.severity = .init(.critical); $0.text = "PreArm: Need Position Estimate" })
        for _ in 0..<8 {
            h.ack(.denied)
            h.clear()
            // When time passes (up to 60 s) until the next ARM
            for _ in 0..<600 where !h.commandIDs.contains(400) { h.run(0.1) }
            if h.commandIDs.contains(400) { armsAt.append(h.now) }
        }
        // Then ARM is asked again every time (never given up), the waits doubling to at most 30 s
        #expect(armsAt.count == 9, "\(armsAt.count)")
        let gaps = zip(armsAt, armsAt.dropFirst()).map { $1.seconds(since: $0).rounded() }
        #expect(gaps == [2, 4, 8, 16, 30, 30, 30, 30], "\(gaps)")
    }

    @Test("0. the ARM refusal notice names the autopilot's PreArm reason")
    func armRefusalReason() {
        var h = SessionHarness()
        h.readyToArm()
        h.receive(StatusText { $0.severity = .init(.critical); $0.text = "PreArm: Need Position Estimate" })
        h.ack(.denied)
        #expect(h.notices.contains { $0.contains("ARM") && $0.contains("PreArm: Need Position Estimate") }, "\(h.notices)")
    }

    @Test("0. the reason sent just after the refusal's ACK (as a real ArduCopter SITL does) is told once more; a later text is not")
    func armRefusalReasonAfterTheAck() {
        var h = SessionHarness()
        h.readyToArm()
        h.ack(.failed)
        #expect(h.notices.contains { $0.contains("ARM") && $0.contains("refused") })
        h.receive(StatusText { $0.severity = .init(.critical); $0.text = "Arm: Throttle (RC3) is not neutral" })
        #expect(h.notices.contains { $0 == "ARM refused: Arm: Throttle (RC3) is not neutral" }, "\(h.notices)")
        h.clear()
        h.run(1.5)
        h.receive(StatusText { $0.severity = .init(.critical); $0.text = "PreArm: Need Position Estimate" })
        #expect(!h.notices.contains { $0.hasPrefix("ARM refused:") }, "\(h.notices)")
    }

    // MARK: 4. Never land someone else's flight

    @Test("4. preflight or dry run (flying false, never asked to fly): a vehicle someone else flies is never sent LAND",
          arguments: [MAVLinkLinkConfiguration.Autopilot.ardupilot, .px4])
    func preflightNeverLands(autopilot: MAVLinkLinkConfiguration.Autopilot) {
        // Given a vehicle armed and flying (someone else's) when FollowMe connects
        let control = SessionHarness.control(autopilot)
        var h = SessionHarness(SessionHarness.configuration(autopilot))
        h.vehicle = (SessionHarness.heartbeat(control.heartbeat, mode: control.mode, armed: true, status: .active),
                     SessionHarness.landed(.inAir), SessionHarness.position(relativeAltitudeMeters: 10))
        h.vehicleSays()
        // When the core, in preflight or a dry run, says "not flying" for 5 s
        h.fly(false)
        h.run(5)
        // Then no LAND (no flight command at all) goes out
        #expect(h.commands.allSatisfy { $0.command.rawValue == MAVCommand.setMessageInterval.rawValue }, "\(h.commandIDs)")
        // But once the owner adopted it (asked to fly) and then lands it, LAND goes out
        h.fly(true)
        h.run(0.5)
        h.fly(false)
        h.run(SessionHarness.tick)
        #expect(h.commandIDs.last == 176)
    }

    @Test("4. a dry run (--no-takeoff): the loop's echo of an adopted 'flying', then 'landed', commands nothing, sends no set-point")
    func dryRun() {
        // Given a vehicle someone else flies in GUIDED, and a dry-run session
        var configuration = SessionHarness.configuration()
        configuration.dryRun = true
        var h = SessionHarness(configuration)
        h.vehicle = (SessionHarness.heartbeat(mode: ArduCopterMode.guided.rawValue, armed: true, status: .active),
                     SessionHarness.landed(.inAir), SessionHarness.position(relativeAltitudeMeters: 10))
        h.vehicleSays()
        // When the dry-run flight loop echoes the adopted "flying", then says "landed" (the vehicle landing)
        h.fly(true)
        h.run(1)
        h.vehicleSays(landed: .landing)
        h.fly(false)
        h.run(2)
        // Then neither a flight command nor a set-point went out (message rates and parameter reads only)
        #expect(h.commands.allSatisfy { $0.command.rawValue == MAVCommand.setMessageInterval.rawValue }, "\(h.commandIDs)")
        #expect(h.setpoints.isEmpty)
        #expect(!h.parameterReads.isEmpty)
    }

    @Test("4. followme drone land (requestLanding) lands a vehicle someone else flies; the flight's own landing (LinkCommand.land) and stay-landed do not (docs/mavlink.md §7.14)",
          arguments: [false, true])
    func explicitLand(byLinkCommand: Bool) {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .guided)
        h.fly(false)
        h.run(1)
        #expect(!h.commandIDs.contains(176), "stay landed is not land")
        if byLinkCommand { h.session.setDesired(LinkCommand(flying: false, land: true)) } else { h.session.requestLanding() }
        h.run(SessionHarness.tick)
        if byLinkCommand {
            #expect(!h.commandIDs.contains(176), "a flight that never flew it does not land it")
        } else {
            #expect(h.commands.last.map { Array($0.params.prefix(2)) } == Self.land9)
        }
    }

    /// `currentSetpoint` streams hold set-points while landing only a vehicle that is ours (taken off,
    /// asked to fly, or asked to land); it streamed them to any vehicle in our mode before.
    @Test("4. preflight: no hold set-points to someone else's vehicle flying in GUIDED")
    func preflightNoSetpoints() {
        var h = SessionHarness()
        h.someoneElseFlies(mode: .guided)
        h.fly(false)
        h.run(2)
        #expect(h.setpoints.isEmpty, "\(h.setpoints.count) set-points")
    }

    // MARK: 10. Reboot and IN_PROGRESS

    @Test("10. IN_PROGRESS: no re-send while the final result is awaited (bounded); ACCEPTED then counts")
    func inProgressWaits() {
        var h = SessionHarness()
        h.readyToArm()
        #expect(h.commandIDs == [400])
        h.ack(.inProgress)
        h.run(5)
        #expect(h.commandIDs == [400], "re-sent while IN_PROGRESS: \(h.commandIDs)")
        h.ack(.accepted)
        #expect(h.notices.contains { $0.contains("ARM accepted") })
    }

    @Test("10. IN_PROGRESS without a final result for 10 s: given up with a notice, asked again after the back-off")
    func inProgressBounded() {
        var h = SessionHarness()
        h.readyToArm()
        h.ack(.inProgress)
        h.run(10.5)
        #expect(h.notices.contains { $0.contains("IN_PROGRESS") }, "\(h.notices)")
        h.run(3)
        #expect(h.commandIDs.filter { $0 == 400 }.count >= 2, "\(h.commandIDs)")
    }

    @Test("10. a vehicle that reboots (HEARTBEAT gap > 3 s) is asked its message rates again; .configurationPending meanwhile")
    func rebootGap() {
        var h = SessionHarness()
        h.connectAndConfigure()
        let vehicle = h.vehicle
        h.vehicle = nil
        h.run(5)
        h.clear()
        h.vehicle = vehicle
        h.run(0.2)
        #expect(h.events.contains { if case .configurationPending = $0 { true } else { false } })
        #expect(h.commandIDs.contains(511), "\(h.commandIDs)")
        #expect(h.parameterReads.contains("FS_GCS_ENABLE"))
    }

    @Test("10. GLOBAL_POSITION_INT time_boot_ms going back is a reboot: message rates asked again")
    func rebootBootTime() {
        var h = SessionHarness()
        h.connectAndConfigure()
        var position = GlobalPositionInt()
        position.timeBootMilliseconds = 600_000
        h.receive(position)
        h.clear()
        position.timeBootMilliseconds = 2_000
        h.receive(position)
        h.run(SessionHarness.tick)
        #expect(h.commandIDs.contains(511), "\(h.commandIDs)")
    }

    // MARK: 11. Armed on the ground without a landed state

    @Test("11. armed by someone else, no EXTENDED_SYS_STATE, in GUIDED on the ground: adopted flying never sends NAV_TAKEOFF")
    func armedWithoutLandedState() {
        // Given a vehicle armed on the ground in GUIDED that sends no landed state
        var h = SessionHarness()
        let heartbeat = SessionHarness.heartbeat(mode: ArduCopterMode.guided.rawValue, armed: true, status: .active)
        h.receive(heartbeat)
        h.receive(SessionHarness.battery(90))
        // When the core adopts it (its flight state maps to taking off) and asks to fly
        h.fly(true)
        for _ in 0..<30 {
            h.receive(heartbeat)
            h.receive(SessionHarness.position())
            h.run(0.1)
            h.ack()
        }
        // Then no NAV_TAKEOFF (nor ARM) is sent: it was not armed by us, and its landed state is unknown
        #expect(!h.commandIDs.contains(22) && !h.commandIDs.contains(400), "\(h.commandIDs)")
    }

    // MARK: 3. GCS failsafe parameters

    @Test("3. ArduPilot: FS_GCS_ENABLE, SYSID_MYGCS and MAV_GCS_SYSID are read; FS_GCS_ENABLE 0 fails the configuration naming what to set")
    func gcsFailsafeOff() {
        var h = SessionHarness()
        h.connectAndConfigure()
        // connectAndConfigure answered good values; start again with FS_GCS_ENABLE 0 (ArduCopter's default)
        var bad = SessionHarness()
        bad.vehicle = h.vehicle
        bad.vehicleSays()
        for _ in 0..<4 { bad.run(SessionHarness.tick); bad.ack() }
        #expect(Set(bad.parameterReads) == ["FS_GCS_ENABLE", "SYSID_MYGCS", "MAV_GCS_SYSID", "MAV_GCS_SYSID_HI", "FS_GCS_TIMEOUT", "FS_OPTIONS",
                                              "WPNAV_ACCEL", "PSC_JERK_XY"])
        bad.answerParameters(["FS_GCS_ENABLE": 0, "SYSID_MYGCS": 255])
        bad.run(1.95)   // the 2 s vehicle-discovery window (target_system 0)
        let failure = bad.events.compactMap { if case .configurationFailed("FS_GCS_ENABLE", let value, let reason, _) = $0 { (value, reason) } else { nil } }
        #expect(failure.count == 1)
        #expect(failure.first?.0 == "0")
        #expect(failure.first?.1.contains("SYSID_MYGCS") == true && failure.first?.1.contains("245") == true, "\(failure)")
        #expect(bad.lastComplete == ["FS_GCS_ENABLE"])
        // When the operator fixes it, the next read passes and the configuration completes
        bad.run(3)
        bad.answerParameters(["FS_GCS_ENABLE": 1, "SYSID_MYGCS": 245])
        #expect(bad.lastComplete == [])
        h.run(2)
        #expect(h.lastComplete == [])
    }

    @Test("3. ArduPilot: the GCS id must be FollowMe's system id; the renamed MAV_GCS_SYSID counts when SYSID_MYGCS is unknown")
    func gcsID() {
        var h = SessionHarness.onGroundRatesAnswered()
        h.answerParameters(["FS_GCS_ENABLE": 5, "SYSID_MYGCS": 255])
        #expect(h.failedKeys == ["SYSID_MYGCS"])
        // A current ArduPilot: no SYSID_MYGCS (never answered), MAV_GCS_SYSID 245
        var current = SessionHarness()
        current.vehicle = h.vehicle
        current.vehicleSays()
        for _ in 0..<4 { current.run(SessionHarness.tick); current.ack() }
        current.answerParameters(["FS_GCS_ENABLE": 5, "MAV_GCS_SYSID": 245])
        current.run(6)
        #expect(current.failedKeys.isEmpty, "\(current.failedKeys)")
        #expect(current.lastComplete == [])
        // A range up to 255 (MAV_GCS_SYSID_HI): QGroundControl's HEARTBEATs would also count — refused
        var range = SessionHarness()
        range.vehicle = h.vehicle
        range.vehicleSays()
        for _ in 0..<4 { range.run(SessionHarness.tick); range.ack() }
        range.answerParameters(["FS_GCS_ENABLE": 5, "MAV_GCS_SYSID": 245, "MAV_GCS_SYSID_HI": 255])
        #expect(range.failedKeys == ["MAV_GCS_SYSID_HI"])
    }

    @Test("3. PX4: COM_OBL_RC_ACT 0 (Position mode, bytewise int32) fails; 4 (Land) with COM_OF_LOSS_T 1 s passes")
    func px4OffboardLoss() {
        var h = SessionHarness(SessionHarness.configuration(.px4))
        h.vehicle = (SessionHarness.heartbeat(.px4, mode: PX4Mode(mainMode: 3).customMode), SessionHarness.landed(.onGround),
                     SessionHarness.position())
        h.vehicleSays()
        for _ in 0..<4 { h.run(SessionHarness.tick); h.ack() }
        #expect(Set(h.parameterReads) == ["COM_OF_LOSS_T", "COM_OBL_RC_ACT", "COM_OBL_ACT", "MPC_ACC_HOR", "MPC_JERK_AUTO"])
        h.answerParameters(["COM_OBL_RC_ACT": 0, "COM_OF_LOSS_T": 1], px4: true)
        #expect(h.failedKeys == ["COM_OBL_RC_ACT"])
        h.run(3)
        h.answerParameters(["COM_OBL_RC_ACT": 4, "COM_OF_LOSS_T": 1], px4: true)
        #expect(h.lastComplete == [])
    }

    @Test("3. parameters never answered: read commandMaxAttempts times, then the configuration fails")
    func parametersUnanswered() {
        var h = SessionHarness.onGroundRatesAnswered()
        h.run(6)
        #expect(h.parameterReads.filter { $0 == "FS_GCS_ENABLE" }.count == 5)
        #expect(h.failedKeys == ["FS_GCS_ENABLE"])
    }
}

extension SessionHarness {
    /// A vehicle on the ground whose four message-rate requests were answered: parameters pending.
    static func onGroundRatesAnswered() -> SessionHarness {
        var h = SessionHarness()
        h.vehicle = (heartbeat(), landed(.onGround), position())
        h.vehicleSays()
        for _ in 0..<4 { h.run(tick); h.ack() }
        return h
    }
}
