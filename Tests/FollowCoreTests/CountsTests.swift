@testable import FollowCore
import Testing

/// `Counts`, the counters behind `FixStatistics`, the drone link's and the GPS client's statistics.
@Suite("Counts: one Int per counter kind")
struct CountsTests {
    @Test("a counter starts at 0, adds up, and one set back to 0 equals one never touched")
    func zeroIsNotStored() {
        // Given: fresh statistics
        var statistics = FixStatistics()
        #expect(statistics[.accepted] == 0 && statistics.total == 0)

        // When: two counters count, then one is set back to 0
        statistics[.accepted] += 2
        statistics[.ignoredStale] += 1
        #expect(statistics[.accepted] == 2 && statistics.total == 3)
        statistics[.accepted] = 0

        // Then: equal (and hashing alike) to statistics that only ever counted the other one
        var other = FixStatistics()
        other[.ignoredStale] = 1
        #expect(statistics == other)
        #expect(Set([statistics, other]).count == 1)
        // and so are statistics made from a dictionary that names a 0
        #expect(FixStatistics([.ignoredStale: 1, .accepted: 0]) == other)
    }

    @Test("description names every counter in declaration order")
    func description() {
        var statistics = FixStatistics()
        statistics[.clockReanchors] = 4
        #expect(statistics.description == "accepted: 0, initialisations: 0, rejectedOutliers: 0, ignoredOutOfOrder: 0, "
            + "ignoredDuplicates: 0, rejectedFutureTimes: 0, ignoredStale: 0, refusedInaccurate: 0, clockReanchors: 4")
    }
}
