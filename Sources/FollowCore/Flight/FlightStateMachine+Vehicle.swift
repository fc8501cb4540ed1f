/// What an autopilot adds to the flight: its braking limits read from the vehicle, whether the link
/// controls it, a take-over (`released`), and its altitude being above home (`HoldReason.personAboveDrone`).
extension FlightStateMachine {
    mutating func handleVehicle(_ input: FollowInput) -> InputOutcome {
        switch input {
        case .vehicleBraking(let acceleration, let jerk):
            guard controller.vehicle.isAutopilot else { return .brakingNoted }
            controller.useReportedLimits(accelerationMetersPerSecondSquared: acceleration, jerkMetersPerSecondCubed: jerk)
            shortestDefensibleStandoffMeters = StoppingModel.shortestDefensibleStandoffMeters(
                protectedRadiusMeters: failsafeParameters.protectedRadiusMeters, follow: followParameters,
                tuning: controller.tuning, vehicle: controller.vehicle)
            return .brakingNoted
        case .vehicleControl(let inControl):
            linkInControl = inControl
            return .controlNoted
        case .vehicleReleased(let reason):
            // Before take-off about a vehicle on the ground: nothing to let go of. Airborne, or once we fly,
            // it holds for the rest of the run; before any telemetry it waits for telemetry to tell.
            let onGround = telemetry.map { !$0.flightState.isAirborne } ?? false
            let down = state.kind == .preflight || state.kind == .landed
            if releasedBecause == nil, !down || !onGround { releasedBecause = reason }
            return .releaseNoted
        case .flightResumed(let frame):
            // Only for a flight adopted in the air.
            guard hasBeenAirborne, state.kind != .preflight, state.kind != .landed, state.kind != .released else { return .flightResumeNoted }
            resumedFrame = frame
            applyResumedFrame()
            return .flightResumeNoted
        default:
            preconditionFailure("handleVehicle takes the vehicle inputs only")
        }
    }

    /// A resumed flight's frame, as far as it can be applied (home once the local plane exists, the person's
    /// altitude at home once their altitude is known). Once per tick.
    mutating func applyResumedFrame() {
        guard var frame = resumedFrame else { return }
        guard state.kind != .preflight, state.kind != .landed, state.kind != .released else {
            resumedFrame = nil
            return
        }
        if let plane = navigator.plane { home = plane.project(frame.home) }
        if let rise = frame.personRiseMeters, let person = personAltitudeMeters {
            personAltitudeAtHomeMeters = person - rise
            frame.personRiseMeters = nil
        }
        let homeDone = navigator.plane != nil
        resumedFrame = homeDone && frame.personRiseMeters == nil ? nil : frame
    }

    /// The family's set-point for `command`, as it goes out (`VehicleModel.setpoint(for:)`): once per command sent.
    public mutating func setpoint(for command: LinkCommand) -> VehicleSetpoint? {
        controller.vehicle.setpoint(for: command)
    }

    /// The flight's own frame for the link to keep (`LinkCommand.frame`); nil before home is set.
    public var flightFrame: FlightFrame? {
        guard let home, let coordinate = navigator.plane?.unproject(home) else { return nil }
        return FlightFrame(home: coordinate, personRiseMeters: personRiseMeters)
    }

    /// Released (`FlightState.released`): the transition into it, or out of it (landed, emergency).
    mutating func releasedTransition(now: MonotonicTime, fresh: Bool) -> FlightTransition? {
        // Nothing of ours applies any more (no hold, battery, wind or shutdown rule) until it is down.
        guard let reason = releasedBecause else { return nil }
        switch state {
        case .released:
            return releasedDown(fresh: fresh, now: now)
        case .landed, .emergency:
            break
        case .preflight:
            if let telemetry, fresh, telemetry.flightState.isAirborne, !telemetry.emergency {
                if vehicleSeenOnGround { (watchingFromPreflight, operatorStarted) = (true, false) } else { hasBeenAirborne = true }
                return move(to: .released(reason), .vehicleReleased, now)
            }
            if let telemetry, fresh, telemetry.flightState == .landed { releasedBecause = nil }
        default:
            holdingSince = nil
            return move(to: .released(reason), .vehicleReleased, now)
        }
        return nil
    }

