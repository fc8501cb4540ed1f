@testable import FollowCore
import Testing

/// `[follow] yaw` (issue 26) in closed loop on both plants: "travel" points the nose along the flight
/// while the drone moves, "face-person" (the default) at the person; the separation rules hold either way.
@Suite("Yaw mode: face the person, or look along the flight")
struct YawModeTests {
    @Test("a walker heading east, the drone behind them: both modes point the nose east (the walker ahead, the flight going east)", arguments: PlantModel.both)
    func noseFollowsTheMode(plant: PlantModel) throws {
        var headings: [YawMode: Double] = [:]
        for mode in YawMode.allCases {
            // Given a walker heading east at 1.4 m/s with the drone behind them (west), yaw `mode`
            var config = ClosedLoopConfig(plant: plant, person: .straight(), durationSeconds: 40, gpsRateHz: 5)
            config.follow.yawMode = mode
            let result = try runClosedLoop(config)
            // Then over the last 15 s the nose points east both ways (the person is ahead, the flight goes east)…
            let late = result.samples.filter { $0.time >= 25 }
            let worst = late.map { abs(wrappedDegrees180($0.noseHeadingDegrees - 90)) }.max() ?? .infinity
            headings[mode] = worst
            #expect(worst < 15, "[\(plant)] \(mode): worst nose error from 090° \(worst)°")
            #expect(result.minSeparationMeters > FailsafeParameters.testDefault.minSeparationMeters)
        }
        print("[\(plant)] yaw: worst nose error from 090° \(headings)")
    }

    @Test("a walker heading east with the drone on their left (north): travel looks east along the flight, face-person south at them",
          arguments: PlantModel.both)
    func sideOn(plant: PlantModel) throws {
        for mode in YawMode.allCases {
            // Given the angle mode at −90° (on the walker's left, north of them): the drone flies east beside them
            var config = ClosedLoopConfig(plant: plant, person: .straight(), durationSeconds: 40, gpsRateHz: 5)
            config.follow.mode = .angle
            config.follow.angleDegrees = -90
            config.droneStart = PlaneVector(east: 0, north: 8)
            config.follow.yawMode = mode
            let result = try runClosedLoop(config)
            // Then late in the walk the nose points east (travel) or south at the walker (face-person)
            let expected = mode == .travel ? 90.0 : 180.0
            let late = result.samples.filter { $0.time >= 25 }
            let worst = late.map { abs(wrappedDegrees180($0.noseHeadingDegrees - expected)) }.max() ?? .infinity
            #expect(worst < 15, "[\(plant)] \(mode): worst nose error from \(expected)° \(worst)°")
            #expect(result.minSeparationMeters > FailsafeParameters.testDefault.minSeparationMeters)
        }
    }
}
