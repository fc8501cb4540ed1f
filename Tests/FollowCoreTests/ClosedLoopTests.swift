import FollowCore
import Geometry
import Telemetry
import Testing

@Suite("Closed loop against the minimal test plant")
struct ClosedLoopTests {
    @Test func straightWalkProbe() throws {
        for (rate, noise, vel) in [(1.0, 0.0, false), (5.0, 0.0, false), (1.0, 0.5, false), (1.0, 0.5, true), (5.0, 0.5, false)] {
            var c = ClosedLoopConfig()
            c.gpsRateHz = rate; c.gpsNoiseSigmaMeters = noise; c.reportsVelocity = vel
            let r = try runClosedLoop(c)
            print("straight rate \(rate) noise \(noise) vel \(vel): rms \(r.rangeErrorRMS) max \(r.maxRangeError) minsep \(r.minSeparationMeters) following \(r.settledFollowingFraction) tiltRateRMS \(r.tiltRateRMS) maxStep \(r.maxTiltStep)")
        }
    }
}
