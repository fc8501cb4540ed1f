@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

@Suite("MAVLinkCopter: modes and arming")
struct MAVLinkCopterArmingTests {
    @Test("ARM is refused in STABILIZE (FAILED, a STATUSTEXT), accepted in GUIDED")
    func armingNeedsGuided() {
        // Given a fresh copter (STABILIZE, disarmed)
        var gcs = CopterGroundStation()
        #expect(gcs.copter.mode == .stabilize)
        // When the ground station arms it
        let refused = gcs.arm()
        // Then the copter refuses with FAILED, says why, and stays disarmed
        #expect(refused == .failed)
        #expect(!gcs.copter.isArmed)
        #expect(gcs.statusTexts.contains("Arm: Mode not armable"))
        #expect(gcs.copter.heartbeat.baseMode.contains(.safetyArmed) == false)
        // When it switches to GUIDED and arms again
        #expect(gcs.setMode(.guided) == .accepted)
        #expect(gcs.arm() == .accepted)
        // Then it is armed, and HEARTBEAT says so with custom mode 4
        #expect(gcs.copter.isArmed)
        #expect(gcs.copter.heartbeat.baseMode.contains(.safetyArmed))
        #expect(gcs.copter.heartbeat.customMode == 4)
        #expect(gcs.statusTexts.contains { $0.hasPrefix("Mode GUIDED") })
    }

    @Test("without a GPS fix: GUIDED is refused and ARM is refused (FAILED)")
    func armingNeedsGPS() {
        // Given a copter in LOITER whose GPS then loses its fix
        var gcs = CopterGroundStation()
        #expect(gcs.setMode(.loiter) == .accepted)
        gcs.copter.hasGPSFix = false
        // When the ground station asks for GUIDED and to arm
        let guided = gcs.setMode(.guided)
        let arm = gcs.arm()
        // Then both fail and it stays disarmed in LOITER
        #expect(guided == .failed)
        #expect(arm == .failed)
        #expect(gcs.copter.mode == .loiter && !gcs.copter.isArmed)
        #expect(gcs.statusTexts.contains("PreArm: Need 3D Fix"))
        #expect(gcs.copter.sysStatus.sensors.health & 32 == 0)
    }

    @Test("COMMAND_ACK results: unknown command UNSUPPORTED, unknown mode FAILED, take-off unarmed FAILED, no custom-mode flag UNSUPPORTED")
    func ackResults() {
        var gcs = CopterGroundStation()
        let unknown = gcs.send(CommandLong {
            $0.command = .init(rawValue: 183)
            $0.target = MAVLinkTarget(system: 1, component: 1)
        })
        #expect((unknown.first as? CommandAck)?.result.known == .unsupported)
        #expect((unknown.first as? CommandAck)?.command.rawValue == 183)
        #expect(gcs.command(.doSetMode, [1, 99]) == .failed)
        #expect(gcs.command(.doSetMode, [0, 4]) == .unsupported)
        #expect(gcs.command(.navTakeoff, [0, 0, 0, 0, 0, 0, 5]) == .failed)
        #expect(gcs.command(.componentArmDisarm, [3]) == .unsupported)
        // A command for another system gets no answer at all.
        let elsewhere = gcs.send(CommandLong {
            $0.command = .init(.componentArmDisarm)
            $0.target = MAVLinkTarget(system: 7, component: 1)
        })
        #expect(elsewhere.isEmpty)
    }
}

@Suite("MAVLinkCopter: flight")
struct MAVLinkCopterFlightTests {
    @Test("GUIDED, ARM, NAV_TAKEOFF 5 m: climbs to 5 m, landed_state ON_GROUND → TAKEOFF → IN_AIR")
    func takeoffReachesAltitude() throws {
        // Given an armed copter in GUIDED on the ground
        var gcs = CopterGroundStation()
        #expect(gcs.setMode(.guided) == .accepted)
        #expect(gcs.arm() == .accepted)
        #expect(gcs.copter.landedState == .onGround)
        // When NAV_TAKEOFF asks for 5 m
        #expect(gcs.command(.navTakeoff, [0, 0, 0, .nan, .nan, .nan, 5]) == .accepted)
        gcs.wait(seconds: 1)
        // Then it is taking off, and then in the air at 5 m, not moving sideways
        #expect(gcs.copter.landedState == .takeoff)
        gcs.wait(seconds: 10)
        #expect(gcs.copter.landedState == .inAir)
        #expect(abs(gcs.copter.altitudeMeters - 5) < 0.25, "altitude \(gcs.copter.altitudeMeters)")
        #expect(gcs.copter.positionPlane.length < 0.01)
        // And the telemetry said so: EXTENDED_SYS_STATE went through TAKEOFF to IN_AIR, and
        // GLOBAL_POSITION_INT reports the relative altitude in mm
        let states = gcs.all(ExtendedSysState.self).compactMap(\.landedState.known)
        #expect(states.contains(.takeoff) && states.last == .inAir)
        let lastPosition = try #require(gcs.all(GlobalPositionInt.self).last)
        #expect(abs(Int(lastPosition.relativeAltitudeMillimeters) - 5000) < 250)
        #expect(gcs.copter.heartbeat.systemStatus.known == .active)
        // And a second take-off is refused
        #expect(gcs.command(.navTakeoff, [0, 0, 0, 0, 0, 0, 8]) == .failed)
    }

