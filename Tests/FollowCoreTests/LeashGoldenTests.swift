@testable import FollowCore
import Testing

/// The leash (the default mode: a file without `[follow] mode`) flies exactly as recorded: digests of
/// every command of two closed-loop flights. A change of them is a change of how every default flight
/// flies: take them anew only on purpose, and say why in the commit.
@Suite("The leash flies bit for bit as recorded")
struct LeashGoldenTests {
    /// FNV-1a over the bit patterns of every tick's PCMD, commanded velocity and the drone's position.
    static func digest(_ result: ClosedLoopResult) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ x: Double) {
            var bits = x.bitPattern
            for _ in 0..<8 {
                hash = (hash ^ (bits & 0xff)) &* 0x100_0000_01b3
                bits >>= 8
            }
        }
        for s in result.samples {
            if let p = s.pilot { [p.roll, p.pitch, p.gaz, p.yaw].forEach(mix) } else { mix(.nan) }
            if let v = s.commandedVelocity { mix(v.east); mix(v.north) } else { mix(.infinity) }
            mix(s.drone.east)
            mix(s.drone.north)
        }
        return hash
    }

    @Test("a noisy 90° turn, both plants: the same commands as recorded", arguments: [
        (plant: PlantModel.nominal, golden: UInt64(9601950234118856831)),
        (plant: PlantModel.offModel, golden: UInt64(12105398610307629746)),
    ])
    func rightAngleTurn(_ c: (plant: PlantModel, golden: UInt64)) throws {
        // Given a walker who turns 90° at 30 s, noisy 1 Hz fixes with Doppler, the default (leash) mode
        var config = ClosedLoopConfig(plant: c.plant, person: .rightAngle(turnAt: 30), durationSeconds: 60)
        config.gpsNoiseSigmaMeters = 0.5
        config.reportsVelocity = true
        config.seed = 3
        // When the machine flies it
        let result = try runClosedLoop(config)
        let digest = Self.digest(result)
        print("[\(c.plant)] leash golden digest \(String(digest, radix: 16)) over \(result.samples.count) ticks")
        // Then every command is the recorded one
        #expect(digest == c.golden)
    }
}
