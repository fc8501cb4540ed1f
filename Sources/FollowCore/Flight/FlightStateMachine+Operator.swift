/// A command from the person in the field (the phone cockpit, `followme land|hold|resume`, a key in
/// `followme watch`): the human's word, which wins over following and over the hold clock.
public enum OperatorCommand: String, Sendable, Hashable, CaseIterable {
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
        /// Refused in this state: an emergency, the vehicle released to a pilot or its autopilot's own
        /// failsafe (never overruled), or the flight is over (landed).
        case refused(FlightStateKind)

        /// `accepted`, `already`, `refused:<state>` (the flight log's and the status socket's word).
        public var name: String {
            switch self {
            case .accepted: "accepted"
            case .alreadySo: "already"
            case .refused(let kind): "refused:\(kind)"
            }
        }
    }
}

extension FlightStateMachine {
    /// Takes an operator's command; the transition happens at the next tick (`advance`), where LAND
    /// comes right after an emergency and a shutdown, and HOLD is the lowest hold reason.
    mutating func accept(_ command: OperatorCommand) -> OperatorCommand.Outcome {
        switch state.kind {
        case .emergency, .released, .landed:
            return .refused(state.kind)
        case .landing:
            return command == .land ? .alreadySo : .refused(.landing)
        case .preflight, .takingOff, .climbing, .following, .holding:
            break
        }
        switch command {
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
