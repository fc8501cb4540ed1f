import FollowCore
import MemberwiseInit

/// What a flight sends a drone link on every decision: fly or not, and how.
///
/// Link-neutral: the AR.Drone link turns it into REF bit 9 and a progressive PCMD
/// (docs/ardrone-protocol.md §2.3); a MAVLink link into its own take-off/land and velocity
/// set-points (docs/architecture.md §3).
@MemberwiseInit
public struct LinkCommand: Sendable, Hashable {
    /// Take off / stay airborne (true) or land / stay landed (false).
    public var flying: Bool
    /// The pilot fractions in [−1, 1] of the drone's configured maxima; nil = hover (hold position).
    public var pilot: PilotCommand?

    /// Stay (or go) on the ground, hovering meanwhile.
    public static let landed = LinkCommand(flying: false, pilot: nil)
}
