@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// The GCS failsafe (ArduCopter/events.cpp `failsafe_gcs_check`, `failsafe_gcs_on_event`) and the
/// pilot's mode switch of the simulated Copter (docs/mavlink.md §8.5). Time is an argument: no sleeping.
@Suite("MAVLinkCopter: the pilot and the GCS failsafe")
struct MAVLinkCopterFailsafeTests {
    /// A ground station that took the copter up to 5 m in GUIDED, then sent one HEARTBEAT as system
    /// `heartbeatSystem` (FollowMe's 245 = SYSID_MYGCS by default).
    static func flyingCopter(_ configure: (inout MAVLinkCopterParameters) -> Void = { _ in },
                             heartbeatSystem: UInt8 = 245) -> CopterGroundStation {
        var parameters = MAVLinkCopterParameters()
        configure(&parameters)
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            parameters: parameters, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        gcs.takeOff(to: 5)
        heartbeat(&gcs, from: heartbeatSystem)
        return gcs
    }

    /// A HEARTBEAT from a ground station of system `system` (type GCS), now.
    static func heartbeat(_ gcs: inout CopterGroundStation, from system: UInt8 = 245) {
        var beat = Heartbeat()
        beat.type = .init(.gcs)
        gcs.received += gcs.copter.receive(beat.frame(sequence: 0, systemID: system, componentID: 190), at: gcs.copter.time)
    }

    /// `seconds` pass in 0.1 s steps; returns the first time (seconds from now) `condition` held, or nil.
    static func firstTime(_ gcs: inout CopterGroundStation, within seconds: Double,
                          _ condition: (MAVLinkCopter) -> Bool) -> Double? {
        let start = gcs.copter.time
        while gcs.copter.time.seconds(since: start) < seconds {
            gcs.wait(seconds: 0.1)
            if condition(gcs.copter) { return gcs.copter.time.seconds(since: start) }
        }
        return nil
    }

    @Test("FS_GCS_ENABLE 5: SYSID_MYGCS silent for FS_GCS_TIMEOUT 5 s → LAND, holds 4 s, descends, lands, disarms")
    func landAfterTimeout() throws {
        // Given a copter flying in GUIDED whose ground station (245) sent a HEARTBEAT just now
        var gcs = Self.flyingCopter()
        #expect(gcs.copter.mode == .guided && gcs.copter.isAirborne)
        // When no further HEARTBEAT comes
        let triggered = try #require(Self.firstTime(&gcs, within: 8) { $0.mode == .land })
        // Then the failsafe triggers just after 5 s (the physics step is the only slack)
        #expect(triggered > 5 && triggered <= 5.2, "triggered after \(triggered) s")
        #expect(gcs.copter.isGCSFailsafeActive)
        #expect(gcs.copter.counters[.gcsFailsafes] == 1)
        #expect(gcs.statusTexts.contains("GCS Failsafe"))
        #expect(gcs.statusTexts.contains("Mode LAND (GCS failsafe)"))
        // And LAND holds its height for 4 s (set_mode_land_with_pause) before descending
        let height = gcs.copter.altitudeMeters
        gcs.wait(seconds: 3.8)
        #expect(abs(gcs.copter.altitudeMeters - height) < 0.1, "\(gcs.copter.altitudeMeters) vs \(height)")
        // And then lands (5 m at 0.5 m/s) and disarms 2 s after touch-down (`landedDisarmSeconds`)
        let landed = try #require(Self.firstTime(&gcs, within: 17) { !$0.isArmed })
        #expect(landed > 11 && landed < 14.5, "disarmed \(landed) s after the pause")
        #expect(gcs.copter.phase == .onGround && gcs.copter.altitudeMeters < 0.05)
        #expect(gcs.statusTexts.contains("Disarming motors (landed)"))
    }

    @Test("HEARTBEATs every second keep it in GUIDED; one from another system (255) does not count")
    func heartbeatsKeepItFlying() {
        // Given a flying copter whose ground station keeps sending HEARTBEAT at 1 Hz for 20 s
        var gcs = Self.flyingCopter()
        for _ in 0..<20 {
            gcs.wait(seconds: 1)
            Self.heartbeat(&gcs)
        }
        // Then it is still in GUIDED
        #expect(gcs.copter.mode == .guided && gcs.copter.counters[.gcsFailsafes] == 0)
        // When only another station (system 255) keeps sending
        for _ in 0..<6 {
            gcs.wait(seconds: 1)
            Self.heartbeat(&gcs, from: 255)
        }
        // Then the failsafe triggered all the same: only SYSID_MYGCS's HEARTBEAT counts
        #expect(gcs.copter.mode == .land)
    }

    @Test("no HEARTBEAT ever from SYSID_MYGCS: no failsafe (ArduCopter waits for the GCS to connect)")
    func neverConnected() {
        var gcs = Self.flyingCopter(heartbeatSystem: 255)
        gcs.wait(seconds: 30)
        #expect(gcs.copter.mode == .guided && gcs.copter.isAirborne)
        #expect(gcs.copter.groundStationHeartbeatAt == nil)
    }

