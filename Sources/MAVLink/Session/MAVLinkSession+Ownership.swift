import FollowCore

/// Whose flight the vehicle's is (docs/mavlink.md §7.14): FollowMe commands only its own.
public enum FlightOwner: Sendable, Hashable {
    /// Disarmed (or not heard yet): nobody's flight. FollowMe may start one (mode, ARM, take-off).
    case none
    /// Armed by FollowMe in this run (our ARM accepted, or the vehicle armed while our ARM was
    /// pending), or taken off by it (our NAV_TAKEOFF accepted): set-points, our mode, LAND.
    case followMe
    /// Armed in our mode (GUIDED / OFFBOARD) when the link first heard it: FollowMe's own flight before
    /// a restart, or a ground station's in GUIDED. Watched until the flight asks to fly it (`adopted`);
    /// a flight that only stays on the ground (preflight, a dry run) never commands it.
    case foundInOurMode
    /// Found in our mode and then flown by the flight (FollowMe's own flight before a restart): flown
    /// and landed like `followMe`, never taken off again.
    case adopted
    /// Armed by someone else — a pilot, a ground station, a mission — or found armed in another mode:
    /// watched, never commanded (no set-point, no mode change, no LAND) until it is disarmed.
    case someoneElse

    /// FollowMe may command this flight.
    var isOurs: Bool { self == .followMe || self == .adopted }
}

extension MAVLinkSession {
    /// The owner at the vehicle's first HEARTBEAT: armed in our mode → `foundInOurMode`; armed in another →
    /// `someoneElse`; disarmed → `none`. An emergency is nobody's to fly (only an explicit LAND goes out).
    mutating func adoptAtConnect() {
        guard vehicle.isArmed else {
            owner = .none
            return
        }
        owner = !vehicle.isEmergency && isIn(profile.control) ? .foundInOurMode : .someoneElse
    }

    /// The flight asks to fly a vehicle found in our mode: it is adopted (ours).
    mutating func claimIfFound(_ command: LinkCommand) {
        if command.flying, !command.released, owner == .foundInOurMode { owner = .adopted }
    }

    /// Arming and disarming change the owner: armed while our ARM is pending → `followMe`; armed
    /// otherwise → `someoneElse`; disarmed → `none`, and every per-flight counter and flag starts over
    /// (the next flight, anyone's, begins from nothing FollowMe knew of the last).
    mutating func noteArming(from previous: VehicleState) {
        guard previous.heartbeat != nil, previous.isArmed != vehicle.isArmed else { return }
        if vehicle.isArmed {
            // (Our ARM's ACK may come first: `accepted` already made it ours.)
            owner = pending?.request == .arm || owner == .followMe ? .followMe : .someoneElse
            return
        }
        owner = .none
        resetRecordingForNextFlight()
        flight = FlightProgress()
        flightFrame = nil
        (armAcceptedAt, modeAtArm) = (nil, nil)
        ownerAskedToLand = false
        controlRefusals = 0
        landRefusals = 0
        notInControlSince = nil
        reportedInControl = true
        notBefore[.setMode(profile.control)] = nil
    }

    /// FollowMe's take-off sequence on the ground, at each HEARTBEAT. ArduPilot (GUIDED → ARM → NAV_TAKEOFF):
    /// once one showed our GUIDED while the owner wants to fly, or once our GUIDED was accepted before this
    /// HEARTBEAT (ArduPilot changes mode before it answers), another mode on the ground is someone's. PX4 (ARM
    /// in the mode it is in → NAV_TAKEOFF): after our ARM was accepted and before our NAV_TAKEOFF was, a
    /// HEARTBEAT newer than the ARM's acceptance in another mode is someone's. Either stops the sequence (a
    /// pilot's switch, another ground station): `.released`, nothing asked again until the owner stops wanting
    /// to fly and asks anew (docs/mavlink.md §7.14); an armed vehicle becomes someone else's until it is
    /// disarmed — no LAND, no DISARM from FollowMe.
    mutating func noteGroundModeChange(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard desired.flying, !desired.released, !flyingAdopted, !takeoffOverruled,
              vehicle.heartbeat != nil, vehicle.isOnGround, owner == .none || owner == .followMe else { return }
        switch profile.autopilot {
        case .ardupilot:
            if isIn(profile.control) {
                controlModeSeenOnGround = true
                return
            }
            let acceptedBefore = controlModeAcceptedAt.map { now > $0 } ?? false
            guard controlModeSeenOnGround || acceptedBefore else { return }
        case .px4:
            guard !flight.takeoffAccepted, let armed = armAcceptedAt, now > armed,
                  let armedIn = modeAtArm, vehicle.customMode != armedIn else { return }
        }
        takeoffOverruled = true
        if vehicle.isArmed {
            owner = .someoneElse
            flight.released = true
        }
        if case .setMode? = pending?.request { pending = nil }
        if case .arm? = pending?.request { pending = nil }
        if case .takeoff? = pending?.request { pending = nil }
        let mode = profile.modeName(vehicle.customMode ?? 0)
        output.events.append(.released(
            mode: mode,
            reason: "switched to \(mode) on the ground during FollowMe's take-off (a pilot or another station): FollowMe does not take it back; a new START flies",
            at: now))
    }

    /// Someone else's flight is airborne (as the core's telemetry reads it): `.released` once, so the
    /// flight watches it instead of adopting it; after the telemetry of the same frame, so that the
    /// flight sees both before it decides.
    mutating func reportSomeoneElsesFlight(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard owner == .someoneElse, !flight.released, vehicle.flightState.isAirborne else { return }
        flight.released = true
        let mode = profile.modeName(vehicle.customMode ?? 0)
        output.events.append(.released(
            mode: mode, reason: "armed by someone else and airborne in \(mode): watching; FollowMe commands nothing",
            at: now))
    }
}
