import FollowCore

/// How every mutation fuzzer here builds one input: now and then a purely random one (`randomOneIn`),
/// otherwise a copy of a corpus entry with `mutationCount` mutations applied. The draws happen in this
/// order, so a seed gives the same inputs as long as the callbacks draw the same way.
package func makeMutatedInput(
    into input: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64,
    randomOneIn: Int, mutationCount: ClosedRange<Int>,
    random: (inout [UInt8], inout SplitMix64) -> Void,
    mutate: (inout [UInt8], inout SplitMix64) -> Void
) -> Bool {
    input.removeAll(keepingCapacity: true)
    if rng.chance(1, in: randomOneIn) {
        random(&input, &rng)
        return false
    }
    input.append(contentsOf: rng.pick(corpus))
    for _ in 0..<rng.nextInt(in: mutationCount) {
        mutate(&input, &rng)
    }
    return true
}