    @Test("a BODY_NED forward set-point moves the copter along its nose", arguments: [0.0, 90.0, 200.0, 315.0])
    func bodyFrameForward(noseHeadingDegrees: Double) throws {
        // Given a copter hovering at 5 m with its nose at `noseHeadingDegrees`
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!),
            noseHeadingDegrees: noseHeadingDegrees))
        gcs.takeOff()
        let start = gcs.copter.positionPlane
        // When it gets 2 m/s forward + 1 m/s right in BODY_NED at 10 Hz for 10 s (ArduCopter's
        // controllers settle within 0.05 m/s in about 8 s on this airframe: docs/mavlink.md §8.4)
        gcs.stream(CopterGroundStation.velocity(2, 1, frame: .bodyNED), seconds: 10)
        // Then its ground velocity is (2 forward, 1 right) of its nose, and it moved that way
        let body = gcs.copter.velocityENU.bodyFrame(headingDegrees: noseHeadingDegrees)
        #expect(abs(body.forward - 2) < 0.05 && abs(body.right - 1) < 0.05, "body velocity \(body)")
        let moved = (gcs.copter.positionPlane - start).bodyFrame(headingDegrees: noseHeadingDegrees)
        #expect(moved.forward > 8 && abs(moved.right - moved.forward / 2) < 0.5, "moved \(moved)")
        #expect(abs(gcs.copter.altitudeMeters - 5) < 0.3)
        // And GLOBAL_POSITION_INT reports that velocity in NED cm/s
        let reported = try #require(gcs.all(GlobalPositionInt.self).last)
        let north = Double(reported.velocityNEDCentimetersPerSecond[0]) / 100
        let east = Double(reported.velocityNEDCentimetersPerSecond[1]) / 100
        #expect(abs(north - gcs.copter.velocityENU.north) < 0.1 && abs(east - gcs.copter.velocityENU.east) < 0.1)
    }

    @Test("a LOCAL_NED set-point moves it north/east whatever the heading; vz < 0 climbs")
    func localFrame() {
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!), noseHeadingDegrees: 120))
        gcs.takeOff()
        gcs.stream(CopterGroundStation.velocity(0, -1.5, -0.5, frame: .localNED), seconds: 10)
        #expect(abs(gcs.copter.velocityENU.east + 1.5) < 0.05 && abs(gcs.copter.velocityENU.north) < 0.05)
        #expect(gcs.copter.altitudeMeters > 6.8, "altitude \(gcs.copter.altitudeMeters)")
    }

    @Test("a set-point whose type mask gives position, or ignores velocity, is not flown")
    func typeMaskHonoured() {
        var gcs = CopterGroundStation()
        gcs.takeOff()
        var position = CopterGroundStation.velocity(3, 0, frame: .localNED)
        position.typeMask = [.vxIgnore, .vyIgnore, .vzIgnore, .axIgnore, .ayIgnore, .azIgnore, .yawIgnore, .yawRateIgnore]
        var partial = CopterGroundStation.velocity(3, 0, frame: .localNED)
        partial.typeMask.insert(.vzIgnore)
        gcs.stream(position, seconds: 1)
        gcs.stream(partial, seconds: 1)
        #expect(gcs.copter.velocityENU.length < 0.01)
        #expect(gcs.copter.counters[.setpointsIgnored] >= 18)
        #expect(gcs.copter.counters[.setpoints] == 0)
    }

    @Test("a set-point older than 3 s stops the copter (ArduPilot guided timeout)")
    func guidedTimeout() {
        // Given a copter flying north at 3 m/s on a LOCAL_NED set-point
        var gcs = CopterGroundStation()
        gcs.takeOff()
        gcs.stream(CopterGroundStation.velocity(3, 0, frame: .localNED), seconds: 10)
        #expect(abs(gcs.copter.velocityENU.north - 3) < 0.05)
        // When the set-points stop: 2.9 s later it still flies the last one
        gcs.wait(seconds: 2.9)
        #expect(abs(gcs.copter.velocityENU.north - 3) < 0.05)
        #expect(gcs.copter.counters[.guidedTimeouts] == 0)
        // Then after 3 s it says so, stops (braking at WPNAV_ACCEL, then creeping back the 0.4 m it
        // overshot the stopping point while the integrator unwinds) and holds there
        gcs.wait(seconds: 0.2)
        #expect(gcs.copter.counters[.guidedTimeouts] == 1)
        gcs.wait(seconds: 8)
        #expect(gcs.copter.velocityENU.length < 0.05, "velocity \(gcs.copter.velocityENU)")
        #expect(gcs.statusTexts.contains { $0.contains("timeout") })
        let stoppedAt = gcs.copter.positionPlane
        gcs.wait(seconds: 5)
        #expect((gcs.copter.positionPlane - stoppedAt).length < 0.1)
    }

    @Test("LAND descends at 0.5 m/s, touches down, disarms; landed_state LANDING then ON_GROUND")
    func landAndDisarm() {
        // Given a copter hovering at 5 m
        var gcs = CopterGroundStation()
        gcs.takeOff()
        // When the ground station switches to LAND
        #expect(gcs.setMode(.land) == .accepted)
        gcs.wait(seconds: 3)
        // Then it descends at LAND_SPEED with landed_state LANDING
        #expect(gcs.copter.landedState == .landing)
        #expect(abs(gcs.copter.climbRateMetersPerSecond + 0.5) < 0.01)
        // And then it is on the ground, disarmed, STANDBY
        gcs.wait(seconds: 12)
        #expect(gcs.copter.landedState == .onGround)
        #expect(gcs.copter.altitudeMeters == 0)
        #expect(!gcs.copter.isArmed)
        #expect(gcs.copter.heartbeat.systemStatus.known == .standby)
        #expect(gcs.statusTexts.contains("Landed"))
        let states = gcs.all(ExtendedSysState.self).compactMap(\.landedState.known)
        #expect(states.contains(.landing) && states.last == .onGround)
    }

    @Test("NAV_LAND switches to LAND; disarm in flight is refused unless forced")
    func navLandAndDisarmInFlight() {
        var gcs = CopterGroundStation()
        gcs.takeOff()
        #expect(gcs.command(.componentArmDisarm, [0]) == .failed)
        #expect(gcs.copter.isArmed)
        #expect(gcs.command(.navLand, []) == .accepted)
        #expect(gcs.copter.mode == .land)
    }

    @Test("armed on the ground without taking off: auto-disarm after 10 s")
    func autoDisarm() {
        var gcs = CopterGroundStation()
        gcs.armInGuided()
        gcs.wait(seconds: 9.9)
        #expect(gcs.copter.isArmed)
        gcs.wait(seconds: 0.2)
        #expect(!gcs.copter.isArmed)
    }

    @Test("a set-point during the take-off ends it where it is (ArduPilot GUIDED switches to velocity control)")
    func setpointDuringTakeoff() {
        var gcs = CopterGroundStation()
        gcs.armInGuided()
        _ = gcs.command(.navTakeoff, [0, 0, 0, 0, 0, 0, 10])
        gcs.wait(seconds: 2)
        gcs.stream(CopterGroundStation.velocity(0, 0, frame: .localNED), seconds: 5)
        #expect(gcs.copter.landedState == .inAir)
        #expect(gcs.copter.altitudeMeters < 6, "altitude \(gcs.copter.altitudeMeters)")
    }
}

