import FollowCore
@testable import MAVLink
import Testing

/// The height frame of a flight FollowMe owns: latched once, deaf to the autopilot's moving home,
/// continuous through an estimator's reset of its origin.
@Suite struct AltitudeReferenceTests {
    func position(msl: Double, relative: Double) -> GlobalPositionInt {
        var p = GlobalPositionInt()
        p.altitudeMSLMillimeters = Int32((msl * 1000).rounded())
        p.relativeAltitudeMillimeters = Int32((relative * 1000).rounded())
        return p
    }

    func at(_ seconds: Double) -> MonotonicTime { MonotonicTime(seconds: seconds) }

    @Test("latched at the home altitude of the moment; a climb at 3 m/s is followed; a relative_alt jump of 2.5 m changes nothing")
    func movingHome() throws {
        var reference = try #require(AltitudeReference(position(msl: 412.0, relative: 0.1), now: at(0)))
        #expect(reference.homeMSLMeters == 411.9)
        var heights: [Double] = []
        for i in 1...40 { heights.append(reference.height(position(msl: 412 + 0.3 * Double(i), relative: 0.3 * Double(i)), now: at(Double(i) / 10))) }
        #expect(abs(heights.last! - 12.1) < 1e-9)
        // PX4 moves its home 2.5 m up: relative_alt drops, alt does not.
        let after = reference.height(position(msl: 424.0, relative: 9.6), now: at(4.1))
        #expect(abs(after - 12.1) < 1e-9 && reference.resets == 0)
    }

    @Test("a step in alt faster than any multicopter moves is a reset of the frame: the height stays continuous", arguments: [5.0, -4.0, 30.0])
    func reset(step: Double) throws {
        var reference = try #require(AltitudeReference(position(msl: 100, relative: 0), now: at(0)))
        #expect(reference.height(position(msl: 108, relative: 8), now: at(10)) == 8)
        let height = reference.height(position(msl: 108 + step, relative: 8 + step), now: at(10.1))
        #expect(abs(height - 8) < 1e-9 && reference.resets == 1, "\(height)")
        // A move within what a vehicle can do (2 m in 0.5 s) is a move.
        #expect(abs(reference.height(position(msl: 110 + step, relative: 10), now: at(10.6)) - 10) < 1e-9)
    }
}
