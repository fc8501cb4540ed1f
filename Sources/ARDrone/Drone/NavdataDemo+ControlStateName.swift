import ARDrone

extension NavdataDemo {
    /// The CTRL_STATES name of the demo's major state, e.g. "LANDED" (docs/ardrone-protocol.md §3.4),
    /// as `followme drone` prints it (status line, state descriptions, `--json` lower-cased).
    var controlStateName: String {
        switch controlState {
        case .defaultState: "DEFAULT"
        case .initializing: "INIT"
        case .landed: "LANDED"
        case .flying: "FLYING"
        case .hovering: "HOVERING"
        case .test: "TEST"
        case .transitionTakeoff: "TAKING OFF"
        case .transitionGotoFix: "GOTO FIX"
        case .transitionLanding: "LANDING"
        case .transitionLooping: "LOOPING"
        case nil: "STATE \(controlStateMajor)"
        }
    }
}
