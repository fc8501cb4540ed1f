@testable import Links
@testable import FollowCore
import Testing
import TestSupport

/// Each receiver's fix age measured through a real gpsd: a `tcp://` source stamps its sentences with
/// the real UTC epoch and writes them a known delay later; gpsd's TOFF reports give that delay back.
@Suite("fix age through a real gpsd")
struct FixAgeGPSDTests {
    /// The source's output delay, seconds, and how far the measurement may be from it.
    static let delaySeconds = 0.150
    static let toleranceSeconds = 0.030

    @Test("a receiver writing 150 ms after each epoch is measured at 150 ms from gpsd's TOFF; latency_source config measures nothing",
          .timeLimit(.minutes(1)))
    func measuredThroughGPSD() async throws {
        // Given a 5 Hz receiver that writes each epoch's GGA + RMC 150 ms after it, read by gpsd
        let source = try EpochNMEAServer(rateHz: 5, delaySeconds: Self.delaySeconds, position: TestSources.targetStart)
        source.start()
        defer { source.stop() }
        try await GPSDProcesses.withGPSD(label: "fix-age", devices: [source.gpsdSource]) { _, gpsd in
            // When one role trusts the host clock by config (a test machine's clock may be unsynchronised)
            // and the other never measures
            let harness = ClientHarness.start([
                .local(.target, port: gpsd.port, device: source.gpsdSource, latencySource: .clock),
                .local(.onboard, port: gpsd.port, device: source.gpsdSource, latencySource: .config),
            ])
            defer { harness.stop() }
            let measured = await harness.recorder.waitUntil(timeoutSeconds: 12) { events in
                harness.client.fixAge(for: .target).source == .clock(.toff) && events.of(.onboard).fixes.count >= 3
            }
            let age = harness.client.fixAge(for: .target)
            let samples = harness.client.fixAgeSamples(for: .target)
            let stats = harness.client.statistics(for: .target)
            print("[latency] gpsd TOFF: measured \(Int((age.seconds * 1000).rounded())) ms for a source writing "
                + "\(Int(Self.delaySeconds * 1000)) ms after each epoch (\(age.source.name), \(age.source.reason); "
                + "\(stats[.timeOffsets]) TOFF, samples \(samples))")

            // Then the target's age is the delay, from TOFF, and its latest fix carries it
            #expect(measured, "no measured age in 12 s: \(age), \(samples), \(stats), \(source.epochsWritten) epochs written")
            #expect(age.source == .clock(.toff))
            #expect(abs(age.seconds - Self.delaySeconds) <= Self.toleranceSeconds, "measured \(age.seconds) s")
            #expect(stats[.timeOffsets] >= FixAgeMeter.minimumSamples && stats[.badTimeOffsets] == 0, "\(stats)")
            let lastFix = try #require(harness.events.of(.target).fixes.last)
            let fixAge = try #require(lastFix.age)
            #expect(fixAge.source.name == "clock" && abs(fixAge.seconds - Self.delaySeconds) <= Self.toleranceSeconds,
                    "\(fixAge)")
            // And the role that never measures watched no TOFF and ages by its configured value, saying why
            #expect(harness.client.statistics(for: .onboard)[.timeOffsets] == 0)
            let onboard = try #require(harness.events.of(.onboard).fixes.last?.age)
            #expect(onboard == FixAge(seconds: 0.3, source: .config(.configured)))
        }
    }

    @Test("under a gpsfake replay the receiver's times are years off: the configured age, because the samples are implausible",
          .timeLimit(.minutes(1)))
    func replayFallsBack() async throws {
        // Given gpsfake looping a 2034 NMEA log, read by a role that trusts the host clock
        let dir = try TestDirectory(label: "fix-age-replay")
        defer { dir.remove() }
        let log = try dir.copyFixture("bu353s4.log")
        let gpsfake = try await GPSDProcesses.startGPSFake(logs: [log], in: dir, cycleSeconds: 0.01, oneShot: false)
        defer { gpsfake.process.stop() }
        let harness = ClientHarness.start([.local(.target, port: gpsfake.port, device: nil, latencySource: .clock)])
        defer { harness.stop() }
        // When enough of its fixes arrived to fill the meter's minimum
        let arrived = await harness.recorder.waitUntil(timeoutSeconds: 20) { events in
            events.of(.target).fixes.count >= 2 * FixAgeMeter.minimumSamples
        }
        // Then no garbage age: the configured one, saying why
        #expect(arrived, "\(harness.events.suffix(3))")
        let age = harness.client.fixAge(for: .target)
        print("[latency] gpsfake replay: \(age.source.name) (\(age.source.reason)), samples \(harness.client.fixAgeSamples(for: .target))")
        #expect(age == FixAge(seconds: 0.3, source: .config(.implausible)))
        #expect(harness.events.of(.target).fixes.last?.age?.source == .config(.implausible))
    }
}
