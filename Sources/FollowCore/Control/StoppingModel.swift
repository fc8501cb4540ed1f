/// How much room the drone and the person need to stop, and the approach speed that still
/// leaves it: the physics behind the minimum-separation promise (docs/stopping-model.md).
///
/// - The drone brakes at `droneBrakingMetersPerSecondSquared` after `droneReactionSeconds`.
///   Both come from the tilt model, not from a constant: full tilt gives c1·c2·sin(maxTilt)
///   (3.47 m/s² at 20°, tum_ardrone constants), of which `brakingAuthorityFraction` is counted
///   on (the rest is left for attitude and estimate errors); a wind blowing the drone towards
///   the person takes c1·w off it. The reaction is the command latency + the tilt response
///   (`tiltTimeConstantSeconds`) + half the slew limiter's ramp from level to full tilt.
/// - The person is not a wall: someone moving away at u cannot stop dead. A walker stops within
///   one step and a runner within two or three (gait-termination studies, docs/stopping-model.md
///   §2), which is at most `personDecelerationMetersPerSecondSquared` (4 m/s², a bound: a harder
///   stop gives the drone *less* credit, so the bound is taken high). That credit is given only to
///   the extrapolated estimate; the *stop point* — the nearest place the person can be — is their
///   last measured position itself (a jogger can stop dead, and a receiver's position can; issue 22).
/// - The limit is on the closing speed: towards a point that moves away at u ≥ 0 and may stop
///   at `a_p`, the drone may approach at v with v·T + v²/(2·a_d) ≤ room + u²/(2·a_p); towards a
///   point that approaches (u < 0) and may keep coming, (v − u)·T + (v − u)²/(2·a_d) ≤ room.
///   `room` is the distance minus the protected radius; negative room means back off.
public struct StoppingModel: Sendable, Hashable {
    /// Braking the drone can count on, m/s² (wind not included; see `braking(windTowardsMetersPerSecond:)`).
    public let droneBrakingMetersPerSecondSquared: Double
    /// From "the person changed what they do" being known to braking at full rate, seconds.
    public let droneReactionSeconds: Double
    /// Hardest stop (or start) the person is assumed able to make, m/s².
    public let personDecelerationMetersPerSecondSquared: Double
    /// Drag rate c1, 1/s (wind acts as c1·w on the drone).
    public let dragRatePerSecond: Double

    /// The walking speed the shortest accepted standoff is sized for, m/s: preferred human
    /// walking speed, 1.4 m/s (docs/stopping-model.md §2). A jogger at the drone needs more room
    /// (docs/stopping-model.md §4 says how much).
    public static let walkerSpeedMetersPerSecond = 1.4
    /// Least braking ever assumed, m/s² (so a strong tail wind makes the drone keep far back
    /// rather than divide by zero).
    public static let minimumBrakingMetersPerSecondSquared = 0.3

    /// The model for `vehicle`: the AR.Drone's braking from its tilt model (above); an autopilot's
    /// from its own acceleration limit, which it brakes at after the command latency, half its jerk
    /// ramp (a/j) and its tracking lag (docs/stopping-model.md §7). An autopilot holds its velocity
    /// against the wind itself, so no wind term (`dragRatePerSecond` 0).
    public init(parameters: FollowParameters, tuning: ControllerTuning, vehicle: VehicleDynamics = .tiltLoop) {
        switch vehicle {
        case .tiltLoop:
            let sinMaxTilt = _sin(radians(fromDegrees: parameters.maxTiltDegrees))
            droneBrakingMetersPerSecondSquared = max(
                tuning.brakingAuthorityFraction * tuning.dragRatePerSecond * tuning.tiltSpeedMetersPerSecond * sinMaxTilt,
                Self.minimumBrakingMetersPerSecondSquared)
            droneReactionSeconds = tuning.commandLatencySeconds + tuning.tiltTimeConstantSeconds
                + 0.5 / tuning.tiltSlewPerSecond
            dragRatePerSecond = tuning.dragRatePerSecond
        case .velocityLoop(let autopilot):
            // The same share as for the tilt (`brakingAuthorityFraction`): a vehicle heavier, or tuned
            // softer, than the autopilot's defaults say brakes less (the off-model Copter: 1.8 m/s²).
            droneBrakingMetersPerSecondSquared = max(
                tuning.brakingAuthorityFraction * autopilot.maxAccelerationMetersPerSecondSquared,
                Self.minimumBrakingMetersPerSecondSquared)
            droneReactionSeconds = tuning.commandLatencySeconds + autopilot.responseTimeConstantSeconds
            dragRatePerSecond = 0
        }
        personDecelerationMetersPerSecondSquared = tuning.personDecelerationMetersPerSecondSquared
    }

