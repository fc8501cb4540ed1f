import FollowCore
import Synchronization

/// A bound on the live status streams served at once (`CockpitSettings.maxStreams`), and on those of
/// one address (`maxPerClient`): each stream holds a `Slot`, given back when the slot is released (the
/// stream ended, or its response was dropped before it ran), so no path leaks a place.
///
/// A paired phone always gets a slot: when every place is taken it takes the oldest unpaired
/// stream's, whose `evicted` turns true (its stream ends at its next look). An unpaired stream lives
/// at most `unpairedLifetimeSeconds`, then ends (the page's EventSource reconnects), so held streams
/// cannot keep the places for ever.
final class StreamSlots: Sendable {
    let limit: Int
    let maxPerClient: Int
    /// How long an unpaired stream may run, seconds: our choice; the page reconnects after 2 s.
    static let unpairedLifetimeSeconds = 300.0

    private struct Open {
        var client: String
        var paired: Bool
        var opened: MonotonicTime
        var evicted: Bool
    }

    private struct Table {
        var open: [Int: Open] = [:]
        var nextID = 0
    }

    private let table = Mutex(Table())

    init(limit: Int, maxPerClient: Int = 4) { (self.limit, self.maxPerClient) = (limit, maxPerClient) }

    /// Why a stream got no place.
    enum Refusal: Error, Equatable {
        case full(limit: Int)
        case tooManyFromClient(limit: Int)
    }

    /// A place for one more stream from `client`, or why not.
    func take(client: String, paired: Bool, now: MonotonicTime) -> Result<Slot, Refusal> {
        let outcome: Result<Int, Refusal> = table.withLock { table in
            let live = table.open.filter { !$0.value.evicted }
            if !paired, live.values.filter({ $0.client == client && !$0.paired }).count >= maxPerClient {
                return .failure(.tooManyFromClient(limit: maxPerClient))
            }
            if live.count >= limit {
                guard paired, let oldest = live.filter({ !$0.value.paired }).min(by: { $0.value.opened < $1.value.opened })?.key else {
                    return .failure(.full(limit: limit))
                }
                table.open[oldest]?.evicted = true
            }
            table.nextID += 1
            table.open[table.nextID] = Open(client: client, paired: paired, opened: now, evicted: false)
            return .success(table.nextID)
        }
        return outcome.map { Slot(owner: self, id: $0) }
    }

    /// Streams open now (an evicted one counts until it has ended).
    var count: Int { table.withLock { $0.open.count } }

    /// Whether the stream holding `slot` must end at `now`: evicted for a paired phone, or an
    /// unpaired one past its lifetime.
    func mustEnd(_ slot: Slot, now: MonotonicTime) -> Bool {
        table.withLock { table in
            guard let open = table.open[slot.id] else { return true }
            return open.evicted || (!open.paired && now.seconds(since: open.opened) >= Self.unpairedLifetimeSeconds)
        }
    }

    fileprivate func release(_ id: Int) { _ = table.withLock { $0.open.removeValue(forKey: id) } }

    /// One stream's place; given back in `deinit`.
    final class Slot: Sendable {
        private let owner: StreamSlots
        fileprivate let id: Int

        fileprivate init(owner: StreamSlots, id: Int) { (self.owner, self.id) = (owner, id) }

        deinit { owner.release(id) }
    }
}
