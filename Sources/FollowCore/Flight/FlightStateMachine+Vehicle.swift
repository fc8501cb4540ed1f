/// What an autopilot adds to the flight (issue 22): its braking limits read from the vehicle, whether
/// the link controls it, a pilot's or its own failsafe's take-over (`released`), and its altitude
/// being above home rather than above the ground (`HoldReason.personAboveDrone`).
extension FlightStateMachine {
    mutating func handleVehicle(_ input: FollowInput) -> InputOutcome {
        switch input {
        case .vehicleBraking(let acceleration, let jerk):
            guard case .velocityLoop(var response) = controller.vehicle else { return .brakingNoted }
            if let acceleration, acceleration.isFinite, acceleration > 0 { response.maxAccelerationMetersPerSecondSquared = acceleration }
            if let jerk, jerk.isFinite, jerk > 0 { response.maxJerkMetersPerSecondCubed = jerk }
            controller.useAutopilotResponse(response)
            shortestDefensibleStandoffMeters = StoppingModel.shortestDefensibleStandoffMeters(
                protectedRadiusMeters: failsafeParameters.protectedRadiusMeters, follow: followParameters,
                tuning: controller.tuning, vehicle: controller.vehicle)
            return .brakingNoted
        case .vehicleControl(let inControl):
            linkInControl = inControl
            return .controlNoted
        case .vehicleReleased(let reason):
            // Heard before take-off about a vehicle on the ground (armed by someone else, then disarmed):
            // nothing to let go of. Airborne, or once we fly, it holds for the rest of the run.
            // (Before any telemetry it is kept until telemetry tells: airborne → released; on the ground → forgotten.)
            let onGround = telemetry.map { !$0.flightState.isAirborne } ?? false
            if releasedBecause == nil, state.kind != .preflight || !onGround { releasedBecause = reason }
            return .releaseNoted
        default:
            preconditionFailure("handleVehicle takes the vehicle inputs only")
        }
    }

    /// Released (`FlightState.released`): the transition into it, or out of it (landed, emergency).
    mutating func releasedTransition(now: MonotonicTime, fresh: Bool) -> FlightTransition? {
        // A pilot or the autopilot's failsafe took the vehicle: nothing of ours applies any more — no
        // hold, battery, wind or shutdown rule lands it — until it is on the ground.
        guard let reason = releasedBecause else { return nil }
        switch state {
        case .released:
            return downOrEmergency(fresh: fresh, landed: .landedWhileReleased, now: now)
        case .landed, .emergency:
            break
        case .preflight:
            // Found flying in someone else's hands: adopted as released, never flown by us.
            if let telemetry, fresh, telemetry.flightState.isAirborne, !telemetry.emergency {
                hasBeenAirborne = true
                return move(to: .released(reason), .vehicleReleased, now)
            }
            // On the ground: nothing to let go of (someone armed it and disarmed it again).
            if let telemetry, fresh, telemetry.flightState == .landed { releasedBecause = nil }
        default:
            holdingSince = nil
            return move(to: .released(reason), .vehicleReleased, now)
        }
        return nil
    }

    /// The person-above-drone clock (`personAboveDrone(now:)` reads it), once per tick.
    mutating func updatePersonAboveDroneClock(now: MonotonicTime) {
        if case .velocityLoop = controller.vehicle, let telemetry, let altitude = personAltitudeMeters,
           let atHome = personAltitudeAtHomeMeters,
           telemetry.altitudeMeters - (altitude - atHome) < Self.terrainMarginMeters {
            if personAboveDroneSince == nil { personAboveDroneSince = now }
        } else {
            personAboveDroneSince = nil
        }
    }

    /// `personAboveDrone` holds when the person's rise since take-off comes within this of the drone's
    /// height above home, metres (our choice: a metre of clear air over the ground the person stands on).
    public static let terrainMarginMeters = 1.0
    /// …and clears once the clearance exceeds the margin by this much, metres (hysteresis).
    public static let terrainResumeMarginMeters = 0.5
    /// The condition must last this long before it holds, seconds (one noisy fix must not).
    public static let terrainConfirmSeconds = 1.0

}