    /// Braking with a wind of `w` m/s blowing the drone towards the person (negative: away).
    @inlinable
    public func braking(windTowardsMetersPerSecond w: Double) -> Double {
        max(droneBrakingMetersPerSecondSquared - dragRatePerSecond * max(w, 0), Self.minimumBrakingMetersPerSecondSquared)
    }

    /// Distance a person moving away at `u` m/s still covers if they stop as hard as they can.
    @inlinable
    public func personStoppingDistanceMeters(awaySpeedMetersPerSecond u: Double) -> Double {
        u > 0 ? u * u / (2 * personDecelerationMetersPerSecondSquared) : 0
    }

    /// The fastest the drone may move towards a point `roomMeters` outside the protected radius
    /// that moves away at `u` m/s (negative: towards the drone), braking at `braking`.
    /// Negative when it must back off (room < 0: `backOffGainPerSecond` per metre of intrusion,
    /// plus the person's approach speed; no credit for someone moving away inside the radius).
    public func allowedApproachSpeed(
        roomMeters room: Double, pointAwaySpeedMetersPerSecond u: Double, braking a: Double,
        backOffGainPerSecond: Double
    ) -> Double {
        let t = droneReactionSeconds
        // Inside the protected radius the drone never moves towards the person, whatever they do.
        guard room >= 0 else { return min(u, 0) + backOffGainPerSecond * room }
        if u >= 0 {
            let credited = room + personStoppingDistanceMeters(awaySpeedMetersPerSecond: u)
            return a * ((t * t + 2 * credited / a).squareRoot() - t)
        }
        // Closing speed c = v − u satisfies c·T + c²/(2a) ≤ room.
        return u + a * ((t * t + 2 * room / a).squareRoot() - t)
    }

    /// Room a standing person who starts walking at the drone at `speed` takes before the drone,
    /// told of it `informationLatencySeconds` later (fix period + gpsd latency), has matched their
    /// pace backing away, metres: speed·(latency + reaction) + speed²/(2·braking).
    public func approachReserveMeters(speedMetersPerSecond speed: Double, informationLatencySeconds: Double) -> Double {
        speed * (informationLatencySeconds + droneReactionSeconds)
            + speed * speed / (2 * droneBrakingMetersPerSecondSquared)
    }

    /// The shortest standoff that keeps the promise for a walker heading at the drone, metres:
    /// protected radius + aim margin + `approachReserveMeters` for `walkerSpeedMetersPerSecond`
    /// seen through one target fix period plus the GPS latency.
    public static func shortestDefensibleStandoffMeters(
        protectedRadiusMeters: Double, follow: FollowParameters, tuning: ControllerTuning,
        vehicle: VehicleDynamics = .tiltLoop
    ) -> Double {
        let model = StoppingModel(parameters: follow, tuning: tuning, vehicle: vehicle)
        let latency = 1 / follow.targetFixRateHz + follow.assumedGPSLatencySeconds
        return protectedRadiusMeters + tuning.separationMarginMeters
            + model.approachReserveMeters(speedMetersPerSecond: walkerSpeedMetersPerSecond,
                                          informationLatencySeconds: latency)
    }
}
