@testable import FollowCore
import Foundation
@testable import MAVLink
import Testing


/// MotionCommand → LOCAL_NED velocity set-point, as is (docs/mavlink.md §7.4).
@Suite("Velocity set-points: the core's motion in MAV_FRAME_LOCAL_NED, never converted")
struct VelocitySetpointTests {
    static let limits = SessionHarness.testLimits

    static func motion(east: Double = 0, north: Double = 0, climb: Double = 0, yawRate: Double = 0) -> MotionCommand {
        MotionCommand(velocity: PlaneVector(east: east, north: north), climbMetersPerSecond: climb, yawRateDegreesPerSecond: yawRate)
    }

    @Test("each axis: north = velocity.north, east = velocity.east, down = −climb, yaw rate in rad/s (clockwise +)",
          arguments: [
            (motion(north: 2), [2, 0, 0, 0] as [Double]),
            (motion(east: -1.5), [0, -1.5, 0, 0] as [Double]),
            (motion(climb: 0.5), [0, 0, -0.5, 0] as [Double]),
            (motion(yawRate: -60), [0, 0, 0, -Double.pi / 3] as [Double]),
            // beyond the limits: clamped (the horizontal speed along its own direction)
            (motion(east: 8, north: 6, climb: -3, yawRate: 500), [3.6, 4.8, 0.7, 120 * Double.pi / 180] as [Double]),
          ])
    func axes(motion: MotionCommand, expected: [Double]) {
        let s = Self.limits.setpoint(for: motion)
        let got = [s.northMetersPerSecond, s.eastMetersPerSecond, s.downMetersPerSecond, s.yawRateRadiansPerSecond]
        for (a, b) in zip(got, expected) { #expect(abs(a - b) < 1e-12, "\(got) vs \(expected)") }
    }

    @Test("the set-point does not depend on any heading: the same motion gives the same NED velocity")
    func noRotation() {
        // Given the core's velocity towards the north-east
        let m = Self.motion(east: 1, north: 1)
        // Then the set-point is that velocity in NED, whatever the nose (BODY_NED would rotate it)
        let s = Self.limits.setpoint(for: m)
        #expect(s.northMetersPerSecond == 1 && s.eastMetersPerSecond == 1)
    }

    @Test("nil motion and any non-finite value hold (zero velocity), never NaN",
          arguments: [nil, motion(east: .nan), motion(north: .infinity), motion(climb: -.infinity), motion(yawRate: .nan)])
    func holds(motion: MotionCommand?) {
        #expect(Self.limits.setpoint(for: motion) == .hold)
    }

    @Test("20 000 random motions (finite, huge, NaN, ±inf) never give a non-finite or out-of-limit set-point")
    func property() {
        var random = SplitMix64(seed: 16)
        let specials: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, .leastNonzeroMagnitude, -0.0]
        func value() -> Double {
            random.nextInt(below: 5) == 0 ? specials[random.nextInt(below: specials.count)] : (random.nextUnitInterval() * 40 - 20)
        }
        for _ in 0..<20_000 {
            let s = Self.limits.setpoint(for: Self.motion(east: value(), north: value(), climb: value(), yawRate: value() * 20))
            let all = [s.northMetersPerSecond, s.eastMetersPerSecond, s.downMetersPerSecond, s.yawRateRadiansPerSecond]
            #expect(all.allSatisfy { $0.isFinite })
            #expect((s.northMetersPerSecond * s.northMetersPerSecond + s.eastMetersPerSecond * s.eastMetersPerSecond).squareRoot() <= 6 + 1e-9)
            #expect(abs(s.downMetersPerSecond) <= 0.7 && abs(s.yawRateRadiansPerSecond) <= 120 * Double.pi / 180 + 1e-12)
        }
    }

    @Test("SET_POSITION_TARGET_LOCAL_NED: frame LOCAL_NED (1), mask 0x05C7, velocity and yaw rate in the fields pymavlink names")
    func message() {
        let s = LocalVelocitySetpoint(northMetersPerSecond: 1.5, eastMetersPerSecond: -0.5, downMetersPerSecond: 0.25,
                                      yawRateRadiansPerSecond: 0.1)
        let m = SetPositionTargetLocalNED(s, target: MAVLinkTarget(system: 1, component: 1), timeBootMilliseconds: 1234)
        let fields = Dictionary(uniqueKeysWithValues: m.fieldValues.map { ($0.name, $0.bits) })
        #expect(fields["coordinate_frame"] == [1])
        #expect(fields["type_mask"] == [0x05C7])
        #expect(fields["vx"] == [UInt64(Float(1.5).bitPattern)])
        #expect(fields["vy"] == [UInt64(Float(-0.5).bitPattern)])
        #expect(fields["vz"] == [UInt64(Float(0.25).bitPattern)])
        #expect(fields["yaw_rate"] == [UInt64(Float(0.1).bitPattern)])
        #expect(fields["target_system"] == [1] && fields["time_boot_ms"] == [1234])
    }

    @Test("the limits from [follow] are the flight's own")
    func fromParameters() {
        let follow = FollowParameters()
        let limits = VelocitySetpointLimits(follow: follow)
        #expect(limits.maxHorizontalSpeedMetersPerSecond == follow.maxHorizontalSpeedMetersPerSecond)
        #expect(limits.maxClimbMetersPerSecond == follow.maxClimbMetersPerSecond)
        #expect(limits.maxYawRateDegreesPerSecond == follow.maxYawRateDegreesPerSecond)
    }
}
