@testable import Simulation
@testable import FollowCore
import Testing

/// `followme bench --receiver-latency S`: the simulated receivers deliver each fix S seconds after its
/// epoch, and the flight dates each by its receiver's measured age.
@Suite("bench receiver latency: fixes aged by what the meter measures")
struct BenchReceiverLatencyTests {
    static func configuration(latency: Double?) -> BenchConfiguration {
        var c = BenchConfiguration(seed: 1, durationSeconds: 20, personStartSeconds: 15, settleSeconds: 15)
        c.receiverLatencySeconds = latency
        return c
    }

    /// Every receiver fix the flight got, in order.
    static func fixes(latency: Double?, link: BenchLink = .ardrone) throws -> [GPSFix] {
        let trace = try BenchRunner.flightTrace(.straightWalk(), noise: .clean, configuration: configuration(latency: latency),
                                                link: link)
        return trace.entries.compactMap { entry in
            if case .gps(.fix(let fix)) = entry.input { return fix }
            return nil
        }
    }

    @Test("with the knob, each receiver's fixes get the configured age until 5 samples, then the latency measured",
          arguments: [0.0, 0.12, 0.3])
    func measured(latency: Double) throws {
        let fixes = try Self.fixes(latency: latency)
        for role in ReceiverRole.allCases {
            let ages = fixes.filter { $0.role == role }.map(\.age)
            #expect(ages.count > 50, "\(role)")
            // The first four: too few samples, the configured 0.3 s
            #expect(ages.prefix(4).allSatisfy { $0 == FixAge(seconds: 0.3, source: .config(.fewSamples)) }, "\(role)")
            // From the fifth on: the delivery delay, measured against the simulated (trusted) clock
            for age in ages.dropFirst(4) {
                #expect(age?.source == .clock(.fixTime))
                #expect(abs((age?.seconds ?? -1) - latency) < 1e-6, "\(role): \(String(describing: age))")
            }
        }
    }

    @Test("without the knob, fixes carry no age of their own (the configured latency applies)")
    func defaultKeepsConfigured() throws {
        let fixes = try Self.fixes(latency: nil)
        #expect(!fixes.isEmpty && fixes.allSatisfy { $0.age == nil })
    }

    @Test("the knob's range is 0…0.6 s")
    func range() {
        #expect(throws: BenchError.self) { try Self.configuration(latency: 0.61).validate() }
        #expect(throws: BenchError.self) { try Self.configuration(latency: -0.01).validate() }
        #expect(throws: BenchError.self) { try Self.configuration(latency: .nan).validate() }
        #expect(throws: Never.self) { try Self.configuration(latency: 0.6).validate() }
    }
}
