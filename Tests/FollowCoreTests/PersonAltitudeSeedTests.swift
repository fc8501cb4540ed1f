@testable import FollowCore
import Testing

/// How `PersonAltitudeFilter` starts and restarts: never from one fix, only from a run of fixes that agree
/// with each other within the rate gate (`seedFixCount` over `seedMinimumSeconds`), and re-seeded from
/// such a run of ignored fixes (a lasting step) instead of waiting for the gate to grow.
@Suite("Person altitude: seeding and re-seeding the filter")
struct PersonAltitudeSeedTests {
    /// The fixes a run needs at `rateHz` (`seedFixCount`, and enough to span `seedMinimumSeconds`): 3 at 1 Hz, 6 at 5 Hz.
    static func runLength(rateHz: Double) -> Int {
        max(PersonAltitudeFilter.seedFixCount, Int((PersonAltitudeFilter.seedMinimumSeconds * rateHz).rounded(.up)) + 1)
    }

    /// Feeds `altitudes` at `rateHz` from `start` seconds; returns what `note` answered for each.
    @discardableResult
    static func feed(_ filter: inout PersonAltitudeFilter, _ altitudes: [Double], rateHz: Double, from start: Double = 0) -> [Bool] {
        altitudes.enumerated().map { filter.note($0.element, at: MonotonicTime(seconds: start + Double($0.offset) / rateHz)) }
    }

    /// A filter seeded at 100 m by `rateHz` fixes and one more used, and the time of the next fix.
    static func seeded(rateHz: Double) -> (PersonAltitudeFilter, next: Double) {
        var filter = PersonAltitudeFilter()
        let count = runLength(rateHz: rateHz) + 1
        feed(&filter, Array(repeating: 100, count: count), rateHz: rateHz)
        return (filter, Double(count) / rateHz)
    }

