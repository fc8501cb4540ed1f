import Foundation
import FollowCore
import MAVLink
import SeededRandom
import Testing

@testable import MAVLinkAdapter

/// PilotCommand → velocity set-point (docs/mavlink.md §7.4).
@Suite("Velocity set-points: tilt fractions → the speed the tilt model reaches")
struct VelocitySetpointTests {
    /// c2·sin(degrees).
    static func tilt(_ degrees: Double) -> Double { 17.5 * sin(degrees * Double.pi / 180) }
    static let yawRate60: Double = 60 * Double.pi / 180
    static let scale = VelocitySetpointScale(tiltSpeedMetersPerSecond: 17.5, maxTiltDegrees: 20, maxClimbMetersPerSecond: 0.7,
                                             maxYawRateDegreesPerSecond: 120)

    @Test("each axis: forward = c2·sin(−pitch·maxTilt), right = c2·sin(roll·maxTilt), down = −gaz·maxClimb, yaw rate = yaw·maxYawRate",
          arguments: [
            (PilotCommand(roll: 0, pitch: -1, gaz: 0, yaw: 0), [tilt(20), 0, 0, 0] as [Double]),
            (PilotCommand(roll: 0, pitch: 0.5, gaz: 0, yaw: 0), [-tilt(10), 0, 0, 0] as [Double]),
            (PilotCommand(roll: -0.25, pitch: 0, gaz: 0, yaw: 0), [0, -tilt(5), 0, 0] as [Double]),
            (PilotCommand(roll: 0, pitch: 0, gaz: 1, yaw: 0), [0, 0, -0.7, 0] as [Double]),
            (PilotCommand(roll: 0, pitch: 0, gaz: 0, yaw: -0.5), [0, 0, 0, -yawRate60] as [Double]),
            // beyond ±1 is clamped, like the AR.Drone's PCMD
            (PilotCommand(roll: 3, pitch: 0, gaz: -7, yaw: 0), [0, tilt(20), 0.7, 0] as [Double]),
          ])
    func axes(pilot: PilotCommand, expected: [Double]) {
        let s = Self.scale.setpoint(for: pilot)
        let got = [s.forwardMetersPerSecond, s.rightMetersPerSecond, s.downMetersPerSecond, s.yawRateRadiansPerSecond]
        for (a, b) in zip(got, expected) { #expect(abs(a - b) < 1e-12, "\(got) vs \(expected)") }
    }

    @Test("nil pilot and any non-finite fraction hold (zero velocity), never NaN",
          arguments: [nil, PilotCommand(roll: .nan, pitch: 0, gaz: 0, yaw: 0), PilotCommand(roll: 0, pitch: .infinity, gaz: 0, yaw: 0),
                      PilotCommand(roll: 0, pitch: 0, gaz: -.infinity, yaw: 0), PilotCommand(roll: 0, pitch: 0, gaz: 0, yaw: .nan)])
    func holds(pilot: PilotCommand?) {
        #expect(Self.scale.setpoint(for: pilot) == .hold)
    }

    @Test("20 000 random pilot commands (finite, huge, NaN, ±inf) never give a non-finite or out-of-range set-point")
    func property() {
        var random = SplitMix64(seed: 16)
        let specials: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, .leastNonzeroMagnitude, -0.0]
        func value() -> Double {
            random.nextInt(below: 5) == 0 ? specials[random.nextInt(below: specials.count)] : (random.nextUnitInterval() * 4 - 2)
        }
        let bound = 17.5 * sin(20 * Double.pi / 180) + 1e-9
        for _ in 0..<20_000 {
            let s = Self.scale.setpoint(for: PilotCommand(roll: value(), pitch: value(), gaz: value(), yaw: value()))
            let all = [s.forwardMetersPerSecond, s.rightMetersPerSecond, s.downMetersPerSecond, s.yawRateRadiansPerSecond]
            #expect(all.allSatisfy { $0.isFinite })
            #expect(abs(s.forwardMetersPerSecond) <= bound && abs(s.rightMetersPerSecond) <= bound)
            #expect(abs(s.downMetersPerSecond) <= 0.7 && abs(s.yawRateRadiansPerSecond) <= 120 * Double.pi / 180 + 1e-12)
        }
    }

    @Test("SET_POSITION_TARGET_LOCAL_NED: frame BODY_NED (8), mask 0x05C7, velocity and yaw rate in the fields pymavlink names")
    func message() {
        let s = BodyVelocitySetpoint(forwardMetersPerSecond: 1.5, rightMetersPerSecond: -0.5, downMetersPerSecond: 0.25,
                                     yawRateRadiansPerSecond: 0.1)
        let m = SetPositionTargetLocalNED(s, target: MAVLinkTarget(system: 1, component: 1), timeBootMilliseconds: 1234)
        let fields = Dictionary(uniqueKeysWithValues: m.fieldValues.map { ($0.name, $0.bits) })
        #expect(fields["coordinate_frame"] == [8])
        #expect(fields["type_mask"] == [0x05C7])
        #expect(fields["vx"] == [UInt64(Float(1.5).bitPattern)])
        #expect(fields["vy"] == [UInt64(Float(-0.5).bitPattern)])
        #expect(fields["vz"] == [UInt64(Float(0.25).bitPattern)])
        #expect(fields["yaw_rate"] == [UInt64(Float(0.1).bitPattern)])
        #expect(fields["target_system"] == [1] && fields["time_boot_ms"] == [1234])
    }

    @Test("the scale from [follow] and the controller tuning is the core's own")
    func fromParameters() {
        let scale = VelocitySetpointScale(follow: FollowParameters(), tuning: ControllerTuning())
        #expect(scale.tiltSpeedMetersPerSecond == ControllerTuning().tiltSpeedMetersPerSecond)
        #expect(scale.maxTiltDegrees == FollowParameters().maxTiltDegrees)
    }
}
