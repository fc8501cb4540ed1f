import ARDrone
@testable import FollowCore
import MAVLink
import Testing

/// A family the product does not ship: a vehicle that flies a velocity set-point of its own making
/// (east, north, climb, yaw rate, within its own speed limit) with a first-order lag. Its model and its
/// simulated vehicle are all it brings; it plugs in by registering.
enum GliderFamily: DroneFamily {
    static let name = "glider"
    static func vehicleModel(variant: String?) -> VehicleModelBuilder? {
        variant == nil ? VehicleModelBuilder { _ in GliderModel() } : nil
    }
}

/// The family's model: the vehicle tracks its set-point with time constant `lagSeconds`, at most
/// `maxAcceleration`; its set-point is the motion clamped to `maxSpeed`.
struct GliderModel: VehicleModel {
    static let lagSeconds = 0.4, maxAcceleration = 3.0, maxSpeed = 6.0
    var isAutopilot: Bool { false }
    var closesVelocityLoop: Bool { false }
    func brakingAccelerationMetersPerSecondSquared(authorityFraction: Double) -> Double { authorityFraction * Self.maxAcceleration }
    func reactionSeconds(commandLatencySeconds: Double) -> Double { commandLatencySeconds + Self.lagSeconds }
    var windDragRatePerSecond: Double { 0 }
    var velocityLagSeconds: Double { Self.lagSeconds }
    var windAuthorityMetersPerSecond: Double { 0 }
    var windEstimate: PlaneVector { .zero }
    var failsafeWindEstimate: PlaneVector { .zero }
    mutating func observe(drone: PlaneState, noseHeadingDegrees: Double, dt: Double, climbing: Bool) {}
    func acceleration(of drone: PlaneState, noseHeadingDegrees: Double, lastMotion: MotionCommand) -> PlaneVector {
        ((lastMotion.velocity.clamped(toLength: Self.maxSpeed) - drone.velocity) / Self.lagSeconds).clamped(toLength: Self.maxAcceleration)
    }
    mutating func observeTakeOff(_ telemetry: DroneTelemetry, drone: PlaneState, noseHeadingDegrees: Double, dt: Double) {}
    mutating func observe(_ telemetry: DroneTelemetry) {}
    mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint? {
        guard let motion = command.motion else { return nil }
        let v = motion.velocity.clamped(toLength: Self.maxSpeed)
        return VehicleSetpoint(SIMD4(v.east, v.north, motion.climbMetersPerSecond, motion.yawRateDegreesPerSecond))
    }
    mutating func useReportedLimits(accelerationMetersPerSecondSquared: Double?, jerkMetersPerSecondCubed: Double?) {}
    mutating func resetWind() {}
    mutating func restart() {}
}

/// The family's simulated vehicle: a session that answers set-points with telemetry. It flies only
/// what its own set-point says (hover without one), takes off and lands at 1 m/s, and lags
/// `GliderModel.lagSeconds` behind — plus a steady 0.5 m/s cross wind the model knows nothing of.
struct GliderVehicle {
    var position: PlaneVector
    var velocity = PlaneVector.zero
    var altitude = 0.0
    var heading = 0.0
    var flying = false
    let wind = PlaneVector(east: 0, north: 0.5)
    static let lag = 0.45

    mutating func step(_ command: LinkCommand, dt: Double) {
        var target = PlaneVector.zero, climb = 0.0, yawRate = 0.0
        if let s = command.setpoint?.values {
            (target, climb, yawRate) = (PlaneVector(east: s[0], north: s[1]), s[2], s[3])
        }
        if command.flying, !flying { flying = true }
        if !command.flying, flying { climb = -1 }
        if flying, command.setpoint == nil { climb = command.flying ? (altitude < 2.9 ? 1 : 0) : -1 }
        velocity += (target - velocity) * (dt / Self.lag)
        position += groundVelocity * dt
        altitude = max(altitude + climb * dt, 0)
        if altitude == 0, !command.flying { flying = false }
        heading = normalizedDegrees360(heading + yawRate * dt)
    }

    /// Over the ground, wind included.
    var groundVelocity: PlaneVector { velocity + wind * (flying ? 1 : 0) }

    func telemetry(at now: MonotonicTime) -> DroneTelemetry {
        let forward = groundVelocity.dot(PlaneVector.unit(bearingDegrees: heading))
        let right = groundVelocity.dot(PlaneVector.unit(bearingDegrees: heading + 90))
        return DroneTelemetry(
            flightState: flying ? (altitude > 0.2 ? .flying : .takingOff) : .landed, batteryPercent: 90,
            altitudeMeters: altitude, velocityBody: BodyVelocity(forwardMetersPerSecond: forward, rightMetersPerSecond: right),
            yawDegrees: heading, receivedAt: now)
    }
}