    @Test("a first fix 40 m off (multipath), then good fixes: the spike is never used; seeded on the good ones",
          arguments: [(40.0, 1.0), (-40, 1), (40, 5), (-40, 5)])
    func firstFixSpike(offsetMeters: Double, rateHz: Double) {
        // Given a fresh filter, when the first fix is a spike and the rest are good (±0.5 m)
        var filter = PersonAltitudeFilter()
        let good = (0..<12).map { 100 + ($0.isMultiple(of: 2) ? 0.5 : -0.5) }
        var seededAfter: Int?
        for (index, altitude) in ([100 + offsetMeters] + good).enumerated() {
            let used = filter.note(altitude, at: MonotonicTime(seconds: Double(index) / rateHz))
            // Then the filter never holds a value near the spike
            if let value = filter.filteredMeters { #expect(abs(value - 100) < 1, "fix \(index): \(value) m") }
            if used, seededAfter == nil { seededAfter = index }
        }
        // And it seeded on the run-length-th good fix (the spike is fix 0), with nothing counted as a spike
        #expect(seededAfter == Self.runLength(rateHz: rateHz), "seeded at fix \(String(describing: seededAfter))")
        #expect(filter.spikesRejected == 0 && filter.reseeds == 0)
        #expect(abs((filter.filteredMeters ?? .nan) - 100) < 0.5)
    }

    @Test("a lasting +15 m step (a receiver re-acquiring): re-seeded within a run, then followed at the filter's pace",
          arguments: [1.0, 5])
    func lastingStepReseeds(rateHz: Double) {
        // Given a filter seeded at 100 m
        var (filter, next) = Self.seeded(rateHz: rateHz)
        let before = filter.filteredMeters
        // When every fix from now on is 15 m higher
        let n = Self.runLength(rateHz: rateHz)
        let used = Self.feed(&filter, Array(repeating: 115, count: n), rateHz: rateHz, from: next)
        // Then the first n − 1 are ignored and counted, the n-th re-seeds the gate (one re-seed)
        #expect(used == Array(repeating: false, count: n - 1) + [true])
        #expect(filter.spikesRejected == n - 1 && filter.reseeds == 1 && filter.lastUsedRawMeters == 115)
        // And the filter moves towards it by its time constant (no jump), and gets there
        // (at 1 Hz the 3 s since the last used fix is one time constant: all the way)
        #expect((filter.filteredMeters ?? 0) > (before ?? .infinity) && (filter.filteredMeters ?? .infinity) <= 115)
        if rateHz > 1 { #expect((filter.filteredMeters ?? .infinity) < 110) }
        next += Double(n) / rateHz
        let after = Self.feed(&filter, Array(repeating: 115, count: Int(15 * rateHz)), rateHz: rateHz, from: next)
        #expect(after.allSatisfy { $0 } && abs((filter.filteredMeters ?? 0) - 115) < 0.2, "\(String(describing: filter.filteredMeters))")
    }

    @Test("one spike (or two at 5 Hz) in the middle: ignored and counted, the filter unchanged, no re-seed",
          arguments: [(1, 1.0), (1, 5), (2, 5)])
    func spikeInTheMiddle(spikes: Int, rateHz: Double) {
        var (filter, next) = Self.seeded(rateHz: rateHz)
        let (value, reference) = (filter.filteredMeters, filter.lastUsedRawMeters)
        // When `spikes` fixes come 40 m low
        let used = Self.feed(&filter, Array(repeating: 60, count: spikes), rateHz: rateHz, from: next)
        // Then they are ignored and counted, and nothing else changed
        #expect(used == Array(repeating: false, count: spikes))
        #expect(filter.spikesRejected == spikes && filter.reseeds == 0)
        #expect(filter.filteredMeters == value && filter.lastUsedRawMeters == reference)
        // And the next good fix is used
        next += Double(spikes) / rateHz
        let usedNext = filter.note(100, at: MonotonicTime(seconds: next))
        #expect(usedNext)
    }

    @Test("fix-to-fix noise inside the gate (alternating ±1 m at 5 Hz, ±2 m at 1 Hz): seeds on the first run, every fix used",
          arguments: [(1.0, 5.0), (2, 1)])
    func noiseSeeds(amplitudeMeters: Double, rateHz: Double) {
        var filter = PersonAltitudeFilter()
        let altitudes = (0..<40).map { 100 + ($0.isMultiple(of: 2) ? amplitudeMeters : -amplitudeMeters) }
        let used = Self.feed(&filter, altitudes, rateHz: rateHz)
        let n = Self.runLength(rateHz: rateHz)
        #expect(used == Array(repeating: false, count: n - 1) + Array(repeating: true, count: altitudes.count - n + 1))
        #expect(filter.spikesRejected == 0 && filter.reseeds == 0)
        #expect(abs((filter.filteredMeters ?? .nan) - 100) < amplitudeMeters)
    }

    @Test("a spike, a minute without 3-D fixes, then good fixes: the old spike is out of the run and does not pull the seed",
          arguments: [1.0, 5])
    func spikeBeforeAGap(rateHz: Double) {
        // Given a first fix 40 m high, and the receiver in 2-D for 60 s (the gate then spans 182 m)
        var filter = PersonAltitudeFilter()
        filter.note(140, at: MonotonicTime(seconds: 0))
        // When good fixes come back (±0.5 m)
        let good = (0..<Self.runLength(rateHz: rateHz)).map { 100 + ($0.isMultiple(of: 2) ? 0.5 : -0.5) }
        Self.feed(&filter, good, rateHz: rateHz, from: 60)
        // Then the filter seeds on them alone (with the spike in the run and a mean it was 113 m at 1 Hz)
        #expect(filter.filteredMeters.map { abs($0 - 100) <= 0.5 } == true, "\(String(describing: filter.filteredMeters))")
    }

    // MARK: The flight while the filter has no value

    /// A person-mode world on an autopilot (ceiling 20 m, floor 1 m) whose person is at 400 m.
    static func personWorld() throws -> World {
        var follow = FollowParameters.testDefault
        follow.altitudeMode = .person
        (follow.altitudeCeilingMeters, follow.altitudeFloorMeters) = (20, 1)
        var world = try World(follow: follow, vehicle: AltitudeModeTests.autopilot)
        world.personAltitude = 400
        return world
    }

    @Test("person mode: the first fix 40 m high at take-off time — the take-off waits for agreeing fixes, home takes the good altitude")
    func takeOffWaitsForTheSeed() throws {
        // Given a person whose receiver's first 3-D fix is 40 m high, then right
        var world = try Self.personWorld()
        world.personAltitude = 440
        world.step()
        world.personAltitude = 400
        // When the world runs to following
        var waited = false
        let following = world.run(until: { state in
            if state.name.contains("target-altitude") { waited = true }
            return state == .following
        }, within: 30)
        // Then the take-off waited for the person's altitude, and home took 400 m, not the spike
        #expect(following != nil && waited, "\(world.state.name)")
        #expect(world.machine.personAltitudeAtHomeMeters.map { abs($0 - 400) < 0.5 } == true)
        world.run(for: 20)
        #expect(abs(world.machine.followAltitudeMeters() - world.machine.followParameters.altitudeMeters) < 0.05)
        #expect(world.state == .following && world.machine.personAltitude.spikesRejected == 0, "\(world.state.name)")
    }

    @Test("person mode: fixes that never agree keep the filter unseeded — no take-off (target-altitude); adopted in flight, it holds, named, at altitude_m")
    func unseededHolds() throws {
        // Given a person whose receiver alternates 40 m apart every fix (the filter never seeds)
        var world = try Self.personWorld()
        var flip = false
        for _ in 0..<(10 * 30) {
            world.personAltitude = flip ? 440 : 400
            if world.tick % 6 == 0 { flip.toggle() }
            world.step()
        }
        // Then it does not take off, and names what it waits for
        #expect(world.machine.personAltitudeMeters == nil)
        #expect(world.state.name == "preflight(waiting: target-altitude)", "\(world.state.name)")

        // Given the same receiver and a drone already flying (adopted: no preflight to wait in)
        var adopted = try Self.personWorld()
        (adopted.flightState, adopted.altitude) = (.flying, 3)
        var asked: Set<Double> = []
        for _ in 0..<(10 * 30) {
            adopted.personAltitude = flip ? 440 : 400
            if adopted.tick % 6 == 0 { flip.toggle() }
            adopted.step()
            asked.insert(adopted.machine.followAltitudeMeters())
        }
        // Then it holds for the person's altitude, and never asks for any height but altitude_m
        #expect(adopted.state == .holding(.targetAltitudeStale), "\(adopted.state.name)")
        #expect(asked == [adopted.machine.followParameters.altitudeMeters], "\(asked)")
    }

    @Test("person mode, adopted in flight before the filter seeds: home takes the person's altitude when it seeds during the climb")
    func adoptedSeedsDuringTheClimb() throws {
        // Given a drone already flying low (adopted, so no preflight to wait in) and a first fix 40 m high
        var world = try Self.personWorld()
        (world.flightState, world.altitude) = (.flying, 1)
        world.personAltitude = 440
        world.step()
        world.personAltitude = 400
        #expect(world.run(until: { $0 == .climbing }, within: 2) != nil, "\(world.state.name)")
        #expect(world.machine.personAltitudeAtHomeMeters == nil, "adopted before the seed")
        // When the good fixes seed the filter while it climbs
        let following = world.run(until: { $0 == .following }, within: 30)
        // Then home took 400 m (not the spike), and it follows instead of holding for target-altitude-stale
        #expect(following != nil, "\(world.state.name)")
        #expect(world.machine.personAltitudeAtHomeMeters.map { abs($0 - 400) < 0.5 } == true,
                "\(String(describing: world.machine.personAltitudeAtHomeMeters))")
        world.run(for: 10)
        #expect(world.state == .following, "\(world.state.name)")
    }
}