    /// Airborne while in preflight: an autopilot seen on the ground in this run was launched by someone
    /// else and is watched (`released`), spending a START given before; otherwise it is adopted.
    mutating func adoptOrWatch(now: MonotonicTime) -> FlightTransition {
        if controller.vehicle.isAutopilot, vehicleSeenOnGround {
            (watchingFromPreflight, operatorStarted) = (true, false)
            return move(to: .released(.someoneElsesFlight), .someoneElsesFlight, now)
        }
        hasBeenAirborne = true
        home = drone.estimate(at: now)?.position
        personAltitudeAtHomeMeters = personAltitudeMeters
        if let reason = holdReason(now: now) {
            holdingSince = now
            return move(to: .holding(reason), .adoptedInFlight, now)
        }
        return move(to: altitudeReached() ? .following : .climbing, .adoptedInFlight, now)
    }

    /// After our own flight: an autopilot airborne again after it was seen on the ground is someone
    /// else's flight, watched until it is down.
    mutating func watchSomeoneElsesFlight(fresh: Bool, now: MonotonicTime) -> FlightTransition? {
        guard controller.vehicle.isAutopilot, vehicleSeenOnGround, let telemetry, fresh,
              telemetry.flightState.isAirborne, !telemetry.emergency else { return nil }
        return move(to: .released(releasedBecause ?? .someoneElsesFlight), .someoneElsesFlight, now)
    }

    /// Released and down: `landed`; or `preflight` again for someone else's flight that began while we
    /// waited, or for our take-off stopped on the ground (then waiting for a START, `startRequired`).
    mutating func releasedDown(fresh: Bool, now: MonotonicTime) -> FlightTransition? {
        guard let telemetry, fresh, !telemetry.emergency, telemetry.flightState == .landed else {
            return downOrEmergency(fresh: fresh, landed: .landedWhileReleased, now: now)
        }
        releasedBecause = nil
        linkInControl = true
        guard watchingFromPreflight || !hasBeenAirborne else { return move(to: .landed, .landedWhileReleased, now) }
        if !watchingFromPreflight { (startRequired, operatorStarted) = (true, false) }
        (watchingFromPreflight, hasBeenAirborne, holdingSince) = (false, false, nil)
        return move(to: .preflight(waitingFor: missingPrerequisites(now: now)), .landedWhileReleased, now)
    }

    /// Notes an autopilot on the ground while no flight of ours is under way (preflight, landed).
    mutating func noteVehicleOnGround(fresh: Bool) {
        guard state.kind == .preflight || state.kind == .landed, let telemetry, fresh,
              telemetry.flightState == .landed else { return }
        vehicleSeenOnGround = true
    }

    /// The person-above-drone clock (`personAboveDrone(now:)` reads it), once per tick.
    mutating func updatePersonAboveDroneClock(now: MonotonicTime) {
        if controller.vehicle.isAutopilot, let telemetry, let altitude = personAltitudeMeters,
           let atHome = personAltitudeAtHomeMeters,
           telemetry.altitudeMeters - (altitude - atHome) < Self.terrainMarginMeters {
            if personAboveDroneSince == nil { personAboveDroneSince = now }
        } else {
            personAboveDroneSince = nil
        }
    }

    /// `personAboveDrone` holds when the person's rise since take-off comes within this of the drone's
    /// height above home, metres (docs/flight-safety-faults.md §5).
    public static let terrainMarginMeters = 1.0
    /// …and clears once the clearance exceeds the margin by this much, metres (hysteresis).
    public static let terrainResumeMarginMeters = 0.5
    /// The condition must last this long before it holds, seconds (one noisy fix must not).
    public static let terrainConfirmSeconds = 1.0


    /// Landing for `reason` before an autopilot ever left the ground (its take-off aborted, a hold that
    /// expired while it would not arm): it waits in preflight once it reports the ground, and flies when
    /// everything passes again (docs/flight-safety-faults.md §5) — but not after SIGTERM or an operator's LAND.
    mutating func takeOffAbortedOnGround(_ reason: LandReason, fresh: Bool, now: MonotonicTime) -> FlightTransition? {
        guard reason != .shutdown, reason != .operatorCommand, !hasBeenAirborne, controller.vehicle.isAutopilot,
              let telemetry, fresh, !telemetry.emergency, telemetry.flightState == .landed else { return nil }
        return move(to: .preflight(waitingFor: missingPrerequisites(now: now)), .takeOffAbortedOnGround, now)
    }
}
