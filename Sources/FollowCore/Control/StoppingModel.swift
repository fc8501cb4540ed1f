/// How much room the drone and the person need to stop, and the approach speed that still leaves it
/// (docs/stopping-model.md §1–4, §7): the drone brakes at `droneBrakingMetersPerSecondSquared` after
/// `droneBrakingReactionSeconds` and backs off at `droneEscapeMetersPerSecondSquared` after `droneReactionSeconds`; a person moving away at u is credited u²/(2·a_p); the cap is on the closing
/// speed. Room is the distance minus the protected radius; negative room means back off.
public struct StoppingModel: Sendable, Hashable {
    /// Braking the drone can count on, m/s² (wind not included; see `braking(windTowardsMetersPerSecond:)`).
    public let droneBrakingMetersPerSecondSquared: Double
    /// From "the person changed what they do" being known to full authority from level flight, seconds.
    public let droneReactionSeconds: Double
    /// From a command to braking at full rate while cruising towards the point, seconds (≥ `droneReactionSeconds`).
    public let droneBrakingReactionSeconds: Double
    /// Acceleration away from rest the drone can count on, m/s² (≤ braking: the cruise tilt's on the AR.Drone).
    public let droneEscapeMetersPerSecondSquared: Double
    /// Hardest stop (or start) the person is assumed able to make, m/s².
    public let personDecelerationMetersPerSecondSquared: Double
    /// Braking a wind towards the person takes away per m/s of it, 1/s (`VehicleModel.windDragRatePerSecond`).
    public let dragRatePerSecond: Double

    /// The walking speed the shortest accepted standoff is sized for, m/s (docs/stopping-model.md §2, §4).
    public static let walkerSpeedMetersPerSecond = 1.4
    /// Least braking ever assumed, m/s² (a strong tail wind makes the drone keep far back, never divide by zero).
    public static let minimumBrakingMetersPerSecondSquared = 0.3

    /// The model for `vehicle` (docs/stopping-model.md §1, §7).
    public init(parameters: FollowParameters, tuning: ControllerTuning, vehicle: VehicleModelBuilder) {
        self.init(parameters: parameters, tuning: tuning, vehicle: vehicle.build(parameters))
    }

    public init(parameters: FollowParameters, tuning: ControllerTuning, vehicle: any VehicleModel) {
        droneBrakingMetersPerSecondSquared = max(
            vehicle.brakingAccelerationMetersPerSecondSquared(authorityFraction: tuning.brakingAuthorityFraction),
            Self.minimumBrakingMetersPerSecondSquared)
        droneEscapeMetersPerSecondSquared = min(max(
            vehicle.escapeAccelerationMetersPerSecondSquared(authorityFraction: tuning.brakingAuthorityFraction),
            Self.minimumBrakingMetersPerSecondSquared), droneBrakingMetersPerSecondSquared)
        droneReactionSeconds = vehicle.reactionSeconds(commandLatencySeconds: tuning.commandLatencySeconds)
        droneBrakingReactionSeconds = max(vehicle.brakingReactionSeconds(commandLatencySeconds: tuning.commandLatencySeconds),
                                          droneReactionSeconds)
        dragRatePerSecond = vehicle.windDragRatePerSecond
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

    /// The fastest the drone may move towards a point `roomMeters` outside the protected radius that moves
    /// away at `u` m/s (negative: towards the drone), m/s. Negative = back off: inside the radius,
    /// `backOffGainPerSecond` per metre plus the point's approach speed, no credit for moving away.
    public func allowedApproachSpeed(
        roomMeters room: Double, pointAwaySpeedMetersPerSecond u: Double, braking a: Double,
        backOffGainPerSecond: Double
    ) -> Double {
        let t = droneReactionSeconds
        guard room >= 0 else { return min(u, 0) + backOffGainPerSecond * room }
        if u >= 0 {
            let tb = droneBrakingReactionSeconds
            let credited = room + personStoppingDistanceMeters(awaySpeedMetersPerSecond: u)
            return a * ((tb * tb + 2 * credited / a).squareRoot() - tb)
        }
        // Closing speed c = v − u satisfies c·T + c²/(2a) ≤ room, with what backing off can count on.
        let escape = min(a, droneEscapeMetersPerSecondSquared * a / droneBrakingMetersPerSecondSquared)
        return u + escape * ((t * t + 2 * room / escape).squareRoot() - t)
    }

    /// Room a standing person who starts walking at the drone at `speed` takes before the drone,
    /// told of it `informationLatencySeconds` later (fix period + gpsd latency), has matched their
    /// pace backing away, metres: speed·(latency + reaction) + speed²/(2·escape acceleration).
    public func approachReserveMeters(speedMetersPerSecond speed: Double, informationLatencySeconds: Double) -> Double {
        speed * (informationLatencySeconds + droneReactionSeconds)
            + speed * speed / (2 * droneEscapeMetersPerSecondSquared)
    }

    /// The shortest standoff that keeps the promise for a walker heading at the drone, metres:
    /// protected radius + aim margin + `approachReserveMeters` for `walkerSpeedMetersPerSecond`
    /// seen through one target fix period plus the GPS latency.
    public static func shortestDefensibleStandoffMeters(
        protectedRadiusMeters: Double, follow: FollowParameters, tuning: ControllerTuning,
        vehicle: VehicleModelBuilder
    ) -> Double {
        shortestDefensibleStandoffMeters(protectedRadiusMeters: protectedRadiusMeters, follow: follow, tuning: tuning,
                                         vehicle: vehicle.build(follow))
    }

    public static func shortestDefensibleStandoffMeters(
        protectedRadiusMeters: Double, follow: FollowParameters, tuning: ControllerTuning,
        vehicle: any VehicleModel
    ) -> Double {
        let model = StoppingModel(parameters: follow, tuning: tuning, vehicle: vehicle)
        let latency = 1 / follow.targetFixRateHz + follow.assumedGPSLatencySeconds
        return protectedRadiusMeters + tuning.separationMarginMeters
            + model.approachReserveMeters(speedMetersPerSecond: walkerSpeedMetersPerSecond,
                                          informationLatencySeconds: latency)
    }
}
