import ARDroneAdapter
import ARDroneProtocol
import FollowCore
import Observations
import MemberwiseInit

/// What a flight sends a drone link on every decision: fly or not, and how.
///
/// Link-neutral: the AR.Drone link turns it into REF bit 9 and a progressive PCMD
/// (docs/ardrone-protocol.md §2.3); another link (e.g. MAVLink, issue 16) into its own
/// take-off/land and velocity set-points.
@MemberwiseInit
public struct LinkCommand: Sendable, Hashable {
    /// Take off / stay airborne (true) or land / stay landed (false).
    public var flying: Bool
    /// The pilot fractions in [−1, 1] of the drone's configured maxima; nil = hover (hold position).
    public var pilot: PilotCommand?

    /// Stay (or go) on the ground, hovering meanwhile.
    public static let landed = LinkCommand(flying: false, pilot: nil)
}

/// The drone link as a flight drives it, whatever the drone: the seam between the flight loop
/// (`FlightService`'s `FlightLoop`) and a link that talks to one drone.
///
/// The flight sends a `LinkCommand` on every decision; the link keeps re-sending the latest one at
/// its own cadence (a drone's com watchdog expects a steady stream: docs/ardrone-protocol.md §2.2)
/// and delivers what it observes — telemetry, `DroneLinkEvent`s, ticks — to the handlers its owner
/// gave it when it was made, on the flight's executor. `DroneLink` (the AR.Drone 2.0 over UDP) is
/// one; a test drives the loop with a fake one that records the commands, and a MAVLink link
/// (issue 16) will be another.
public protocol DroneControlLink: AnyObject, Sendable {
    /// Opens the link; telemetry, events and ticks flow to the owner's handlers from now on.
    func start() async throws
    /// Stops sending (does not land: that is the owner's job, by command, before this).
    func stop() async
    /// Sets the command every following send carries. `immediately`: send it now instead of at the
    /// next tick (a new GPS fix must not wait for the cadence). `reflecting`: when this decision
    /// answers a GPS fix, the fix's `receivedAt` (for the fix-to-datagram latency probe,
    /// PERFORMANCE.md).
    func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?)
    /// A snapshot of the link's counters; nil when not running.
    func statistics() async -> DroneLinkStatistics?
    /// The fix-to-datagram latency so far; nil when not running.
    func fixLatency() async -> LatencyHistogram?
    /// Where the link goes, for the log (e.g. `192.168.1.1:5556/5554`).
    var peerDescription: String { get }
}

extension DroneLink: DroneControlLink {
    /// REF bit 9 = `flying`, PCMD = `pilot` as progressive fractions or hover (DroneCommand+AT.swift,
    /// docs/ardrone-protocol.md §2.3).
    public func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) {
        setDesired(flying: command.flying, pilot: ProgressiveCommand(pilot: command.pilot),
                   sendImmediately: immediately, reflecting: fixReceivedAt)
    }

    public var peerDescription: String {
        "\(configuration.address):\(configuration.atPort)/\(configuration.navdataPort)"
    }
}