@Suite("MAVLinkCopter: telemetry")
struct MAVLinkCopterTelemetryTests {
    /// Messages of type `M` the copter sent in `seconds`.
    private func count<M: MAVLinkMessage>(_ type: M.Type, in gcs: inout CopterGroundStation, seconds: Double) -> Int {
        let before = gcs.all(type).count
        gcs.wait(seconds: seconds)
        return gcs.all(type).count - before
    }

    @Test("defaults: HEARTBEAT 1 Hz (QUADROTOR, ARDUPILOTMEGA), GLOBAL_POSITION_INT and ATTITUDE 4 Hz, SYS_STATUS and EXTENDED_SYS_STATE 1 Hz")
    func defaultRates() {
        var gcs = CopterGroundStation()
        gcs.wait(seconds: 0.01)
        #expect(count(Heartbeat.self, in: &gcs, seconds: 10) == 10)
        #expect(count(GlobalPositionInt.self, in: &gcs, seconds: 10) == 40)
        #expect(count(Attitude.self, in: &gcs, seconds: 10) == 40)
        #expect(count(SysStatus.self, in: &gcs, seconds: 10) == 10)
        #expect(count(ExtendedSysState.self, in: &gcs, seconds: 10) == 10)
        let heartbeat = gcs.all(Heartbeat.self).last
        #expect(heartbeat?.type.known == .quadrotor && heartbeat?.autopilot.known == .ardupilotmega)
        #expect(heartbeat?.baseMode.contains(.customModeEnabled) == true && heartbeat?.mavlinkVersion == 3)
    }

