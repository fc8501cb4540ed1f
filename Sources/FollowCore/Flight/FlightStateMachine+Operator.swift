/// A command from the person in the field (cockpit, `followme land|hold|resume|start`, `watch`): the
/// human's word, which wins over following and over the hold clock.
public enum OperatorCommand: String, Sendable, Hashable, CaseIterable {
    /// Take off now: in preflight with every other prerequisite met (it also lifts a HOLD given before
    /// take-off). Required with `FailsafeParameters.takeOffOnStart`.
    case start
    /// Stop following and hover at the point (before take-off: do not take off), until RESUME.
    case hold
    /// Lift an operator's HOLD: follow again (before take-off: take off when everything else holds).
    case resume
    /// Land now (before take-off: do not take off, as HOLD).
    case land

    /// What the machine made of a command.
    public enum Outcome: Sendable, Hashable {
        /// Taken: the next tick acts on it.
        case accepted
        /// Nothing to do: already so (a second HOLD, RESUME without a HOLD, LAND while landing).
        case alreadySo
        /// Refused: an emergency, a vehicle released to a pilot or its own failsafe, or the flight is over.
        case refused(FlightStateKind)
        /// START refused: these preflight prerequisites are not met yet.
        case notReady(Prerequisites)

        /// `accepted`, `already`, `refused:<state>`, `refused:waiting <prerequisites>` (log, socket, cockpit).
        public var name: String {
            switch self {
            case .accepted: "accepted"
            case .alreadySo: "already"
            case .refused(let kind): "refused:\(kind.name)"
            case .notReady(let missing): "refused:waiting " + missing.names.joined(separator: ",")
            }
        }

        /// Taken or already so (the command line's exit 0).
        public var isAccepted: Bool {
            switch self {
            case .accepted, .alreadySo: true
            case .refused, .notReady: false
            }
        }
    }
}

extension FlightStateKind {
    /// `preflight`, `taking-off`, … (kebab-case like the state names).
    public var name: String {
        switch self {
        case .preflight: "preflight"
        case .takingOff: "taking-off"
        case .climbing: "climbing"
        case .following: "following"
        case .holding: "holding"
        case .landing: "landing"
        case .landed: "landed"
        case .emergency: "emergency"
        case .released: "released"
        }
    }
}

extension FlightStateMachine {
    /// Takes an operator's command; the next tick acts on it (LAND right after emergency and shutdown;
    /// HOLD the lowest hold reason).
    mutating func accept(_ command: OperatorCommand, now: MonotonicTime) -> OperatorCommand.Outcome {
        switch state.kind {
        case .emergency, .released, .landed:
            return .refused(state.kind)
        case .landing:
            return command == .land ? .alreadySo : .refused(.landing)
        case .takingOff, .climbing, .following, .holding:
            if command == .start { return .refused(state.kind) }
        case .preflight:
            break
        }
        switch command {
        case .start:
            let missing = missingPrerequisites(now: now).subtracting([.operatorResume, .operatorStart])
            guard missing.isEmpty else { return .notReady(missing) }
            let waitsForStart = (failsafeParameters.takeOffOnStart || startRequired) && !operatorStarted
            if !operatorHold, !waitsForStart { return .alreadySo }
            operatorHold = false
            operatorStarted = true
        case .land where state.kind != .preflight:
            if operatorLand { return .alreadySo }
            operatorLand = true
        case .hold, .land:
            // On the ground LAND means what HOLD means: stay down until RESUME.
            if operatorHold { return .alreadySo }
            operatorHold = true
        case .resume:
            if !operatorHold { return .alreadySo }
            operatorHold = false
        }
        return .accepted
    }
}

extension FlightStateMachine {
    /// Takes a change of follow mode for the next tick; refused from landing on, in an emergency and when
    /// released; `alreadySo` when it changes nothing.
    mutating func accept(_ change: FollowModeChange) -> OperatorCommand.Outcome {
        switch state.kind {
        case .emergency, .released, .landed, .landing:
            return .refused(state.kind)
        case .preflight, .takingOff, .climbing, .following, .holding:
            break
        }
        let changed = change.applied(to: followParameters)
        guard changed != followParameters else { return .alreadySo }
        followParameters = changed
        controller.changeFollowMode(change)
        return .accepted
    }
}
