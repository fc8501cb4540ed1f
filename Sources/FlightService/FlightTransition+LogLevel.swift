import FollowCore
import Logging

extension FlightState {
    /// The level the transition into this state is logged at, so the journal's priority filter
    /// (`journalctl -u followme -p warning`) finds every hold and landing and `-p err` every landing
    /// the pilot did not ask for.
    ///
    /// - a hold, or a landing that was asked for (SIGTERM: `landing(shutdown)`, the operator's LAND:
    ///   `landing(operator)`): warning;
    /// - a landing the flight was forced into (a hold that expired, low or critical battery, an
    ///   aborted take-off, the drone landing by itself) and the drone reporting an emergency: error;
    /// - everything else (preflight, take-off, climb, following, landed): notice.
    var transitionLogLevel: Logger.Level {
        switch self {
        case .holding, .landing(.shutdown), .landing(.operatorCommand): .warning
        case .landing, .emergency: .error
        default: .notice
        }
    }
}