    @Test("as ArduPilot: at FollowMe's rates (GLOBAL_POSITION_INT 10 Hz, SYS_STATUS 2 Hz), the position comes first, SYS_STATUS half an interval later, at boot too")
    func sysStatusAfterPosition() {
        // At boot
        var gcs = CopterGroundStation()
        gcs.wait(seconds: 2)
        func firstIndex<M: MAVLinkMessage>(_ type: M.Type, _ gcs: CopterGroundStation, from: Int) -> Int? {
            gcs.received[from...].firstIndex { $0 is M }
        }
        #expect(firstIndex(GlobalPositionInt.self, gcs, from: 0)! < firstIndex(SysStatus.self, gcs, from: 0)!)
        // When a ground station asks FollowMe's rates (the old copter sent SYS_STATUS at once, first in id order)
        #expect(gcs.command(.setMessageInterval, [Float(GlobalPositionInt.messageID), 100_000]) == .accepted)
        #expect(gcs.command(.setMessageInterval, [Float(SysStatus.messageID), 500_000]) == .accepted)
        let start = gcs.received.count
        gcs.wait(seconds: 0.2)
        // Then positions and no SYS_STATUS in the first 0.2 s (the first comes 0.25 s after); then SYS_STATUS at 2 Hz
        #expect(gcs.received[start...].filter { $0 is GlobalPositionInt }.count >= 2)
        #expect(firstIndex(SysStatus.self, gcs, from: start) == nil)
        #expect(count(SysStatus.self, in: &gcs, seconds: 10) == 20)
    }

    @Test("SET_MESSAGE_INTERVAL: 100 000 µs → 10 Hz, −1 stops, 0 back to the default; an id it does not stream FAILED")
    func messageInterval() {
        // Given a fresh copter; each new interval starts with one message at the next step,
        // so each window below opens 10 ms after the command.
        var gcs = CopterGroundStation()
        #expect(gcs.command(.setMessageInterval, [Float(GlobalPositionInt.messageID), 100_000]) == .accepted)
        gcs.wait(seconds: 0.01)
        #expect(count(GlobalPositionInt.self, in: &gcs, seconds: 10) == 100)
        #expect(gcs.command(.setMessageInterval, [Float(Attitude.messageID), -1]) == .accepted)
        #expect(count(Attitude.self, in: &gcs, seconds: 5) == 0)
        #expect(gcs.command(.setMessageInterval, [Float(Attitude.messageID), 0]) == .accepted)
        gcs.wait(seconds: 0.01)
        #expect(count(Attitude.self, in: &gcs, seconds: 5) == 20)
        #expect(gcs.command(.setMessageInterval, [Float(HomePosition.messageID), 100_000]) == .failed)
    }

    @Test("ATTITUDE: a forward lean is negative pitch; yaw is the heading in radians (−π, π]")
    func attitudeSigns() {
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!), noseHeadingDegrees: 270))
        gcs.takeOff()
        gcs.stream(CopterGroundStation.velocity(4, 0, frame: .bodyNED), seconds: 1)
        let attitude = gcs.copter.attitude
        #expect(attitude.rollPitchYawRadians[1] < -0.05)
        #expect(abs(attitude.rollPitchYawRadians[0]) < 0.01)
        #expect(abs(Double(attitude.rollPitchYawRadians[2]) + .pi / 2) < 0.01)
        #expect(gcs.copter.globalPosition.headingCentidegrees == 27000)
    }
}

@Suite("MAVLinkCopter: the autopilot over the AR.Drone airframe")
struct MAVLinkCopterPlantTests {
    @Test("holding in a steady 4 m/s wind: the copter leans into it and stays within 0.5 m")
    func holdsInWind() {
        var dynamics = DroneDynamics.standard
        dynamics.windENU = PlaneVector(east: 4, north: 0)
        var gcs = CopterGroundStation(copter: MAVLinkCopter(
            dynamics: dynamics, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        gcs.takeOff()
        let start = gcs.copter.positionPlane
        gcs.stream(CopterGroundStation.velocity(0, 0, frame: .localNED), seconds: 20)
        print("[measured] MAVLinkCopter hold in a 4 m/s wind, 20 s: drift \((gcs.copter.positionPlane - start).length) m")
        #expect((gcs.copter.positionPlane - start).length < 0.5, "drifted \(gcs.copter.positionPlane - start)")
        #expect(gcs.copter.tiltWorldRadians.east < -0.01, "leans west into the wind: \(gcs.copter.tiltWorldRadians)")
    }
}
