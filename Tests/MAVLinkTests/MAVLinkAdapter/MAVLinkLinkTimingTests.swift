@testable import FollowCore
@testable import MAVLink
import Testing

/// `MAVLinkLinkConfiguration.Timing`: every field is checked against the range its doc states, and
/// the configuration refuses a value outside it, naming the field.
@Suite("MAVLinkLinkConfiguration.Timing ranges")
struct MAVLinkLinkTimingTests {
    typealias Timing = MAVLinkLinkConfiguration.Timing

    /// Each field, how to set it, and the range its doc comment states (written here independently).
    static let fields: [(name: String, set: @Sendable (inout Timing, Double) -> Void, range: ClosedRange<Double>)] = [
        ("tickIntervalSeconds", { $0.tickIntervalSeconds = $1 }, 0.01...0.1),
        ("heartbeatIntervalSeconds", { $0.heartbeatIntervalSeconds = $1 }, 0.2...1),
        ("telemetrySilenceSeconds", { $0.telemetrySilenceSeconds = $1 }, 0.2...2),
        ("commandAckTimeoutSeconds", { $0.commandAckTimeoutSeconds = $1 }, 0.1...5),
        ("commandMaxAttempts", { $0.commandMaxAttempts = Int($1) }, 1...10),
        ("refusedRetrySeconds", { $0.refusedRetrySeconds = $1 }, 0.5...30),
        ("acceptedSettleSeconds", { $0.acceptedSettleSeconds = $1 }, 0.5...5),
        ("statisticsIntervalSeconds", { $0.statisticsIntervalSeconds = $1 }, 0.1...60),
    ]

    static func configuration(_ timing: Timing) throws(ParameterError) -> MAVLinkLinkConfiguration {
        try MAVLinkLinkConfiguration(
            setpoints: SessionHarness.testLimits,
            takeoffAltitudeMeters: 3, timing: timing)
    }

    @Test("the defaults are the documented ones and are accepted")
    func defaults() throws {
        let timing = Timing()
        #expect(timing.tickIntervalSeconds == 1.0 / 30 && timing.heartbeatIntervalSeconds == 1)
        #expect(timing.telemetrySilenceSeconds == 1 && timing.commandAckTimeoutSeconds == 1 && timing.commandMaxAttempts == 5)
        #expect(timing.refusedRetrySeconds == 2 && timing.acceptedSettleSeconds == 1.5 && timing.statisticsIntervalSeconds == 1)
        #expect(try Self.configuration(timing).timing == timing)
    }

    @Test("both ends of a field's range are accepted; one step outside either end is refused, naming the field",
          arguments: fields)
    func range(_ field: (name: String, set: @Sendable (inout Timing, Double) -> Void, range: ClosedRange<Double>)) throws {
        // Given the defaults with one field at an end of its range, then just outside it
        let step = field.name == "commandMaxAttempts" ? 1 : field.range.lowerBound / 10
        for (value, accepted) in [(field.range.lowerBound, true), (field.range.upperBound, true),
                                  (field.range.lowerBound - step, false), (field.range.upperBound + step, false)] {
            var timing = Timing()
            field.set(&timing, value)
            // When a configuration is made with it, then it is accepted or refused with the field's name
            if accepted {
                #expect(throws: Never.self) { try Self.configuration(timing) }
            } else {
                #expect(throws: ParameterError.outOfRange(parameter: field.name, value: value, allowed: field.range)) {
                    try Self.configuration(timing)
                }
            }
        }
    }
}
