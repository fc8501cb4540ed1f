@testable import FlightService
@testable import FollowCore
import Logging
import Testing

/// The level of the `flight state` log line, which becomes the journal's priority under systemd:
/// holds and landings must be found by `journalctl -p warning`, forced landings by `-p err`.
@Suite("Transition log level: holds and landings warning, forced landings error")
struct TransitionLogLevelTests {
    @Test("the state a transition enters decides its level", arguments: [
        (FlightState.holding(.targetStale), Logger.Level.warning),
        (.holding(.geofence), .warning),
        (.landing(.shutdown), .warning),
        (.landing(.holdExpired(.targetStale)), .error),
        (.landing(.lowBattery), .error),
        (.landing(.criticalBattery), .error),
        (.landing(.droneInitiated), .error),
        (.landing(.takeOffAborted([.targetClear])), .error),
        (.emergency, .error),
        (.following, .notice),
        (.takingOff, .notice),
        (.climbing, .notice),
        (.landed, .notice),
        (.preflight(waitingFor: [.telemetry]), .notice),
    ])
    func level(_ state: FlightState, _ level: Logger.Level) {
        #expect(state.transitionLogLevel == level, "\(state.name)")
    }
}
