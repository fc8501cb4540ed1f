@testable import FollowCore
import Foundation
@testable import MAVLink
import Testing


/// MAVLink telemetry → the core's telemetry and onboard events (docs/mavlink.md §7.2), garbage included.
@Suite("VehicleState: telemetry mapping")
struct VehicleStateTests {
    static let t = MonotonicTime(seconds: 5)

    static func state(armed: Bool = false, landed: MAVLandedState? = nil, relativeAltitudeMeters: Double = 0) -> VehicleState {
        var s = VehicleState()
        s.apply(SessionHarness.heartbeat(armed: armed))
        if let landed { s.apply(SessionHarness.landed(landed)) }
        s.apply(SessionHarness.position(relativeAltitudeMeters: relativeAltitudeMeters))
        return s
    }

    @Test("landed state → flight state; UNDEFINED from armed and height above home",
          arguments: [
            (false, MAVLandedState.onGround, 0.0, DroneFlightState.landed),
            (true, .takeoff, 0.2, .takingOff), (true, .inAir, 3, .flying), (true, .landing, 1, .landing),
            (false, .undefined, 0, .landed), (true, .undefined, 0.1, .takingOff), (true, .undefined, 2, .flying),
          ])
    func flightState(armed: Bool, landed: MAVLandedState, height: Double, expected: DroneFlightState) {
        let s = Self.state(armed: armed, landed: landed, relativeAltitudeMeters: height)
        #expect(s.telemetry(receivedAt: Self.t)?.flightState == expected)
    }

    @Test("GLOBAL_POSITION_INT: relative altitude, NED velocity rotated into body axes by the heading")
    func bodyVelocity() throws {
        var s = VehicleState()
        // heading 90° (east), moving east at 2 m/s and north at 1 m/s
        s.apply(SessionHarness.position(relativeAltitudeMeters: 3.25, velocityNED: [100, 200, -50], headingCentidegrees: 9000))
        let telemetry = try #require(s.telemetry(receivedAt: Self.t))
        #expect(telemetry.altitudeMeters == 3.25)
        let v = try #require(telemetry.velocityBody)
        #expect(abs(v.forwardMetersPerSecond - 2) < 1e-9)
        #expect(abs(v.rightMetersPerSecond - -1) < 1e-9)
        #expect(telemetry.yawDegrees == 90)
    }

    @Test("ATTITUDE: degrees; NaN angles are dropped, never passed on")
    func attitude() throws {
        var s = Self.state()
        s.apply(Attitude {
            $0.timeBootMilliseconds = 1
            $0.rollPitchYawRadians = [Float.pi / 6, -Float.pi / 12, .nan]
            $0.ratesRadiansPerSecond = [0, 0, 0]
        })
        var telemetry = try #require(s.telemetry(receivedAt: Self.t))
        #expect(abs(telemetry.rollDegrees! - 30) < 1e-4 && abs(telemetry.pitchDegrees! - -15) < 1e-4)
        #expect(telemetry.yawDegrees == 90, "NaN yaw: the heading is used")
        s.apply(Attitude {
            $0.timeBootMilliseconds = 2
            $0.rollPitchYawRadians = [.nan, .infinity, -.infinity]
            $0.ratesRadiansPerSecond = [.nan, 0, 0]
        })
        telemetry = try #require(s.telemetry(receivedAt: Self.t))
        #expect(telemetry.rollDegrees == nil && telemetry.pitchDegrees == nil)
    }

    @Test("heading 65535 (unknown): no heading report, body velocity from the ATTITUDE yaw, or none")
    func unknownHeading() throws {
        var s = VehicleState()
        s.apply(SessionHarness.position(velocityNED: [100, 0, 0], headingCentidegrees: 65535))
        #expect(try #require(s.telemetry(receivedAt: Self.t)).velocityBody == nil)
        #expect(!s.onboardEvents(receivedAt: Self.t).contains { if case .heading = $0 { true } else { false } })
        s.apply(Attitude {
            $0.timeBootMilliseconds = 1
            $0.rollPitchYawRadians = [0, 0, Float.pi / 2]
            $0.ratesRadiansPerSecond = [0, 0, 0]
        })
        let v = try #require(s.telemetry(receivedAt: Self.t)?.velocityBody)
        #expect(abs(v.rightMetersPerSecond - -1) < 1e-6)
    }