    @Test("FS_GCS_ENABLE chooses the action (0 none, 1/2/3/6 RTL, 4/5 LAND, 7 BRAKE, unknown RTL)",
          arguments: zip([0, 1, 2, 3, 4, 5, 6, 7, 42],
                         [ArduCopterMode.guided, .rtl, .rtl, .rtl, .land, .land, .rtl, .brake, .rtl]))
    func actionByParameter(fsGCSEnable: Int, mode: ArduCopterMode) {
        var gcs = Self.flyingCopter { $0.gcsFailsafeAction = fsGCSEnable }
        gcs.wait(seconds: 5.5)
        #expect(gcs.copter.mode == mode, "FS_GCS_ENABLE \(fsGCSEnable)")
        #expect(gcs.copter.isGCSFailsafeActive == (fsGCSEnable != 0))
    }

    @Test("RTL: climbs to RTL_ALT 15 m, flies back over the arming point, descends, disarms")
    func rtlReturnsHome() throws {
        // Given a copter (FS_GCS_ENABLE 1) that flew 30 m east of where it was armed
        var gcs = Self.flyingCopter { $0.gcsFailsafeAction = 1 }
        let home = gcs.copter.homePlane
        for _ in 0..<12 {
            gcs.stream(CopterGroundStation.velocity(0, 5, frame: .localNED), seconds: 0.6)
            Self.heartbeat(&gcs)
        }
        #expect(gcs.copter.positionPlane.east - home.east > 20)
        // When its ground station falls silent
        let rtl = try #require(Self.firstTime(&gcs, within: 7) { $0.mode == .rtl })
        #expect(rtl > 4.5)
        // Then it climbs to 15 m first, then returns, then lands at home and disarms
        let top = try #require(Self.firstTime(&gcs, within: 20) { $0.rtlStage == .returnHome })
        #expect(gcs.copter.altitudeMeters > 14.5, "returning at \(gcs.copter.altitudeMeters) m after \(top) s")
        let disarmed = try #require(Self.firstTime(&gcs, within: 90) { !$0.isArmed })
        #expect((gcs.copter.positionPlane - home).length < 1.5, "landed \((gcs.copter.positionPlane - home).length) m from home")
        #expect(gcs.copter.phase == .onGround, "after \(disarmed) s")
    }

    @Test("the pilot switches to LOITER: GUIDED set-points are ignored; the GCS failsafe leaves the pilot in control (FS_OPTIONS 16)")
    func pilotLoiter() throws {
        // Given a flying copter in GUIDED
        var gcs = Self.flyingCopter()
        // When the pilot flips the mode switch to LOITER
        let switched = gcs.copter.pilotModeSwitch(to: .loiter, at: gcs.copter.time)
        gcs.received += switched.messages
        // Then it is in LOITER, said so, and counts the pilot's switch
        #expect(switched.refusal == nil && gcs.copter.mode == .loiter)
        #expect(gcs.statusTexts.contains("Mode LOITER (RC)"))
        #expect(gcs.copter.counters[.pilotModeChanges] == 1)
        // And velocity set-points from the ground station are no longer flown
        let position = gcs.copter.positionPlane
        let ignoredBefore = gcs.copter.counters[.setpointsIgnored]
        gcs.stream(CopterGroundStation.velocity(3, 0, frame: .localNED), seconds: 4)
        #expect(gcs.copter.counters[.setpointsIgnored] - ignoredBefore >= 30)
        #expect((gcs.copter.positionPlane - position).length < 0.5)
        // When its ground station then falls silent for 10 s
        gcs.wait(seconds: 10)
        // Then the failsafe triggered but the pilot keeps the Copter: still LOITER, in the air
        #expect(gcs.copter.isGCSFailsafeActive)
        #expect(gcs.copter.mode == .loiter && gcs.copter.isAirborne)
        #expect(gcs.statusTexts.contains("GCS Failsafe - Continuing Pilot Control"))
    }

    @Test("FS_OPTIONS 0: the failsafe lands a copter even in the pilot's LOITER")
    func pilotLoiterWithoutContinueOption() {
        var gcs = Self.flyingCopter { $0.failsafeOptions = 0 }
        _ = gcs.copter.pilotModeSwitch(to: .loiter, at: gcs.copter.time)
        gcs.wait(seconds: 5.5)
        #expect(gcs.copter.mode == .land)
    }

    @Test("FS_GCS_TIMEOUT sets when the failsafe fires (ArduCopter's range 2–120 s): not before it, within a step after",
          arguments: [2.0, 3.5, 12.0])
    func timeoutFromParameter(timeout: Double) throws {
        // Given a copter whose FS_GCS_TIMEOUT is `timeout`, its ground station silent from now
        var gcs = Self.flyingCopter { $0.gcsFailsafeTimeoutSeconds = timeout }
        // When the silence lasts
        let triggered = try #require(Self.firstTime(&gcs, within: timeout + 3) { $0.mode == .land })
        // Then LAND comes just after the parameter's timeout, not after the default 5 s
        #expect(triggered > timeout && triggered <= timeout + 0.2, "triggered after \(triggered) s")
        #expect(gcs.copter.isGCSFailsafeActive)
    }

