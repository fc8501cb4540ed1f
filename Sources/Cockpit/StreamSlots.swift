import Synchronization

/// A bound on the live status streams served at once (`CockpitSettings.maxStreams`): each stream holds
/// a `Slot`, and the slot gives its place back when it is released (the stream ended, or its response
/// was dropped before it ran), so no path leaks a place.
final class StreamSlots: Sendable {
    let limit: Int
    private let open = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// A place for one more stream, or nil when `limit` are open.
    func take() -> Slot? {
        let taken = open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return taken ? Slot(owner: self) : nil
    }

    /// Streams open now.
    var count: Int { open.withLock { $0 } }

    fileprivate func release() { open.withLock { $0 -= 1 } }

    /// One stream's place; given back in `deinit`.
    final class Slot: Sendable {
        private let owner: StreamSlots

        fileprivate init(owner: StreamSlots) { self.owner = owner }

        deinit { owner.release() }
    }
}
