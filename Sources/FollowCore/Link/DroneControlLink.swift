/// The drone link as a flight drives it, whatever the drone: the seam between the flight loop
/// (`FlightService`'s `FlightLoop`) and a link that talks to one drone (docs/architecture.md §3).
///
/// The flight sends a `LinkCommand` on every decision; the link keeps re-sending the latest one at
/// its own cadence (a drone's com watchdog expects a steady stream: docs/ardrone-protocol.md §2.2)
/// and delivers what it observes — `LinkEvent`s and its ticks — to the handlers its owner gave it
/// when it was made, on the flight's executor. `DroneLink` (the AR.Drone 2.0 over UDP) is one; a
/// test drives the loop with a fake one that records the commands; a MAVLink link is another.
public protocol DroneControlLink: AnyObject, Sendable {
    /// Opens the link; events and ticks flow to the owner's handlers from now on.
    func start() async throws
    /// Stops sending (does not land: that is the owner's job, by command, before this).
    func stop() async
    /// Sets the command every following send carries. `immediately`: send it now instead of at the
    /// next tick (a new GPS fix must not wait for the cadence). `reflecting`: when this decision
    /// answers a GPS fix, the fix's `receivedAt` (for the fix-to-datagram latency probe,
    /// PERFORMANCE.md).
    ///
    /// Returns what the link made of the command, for the flight to handle before its next decision:
    /// a link that closes the velocity loop itself (the AR.Drone's tilt loop) returns
    /// `.commandSent` with the tilt it commanded; a link that sends the motion as is returns nil.
    @discardableResult
    func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?) -> LinkEvent?
    /// A snapshot of the link's counters in the neutral vocabulary; nil when not running.
    func linkStatistics() async -> LinkStatistics?
    /// The fix-to-datagram latency so far; nil when not running.
    func fixLatency() async -> LatencyHistogram?
    /// Where the link goes, for the log (e.g. `192.168.1.1:5556/5554`).
    var peerDescription: String { get }
}