    @Test("battery −1 (unknown): the last known value, flagged unknown; before any SYS_STATUS, unknown (not 0 %: a position arrives first)")
    func unknownBattery() throws {
        var s = Self.state()
        // Given a position and no SYS_STATUS yet (ArduPilot: GLOBAL_POSITION_INT at 10 Hz, SYS_STATUS at 2 Hz)
        #expect(try #require(s.telemetry(receivedAt: Self.t)).batteryUnknown)
        s.apply(SessionHarness.battery(-1))
        #expect(try #require(s.telemetry(receivedAt: Self.t)).batteryUnknown)
        s.apply(SessionHarness.battery(64))
        #expect(try #require(s.telemetry(receivedAt: Self.t)).batteryUnknown == false)
        s.apply(SessionHarness.battery(-1))
        s.apply(SessionHarness.battery(127))
        let telemetry = try #require(s.telemetry(receivedAt: Self.t))
        #expect(telemetry.batteryPercent == 64)
        #expect(telemetry.batteryUnknown)
    }

    @Test("EMERGENCY and FLIGHT_TERMINATION → emergency; CRITICAL is not", arguments: [
        (MAVState.emergency, true), (.flightTermination, true), (.critical, false), (.active, false),
    ])
    func emergency(status: MAVState, expected: Bool) {
        var s = Self.state()
        s.apply(SessionHarness.heartbeat(armed: true, status: status))
        #expect(s.telemetry(receivedAt: Self.t)?.emergency == expected)
    }

    @Test("onboard events: a fix (role onboard, device autopilot, track and speed from vx/vy) and the nose heading; none at 0/0")
    func onboard() throws {
        var s = VehicleState()
        s.apply(SessionHarness.position(velocityNED: [0, 300, 0], headingCentidegrees: 27_050))
        let events = s.onboardEvents(receivedAt: Self.t)
        guard case .fix(let fix) = events.first, case .heading(let heading) = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(fix.role == .onboard && fix.device == "autopilot")
        #expect(abs(fix.coordinate.latitudeDegrees - 47.397742) < 1e-9)
        #expect(fix.trackDegrees == 90 && fix.speedMetersPerSecond == 3)
        #expect(heading.headingDegrees == 270.5 && heading.role == .onboard)
        s.apply(SessionHarness.position(latitudeE7: 0, longitudeE7: 0))
        #expect(!s.onboardEvents(receivedAt: Self.t).contains { if case .fix = $0 { true } else { false } })
    }

    @Test("10 000 random payloads of every telemetry message never trap and never give NaN telemetry")
    func garbage() {
        var random = SplitMix64(seed: 245)
        var s = VehicleState()
        let types: [any MAVLinkMessage.Type] = [Heartbeat.self, SysStatus.self, Attitude.self, GlobalPositionInt.self,
                                                 ExtendedSysState.self]
        for _ in 0..<10_000 {
            let type = types[random.nextInt(below: types.count)]
            let payload = (0..<random.nextInt(below: 48)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            s.apply(type.init(payload: payload))
            guard let telemetry = s.telemetry(receivedAt: Self.t) else { continue }
            let values = [telemetry.batteryPercent, telemetry.altitudeMeters, telemetry.yawDegrees ?? 0, telemetry.pitchDegrees ?? 0,
                          telemetry.rollDegrees ?? 0, telemetry.velocityBody?.forwardMetersPerSecond ?? 0,
                          telemetry.velocityBody?.rightMetersPerSecond ?? 0]
            #expect(values.allSatisfy { $0.isFinite })
            #expect((0...100).contains(telemetry.batteryPercent))
        }
    }
}
