import FollowCore

/// FollowCore's command for one tick → the tick's `AT*REF` (docs/ardrone-protocol.md §2.3), for code
/// that holds a `DroneCommand` rather than a flight's `LinkCommand`: the control-step benchmark
/// (Performance/). A flight's command reaches the AR.Drone as `LinkCommand` → REF bit 9 = `flying`,
/// PCMD = `ProgressiveCommand(pilot:)` below of the set-point `TiltVehicleModel` made: the one
/// mapping `DroneLink.send` and the bench's simulated link (`Simulation/Bench/BenchLink.swift`) both use.
extension DroneCommand {
    /// `AT*REF` input: the SDK base bits, bit 9 = `intent.wantsAirborne`; never the emergency
    /// toggle (bit 8), which no flight decision sends on its own (docs/ardrone-protocol.md §7.4).
    public var refInput: REFInput { REFInput(flying: intent.wantsAirborne) }
}

extension ProgressiveCommand {
    /// The PCMD for one pilot command: each fraction as `Float` with the progressive flag
    /// (bit 0) set, or hover (flag 0) when `pilot` is nil. `ProgressiveCommand`'s own rules apply:
    /// finite values clamped to [−1, 1], a non-finite one turns the whole command into hover.
    public init(pilot: PilotCommand?) {
        guard let pilot else {
            self = .hover
            return
        }
        self.init(flags: [.progressive], rollFraction: Float(pilot.roll), pitchFraction: Float(pilot.pitch),
                  gazFraction: Float(pilot.gaz), yawFraction: Float(pilot.yaw))
    }
}
