@testable import FollowCore
import ARDrone
@testable import MAVLink
import Testing

/// `[follow] yaw = "travel"` turns the nose along the flight at 0.5 m/s and back to the person only
/// below 0.35 m/s (`FollowController.travelYawOffFraction`): a flight at about 0.5 m/s must not flip
/// the nose between the two every time its speed crosses 0.5.
@Suite("Yaw travel: hysteresis between the flight and the person")
struct TravelYawHysteresisTests {
    /// The nose held at 45° between the person (north of the drone, 0°) and the flight (east, 90°):
    /// a positive yaw rate turns it along the flight, a negative one at the person.
    static let noseDegrees = 45.0

    /// A walker heading east at 0.7 m/s, the drone on their right (south, angle mode 90°) at the standoff,
    /// keeping pace but running ahead and back by ±0.1 m every 4 s: per 30 Hz tick, the commanded speed
    /// and whether the yaw rate turns the nose along the flight.
    static func fly(seconds: Double) -> [(speed: Double, alongFlight: Bool)] {
        var follow = FollowParameters()
        (follow.mode, follow.angleDegrees, follow.yawMode) = (.angle, 90, .travel)
        var controller = FollowController(parameters: follow, minSeparationMeters: 3, geofenceMeters: 1000,
                                          vehicle: .velocityLoop(.arduCopterDefaults))
        var samples: [(speed: Double, alongFlight: Bool)] = []
        let velocity = PlaneVector(east: 0.7, north: 0)
        for k in 0..<Int(seconds * 30) {
            let t = Double(k) / 30
            // The drone runs ahead by 0.12…0.32 m and back (a gust, an autopilot lagging its set-point)
            let ahead = 0.22 + 0.1 * _sin(2 * Double.pi * t / 4)
            let person = PlaneState(position: velocity * t, velocity: velocity)
            let drone = PlaneState(position: velocity * t + PlaneVector(east: ahead, north: -follow.standoffMeters), velocity: velocity)
            let out = controller.follow(target: person, motion: .moving, drone: drone, noseHeadingDegrees: noseDegrees,
                                        altitudeMeters: 3, home: nil, now: MonotonicTime(seconds: t))
            samples.append((out.commandedVelocity.length, out.motion.yawRateDegreesPerSecond > 0))
        }
        return samples
    }

    @Test("commanded speed swinging across 0.5 m/s (never under 0.35): the nose turns along the flight once and stays")
    func noFlipping() {
        let samples = Self.fly(seconds: 30)
        // Given a flight whose speed crosses 0.5 m/s again and again after first reaching it, never below 0.35
        let first = samples.firstIndex { $0.speed >= 0.5 } ?? samples.count
        let after = samples[first...]
        let crossings = zip(after, after.dropFirst()).filter { ($0.speed >= 0.5) != ($1.speed >= 0.5) }.count
        #expect(crossings >= 6, "the commanded speed should cross 0.5 m/s repeatedly: \(crossings) \(samples.map(\.speed).enumerated().filter { $0.offset % 15 == 0 }.map { Int($0.element * 100) })")
        #expect(after.allSatisfy { $0.speed >= 0.35 }, "min \(after.map(\.speed).min() ?? 0) first \(first) \(samples.map(\.speed).enumerated().filter { $0.offset % 15 == 0 }.map { Int($0.element * 100) })")
        // Then the nose turned along the flight once and never back to the person
        let switches = zip(after, after.dropFirst()).filter { $0.alongFlight != $1.alongFlight }.count
        #expect(after.allSatisfy(\.alongFlight) && switches == 0, "\(switches) switches between the flight and the person")
    }

    @Test("below 0.35 m/s the nose turns back to the person; a reset (hover) forgets the travel yaw")
    func offBelowTheLowerSpeed() {
        var controller = FollowController(parameters: FollowParameters { $0.yawMode = .travel },
                                          minSeparationMeters: 3, geofenceMeters: 1000, vehicle: .tiltLoop)
        var decisions: [Bool] = []
        for speed in [0.5, 0.36, 0.34, 0.49, 0.51] { decisions.append(controller.facesTravel(speedMetersPerSecond: speed)) }
        #expect(decisions == [true, true, false, false, true])
        controller.reset()
        let afterReset = controller.facesTravel(speedMetersPerSecond: 0.45)
        #expect(!afterReset)
        var facing = FollowController(parameters: FollowParameters(), minSeparationMeters: 3, geofenceMeters: 1000, vehicle: .tiltLoop)
        let faces = facing.facesTravel(speedMetersPerSecond: 2)
        #expect(!faces, "face-person never faces the flight")
    }
}