@Suite("A third drone family plugs in by registering and flies the closed-loop follow")
struct ThirdFamilyTests {
    @Test("registered with one line, the glider family is found by name beside the shipped ones")
    func registers() {
        var registry = DroneFamilyRegistry([ARDroneFamily.self, MAVLinkFamily.self])
        registry.register(GliderFamily.self)
        #expect(registry.names == ["ardrone", "mavlink", "glider"])
        #expect(registry.family(named: "glider")?.vehicleModel(variant: nil)?.build(.defaults) is GliderModel)
        #expect(registry.family(named: "glider")?.vehicleModel(variant: "px4") == nil)
        #expect(registry.family(named: "crazyflie") == nil)
    }

    @Test("the glider follows a walker who turns: close to the standoff, never inside the protected radius, flying only its own set-points")
    func followsAWalker() throws {
        // Given the glider family from the registry, and a person walking east at 1.4 m/s who turns north at 40 s
        var registry = DroneFamilyRegistry([ARDroneFamily.self, MAVLinkFamily.self])
        registry.register(GliderFamily.self)
        let model = try #require(registry.family(named: "glider")?.vehicleModel(variant: nil))
        var follow = FollowParameters(standoffMeters: 11)
        follow.targetFixRateHz = 5
        let failsafe = FailsafeParameters()
        var flight = FlightLoopCore(machine: try FlightStateMachine(follow: follow, failsafe: failsafe, vehicle: model))
        let plane = LocalPlane(origin: GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!)
        func person(_ t: Double) -> PlaneVector {
            t < 40 ? PlaneVector(east: 1.4 * t, north: 0) : PlaneVector(east: 56, north: 1.4 * (t - 40))
        }
        var vehicle = GliderVehicle(position: PlaneVector(east: -10, north: 0))
        var command = LinkCommand.landed
        var connected = false
        var setpointsFlown = 0, distances: [Double] = [], closest = Double.infinity
        flight.start(now: .zero)
        func fixEvent(_ role: ReceiverRole, _ p: PlaneVector, _ t: Double) -> FlightLoopCore.Input {
            let c = plane.unproject(p)!
            let nanos = Int64((t * 1e9).rounded())
            return .gps(.fix(GPSFix(role: role, device: "/dev/\(role)", mode: .threeD,
                                    latitudeDegrees: c.latitudeDegrees, longitudeDegrees: c.longitudeDegrees,
                                    fixTime: FixTime(seconds: 1_700_000_000 + nanos / 1_000_000_000,
                                                     nanoseconds: Int32(nanos % 1_000_000_000)),
                                    receivedAt: MonotonicTime(seconds: t))!))
        }
        func handle(_ input: FlightLoopCore.Input, _ t: Double) {
            let step = flight.handle(input, now: MonotonicTime(seconds: t))
            if step.sendsCommand, let sent = step.command { command = sent }
        }
        // When the flight loop flies it for 80 s at 30 Hz, fixes at 5 Hz, telemetry at 15 Hz
        for tick in 0..<(80 * 30) {
            let t = Double(tick) / 30
            if tick % 6 == 0 {
                handle(fixEvent(.target, person(t), t), t)
                handle(fixEvent(.onboard, vehicle.position, t), t)
                let heading = HeadingReport(role: .onboard, device: "/dev/onboard",
                                            headingDegrees: vehicle.heading - follow.mountOffsetDegrees,
                                            receivedAt: MonotonicTime(seconds: t))!
                handle(.gps(.heading(heading)), t)
            }
            if tick % 2 == 0 {
                if !connected {
                    connected = true
                    handle(.link(.connected(droneWasFlying: false, desiredFlying: false, at: MonotonicTime(seconds: t))), t)
                    handle(.link(.configurationComplete(failedKeys: [], at: MonotonicTime(seconds: t))), t)
                }
                handle(.link(.telemetry(vehicle.telemetry(at: MonotonicTime(seconds: t)), sequence: tick / 2)), t)
            }
            handle(.tick, t)
            if command.setpoint != nil { setpointsFlown += 1 }
            vehicle.step(command, dt: 1.0 / 30)
            let range = (vehicle.position - person(t)).length
            if vehicle.flying { closest = min(closest, range) }
            if t >= 25, flight.machine.state == .following { distances.append(range) }
        }
        // Then it took off and followed on its own set-points
        #expect(flight.machine.state == .following, "\(flight.machine.state)")
        #expect(setpointsFlown > 1000)
        #expect(distances.count > 1000)
        let rms = (distances.map { ($0 - follow.standoffMeters) * ($0 - follow.standoffMeters) }.reduce(0, +)
                   / Double(distances.count)).squareRoot()
        print("glider family: range RMS error \(rms) m over \(distances.count) ticks, closest \(closest) m")
        #expect(rms < 1.0)
        // and never came inside the protected radius
        #expect(closest > failsafe.protectedRadiusMeters)
    }
}