    @Test("FS_OPTIONS without bit 4: in the pilot's LOITER the failsafe does what FS_GCS_ENABLE says (1 RTL, 5 LAND); with it, nothing",
          arguments: [(action: 1, options: UInt32(0), mode: ArduCopterMode.rtl), (5, 0, .land), (1, 8, .rtl), (1, 16, .loiter), (5, 24, .loiter)])
    func pilotModeOptions(action: Int, options: UInt32, mode: ArduCopterMode) {
        // Given a pilot flying LOITER, FS_GCS_ENABLE `action`, FS_OPTIONS `options`
        var gcs = Self.flyingCopter { ($0.gcsFailsafeAction, $0.failsafeOptions) = (action, options) }
        _ = gcs.copter.pilotModeSwitch(to: .loiter, at: gcs.copter.time)
        // When FollowMe's HEARTBEATs stop for longer than FS_GCS_TIMEOUT
        gcs.wait(seconds: 5.5)
        // Then the mode is the failsafe's, or still the pilot's with bit 4
        #expect(gcs.copter.isGCSFailsafeActive)
        #expect(gcs.copter.mode == mode, "FS_GCS_ENABLE \(action), FS_OPTIONS \(options)")
        #expect(gcs.copter.isAirborne)
    }

    @Test("the pilot cannot switch to STABILIZE in the air (no sticks simulated) nor to AUTO; LOITER needs a position")
    func pilotRefusals() {
        var gcs = Self.flyingCopter()
        #expect(gcs.copter.pilotModeSwitch(to: .stabilize, at: gcs.copter.time).refusal != nil)
        #expect(gcs.copter.pilotModeSwitch(to: .auto, at: gcs.copter.time).refusal != nil)
        gcs.copter.hasGPSFix = false
        #expect(gcs.copter.pilotModeSwitch(to: .loiter, at: gcs.copter.time).refusal == "requires position")
        #expect(gcs.copter.mode == .guided)
        #expect(gcs.copter.counters[.pilotModeChanges] == 0)
    }

    @Test("DO_SET_MODE from a second ground station (system 255, not SYSID_MYGCS) is obeyed, as ArduPilot obeys any GCS")
    func secondStationSetsMode() {
        var gcs = Self.flyingCopter()
        // CopterGroundStation sends as system 255; FollowMe (SYSID_MYGCS) is 245.
        #expect(gcs.setMode(.loiter) == .accepted)
        #expect(gcs.copter.mode == .loiter)
    }

    @Test("a HEARTBEAT after the failsafe clears it ('GCS Failsafe Cleared'); the mode it chose stays")
    func recovery() {
        var gcs = Self.flyingCopter()
        gcs.wait(seconds: 6)
        #expect(gcs.copter.isGCSFailsafeActive && gcs.copter.mode == .land)
        Self.heartbeat(&gcs)
        gcs.wait(seconds: 0.1)
        #expect(!gcs.copter.isGCSFailsafeActive)
        #expect(gcs.statusTexts.contains("GCS Failsafe Cleared"))
        #expect(gcs.copter.mode == .land)
    }

    @Test("armed on the ground when the GCS falls silent: disarm; disarmed: nothing")
    func onTheGround() {
        var gcs = CopterGroundStation()
        gcs.armInGuided()
        Self.heartbeat(&gcs)
        gcs.wait(seconds: 5.5)
        #expect(!gcs.copter.isArmed)
        #expect(gcs.statusTexts.contains("GCS Failsafe - Disarming"))
        #expect(gcs.copter.mode == .guided)
    }

    @Test("PARAM_REQUEST_READ answers the failsafe it flies: FS_GCS_ENABLE, FS_GCS_TIMEOUT, FS_OPTIONS, the GCS id under this version's name only",
          arguments: [(0, "MAV_GCS_SYSID"), (1, "SYSID_MYGCS"), (5, "MAV_GCS_SYSID")])
    func parametersAnswered(fsGCSEnable: Int, gcsIDName: String) {
        var parameters = MAVLinkCopterParameters()
        parameters.gcsFailsafeAction = fsGCSEnable
        parameters.groundStationIDParameterName = gcsIDName
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            parameters: parameters, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        func read(_ name: String) -> Float? {
            let replies = gcs.send(ParamRequestRead {
                $0.parameterIndex = -1
                $0.target = MAVLinkTarget(system: 1, component: 1)
                $0.parameterID = MAVLinkText(bytes: Array(name.utf8))
            })
            return replies.compactMap { $0 as? ParamValue }.first?.value
        }
        #expect(read("FS_GCS_ENABLE") == Float(fsGCSEnable))
        #expect(read("FS_GCS_TIMEOUT") == 5)
        #expect(read("FS_OPTIONS") == 16)
        #expect(read(gcsIDName) == 245)
        // A name the version lacks gets no answer at all (ArduPilot's way), the range included
        #expect(read(gcsIDName == "SYSID_MYGCS" ? "MAV_GCS_SYSID" : "SYSID_MYGCS") == nil)
        #expect(read("MAV_GCS_SYSID_HI") == nil)
        #expect(read("NOT_A_PARAM") == nil)
    }
}
