import Testing
@testable import FlightService

/// `[target] rate_hz` and `[onboard] rate_hz`: "max", "device" or a number of Hz, 0.5–20.
@Suite("rate_hz: the fix rate asked of gpsd")
struct ReceiverRateConfigTests {
    @Test("defaults: target max, onboard device")
    func defaults() throws {
        let c = try TestDocument.flyable().parse().get()
        #expect(c.target.rate == .max)
        #expect(c.onboard.rate == .device)
    }

    @Test("accepted values", arguments: [
        ("\"max\"", FollowMeConfiguration.ReceiverRate.max),
        ("\"device\"", .device),
        ("5", .hertz(5)),
        ("0.5", .hertz(0.5)),
        ("20", .hertz(20)),
        ("7.5", .hertz(7.5)),
    ])
    func accepted(_ text: String, _ expected: FollowMeConfiguration.ReceiverRate) throws {
        for table in ["target", "onboard"] {
            // (a slow target rate needs a longer standoff: the walker rule, CrossFieldTests)
            let c = try TestDocument.flyable([(table, "rate_hz", text), ("follow", "standoff_m", "14")]).parse().get()
            #expect((table == "target" ? c.target.rate : c.onboard.rate) == expected)
        }
    }

    @Test("rejected values name FILE:LINE: KEY", arguments: [
        ("\"fast\"", "\"fast\" is not \"max\", \"device\" or a number 0.5 to 20"),
        ("0.2", "0.2 is out of range"),
        ("25", "25 is out of range"),
        ("nan", "nan is out of range"),
        ("true", "expected \"max\", \"device\" or a number 0.5 to 20, found boolean true"),
    ])
    func rejected(_ text: String, _ message: String) throws {
        let doc = TestDocument.flyable("target.rate_hz", text)
        let found = problems(in: doc.text)
        #expect(found.count == 1, "\(found)")
        let line = try #require(doc.line(of: "target.rate_hz"))
        let description = found.first?.description ?? ""
        #expect(description.hasPrefix("\(TestDocument.path):\(line): target.rate_hz: "), "\(description)")
        #expect(description.contains(message), "\(description)")
    }

    @Test("rendering round-trips every form")
    func roundTrip() throws {
        for text in ["\"max\"", "\"device\"", "5", "12.5"] {
            let c = try TestDocument.flyable([("target", "rate_hz", text), ("onboard", "rate_hz", text)]).parse().get()
            let again = try FollowMeConfiguration.parse(toml: c.renderedTOML(), path: "rendered")
            #expect(again == c)
        }
    }
}
