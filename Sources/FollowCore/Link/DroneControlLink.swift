/// The drone link as a flight drives it, whatever the drone: the seam between `FlightLoop` and a link to
/// one drone (docs/architecture.md §3). The link re-sends the latest `LinkCommand` at its own cadence and
/// delivers `LinkEvent`s and ticks to its owner's handlers on the flight's executor.
public protocol DroneControlLink: AnyObject, Sendable {
    /// Opens the link; events and ticks flow to the owner's handlers from now on.
    func start() async throws
    /// Stops sending (does not land: that is the owner's job, by command, before this).
    func stop() async
    /// Sets the command every following send carries. `immediately`: send it now, not at the next tick.
    /// `reflecting`: the answered fix's `receivedAt` (the latency probe, PERFORMANCE.md).
    func send(_ command: LinkCommand, immediately: Bool, reflecting fixReceivedAt: MonotonicTime?)
    /// A snapshot of the link's counters in the neutral vocabulary; nil when not running.
    func linkStatistics() async -> LinkStatistics?
    /// The fix-to-datagram latency so far; nil when not running.
    func fixLatency() async -> LatencyHistogram?
    /// Where the link goes, for the log (e.g. `192.168.1.1:5556/5554`).
    var peerDescription: String { get }
}
