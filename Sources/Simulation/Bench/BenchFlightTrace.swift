import FollowCore

/// What FollowMe's flight was fed in one bench run and what it made of it, input by input: the same
/// inputs can be handed to `followme run`'s `FlightLoop` and the two compared (OneFlightLoopTests).
package struct BenchFlightTrace: Sendable {
    /// One input and its time, and the flight's answer.
    package struct Entry: Sendable {
        package var input: FlightLoopCore.Input
        package var now: MonotonicTime
        /// The decision it made, if any, and the command the bench's link was handed.
        package var step: FlightLoopCore.Step
    }

    /// The flight's state machine as the bench built it, before the flight started (at t = 0).
    package var machine: FlightStateMachine
    package var entries: [Entry] = []

    package init(machine: FlightStateMachine) {
        self.machine = machine
    }
}
