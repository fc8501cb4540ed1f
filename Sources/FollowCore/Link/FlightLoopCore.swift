
/// The rules of one flight, as a value: what each input means to the `FlightStateMachine`, when it
/// decides, and which `LinkCommand` the link is handed (docs/architecture.md §2, §3.2). The one place
/// a flight runs the machine (`FlightLoop`, the closed-loop tests, the bench). Reads no clock and sends
/// nothing: `handle` returns what to send (docs/style.md habit 4). Nothing is sent before the machine
/// has seen telemetry (docs/ardrone-protocol.md §7.3); a dry run hands the link's adopted `flying` only.
package struct FlightLoopCore: Sendable {
    /// One thing that happened, handed to `handle(_:now:)` in order.
    package enum Input: Sendable {
        /// A GPS event from gpsd (a fix, a heading, a loss).
        case gps(GPSEvent)
        /// Something the link observed (telemetry, an autopilot's onboard fix, its own events).
        case link(LinkEvent)
        /// The link's periodic tick: run the control step at its cadence.
        case tick
        /// SIGTERM/SIGINT: land (unless the vehicle is released) and wait for telemetry to confirm it.
        case shutdown
        /// The operator's command, decided on and sent at once; `source` (`cli`, `watch`, `web`) is for the log.
        case operatorCommand(OperatorCommand, source: String)
        /// The operator's change of follow mode, decided on and sent at once.
        case followModeChange(FollowModeChange, source: String)
    }

    /// What one input made: the fix verdict and, when the core decided, the decision and the command.
    package struct Step: Sendable {
        /// What the core made of a GPS fix (a jump or an out-of-order fix is dropped); nil otherwise.
        package var fixOutcome: InputOutcome?
        /// The core's decision, when this input made one.
        package var decision: FlightDecision?
        /// The command for the link with `decision` (a dry run's: the adopted flying flag and hover).
        package var command: LinkCommand?
        /// Whether `command` is to be sent: false until the core has seen telemetry.
        package var sendsCommand = false
        /// Send it now rather than with the link's next tick (a new fix, a shutdown).
        package var immediately = false
        /// When the decision answers a GPS fix, the fix's `receivedAt` (the latency probe's start).
        package var fixReceivedAt: MonotonicTime?
        /// What the machine made of an operator's command or mode change, when the input was one.
        package var operatorOutcome: OperatorCommand.Outcome?

        package init() {}
    }

    /// The flight's state machine (read it; only `handle` changes it).
    package private(set) var machine: FlightStateMachine
    /// Dry run (`followme run --no-takeoff`): never change what the drone does.
    package let dryRun: Bool
    /// The drone is airborne (or landing) by its latest telemetry, or by the link's connect.
    package private(set) var droneAirborne = false
    /// Dry run: flying as the link adopted it; cleared for good once telemetry shows the ground.
    package private(set) var dryRunFlying = false
    /// The core's latest decision.
    package private(set) var lastDecision: FlightDecision?

    package init(machine: FlightStateMachine, dryRun: Bool = false) {
        self.machine = machine
        self.dryRun = dryRun
    }

    /// Call once before the first input: take-off waits for the link's configuration.
    package mutating func start(now: MonotonicTime) {
        machine.handle(.droneConfiguration(.pending), now: now)
    }

    /// One input, in order; returns what it made (see `Step`).
    package mutating func handle(_ input: Input, now: MonotonicTime) -> Step {
        var step = Step()
        switch input {
        case .gps(let event):
            handleGPS(event, now: now, step: &step)
        case .link(let event):
            handleLink(event, now: now, step: &step)
        case .tick:
            decide(now: now, immediately: false, step: &step)
        case .shutdown:
            machine.handle(.shutdownRequested, now: now)
            decide(now: now, immediately: true, step: &step)
        case .operatorCommand(let command, _):
            if case .operatorCommand(_, let outcome) = machine.handle(.operatorCommand(command), now: now) {
                step.operatorOutcome = outcome
            }
            decide(now: now, immediately: true, step: &step)
        case .followModeChange(let change, _):
            if case .followModeChange(_, let outcome) = machine.handle(.followModeChange(change), now: now) {
                step.operatorOutcome = outcome
            }
            decide(now: now, immediately: true, step: &step)
        }
        return step
    }

    private mutating func handleGPS(_ event: GPSEvent, now: MonotonicTime, step: inout Step) {
        switch event {
        case .fix(let fix):
            step.fixOutcome = machine.handle(.fix(fix), now: now)
            step.fixReceivedAt = fix.receivedAt
            decide(now: now, immediately: true, step: &step)
        case .heading(let report):
            machine.handle(.heading(report), now: now)
        case .lost, .connected, .gpsdError, .sky:
            break
        }
    }

    /// The rules of docs/architecture.md §3.2's table.
    private mutating func handleLink(_ event: LinkEvent, now: MonotonicTime, step: inout Step) {
        switch event {
        case .telemetry(let telemetry, _):
            droneAirborne = telemetry.flightState.isAirborne || telemetry.flightState == .landing
            if !droneAirborne { dryRunFlying = false }
            machine.handle(.telemetry(telemetry), now: now)
        case .onboard(let gps):
            // An autopilot's own fix speaks for the drone's receiver only.
            guard gps.role == .onboard else { return }
            handleGPS(gps, now: now, step: &step)
        case .connected(let wasFlying, let desiredFlying, _):
            droneAirborne = wasFlying
            dryRunFlying = desiredFlying
        case .configurationFailed(let key, _, _, _):
            machine.handle(.droneConfiguration(.failed(key: key)), now: now)
        case .configurationPending:
            machine.handle(.droneConfiguration(.pending), now: now)
        case .configurationComplete(let failedKeys, _):
            machine.handle(.droneConfiguration(failedKeys.first.map { .failed(key: $0) } ?? .done), now: now)
        case .vehicleBraking(let acceleration, let jerk, _):
            machine.handle(.vehicleBraking(accelerationMetersPerSecondSquared: acceleration, jerkMetersPerSecondCubed: jerk),
                           now: now)
        case .control(let inControl, _, _):
            machine.handle(.vehicleControl(inControl: inControl), now: now)
        case .released(let mode, _, _):
            machine.handle(.vehicleReleased(.vehicleLeftControl(mode: mode)), now: now)
        case .flightResumed(let frame, _):
            machine.handle(.flightResumed(frame), now: now)
        case .telemetryLost, .telemetryRestored, .configurationAcknowledged, .flyingCleared, .socketClosed, .camera,
             .socketReopened, .notice, .statistics:
            break
        }
    }

    /// Runs the state machine and makes its decision the link's command.
    private mutating func decide(now: MonotonicTime, immediately: Bool, step: inout Step) {
        let decision = machine.tick(now: now)
        lastDecision = decision
        let intent = decision.command.intent
        step.decision = decision
        let looksAtPerson = decision.state == .following || decision.state.kind == .holding
        step.command = dryRun
            ? LinkCommand(flying: dryRunFlying)
            : LinkCommand(flying: intent.wantsAirborne, motion: decision.command.motion,
                          released: intent == .release, land: intent == .land || intent == .emergency,
                          lookAt: looksAtPerson ? machine.personCoordinate(now: now) : nil,
                          lookAtRiseMeters: looksAtPerson ? machine.personRiseMeters : nil,
                          frame: intent.wantsAirborne ? machine.flightFrame : nil)
        step.sendsCommand = machine.telemetry != nil
        // The family's set-point, made once for each command sent (its velocity loop steps with it).
        if step.sendsCommand, var command = step.command {
            command.setpoint = machine.setpoint(for: command)
            step.command = command
        }
        step.immediately = immediately
    }
}
