import Foundation
import Testing
import TestSupport

/// `followme gps --json` shows the rate each receiver delivers and what gpsd answered to the rate
/// asked by `rate_hz`: the sim serves the person at 10 Hz and the drone at 5 Hz to one real gpsd.
@Suite struct GPSCommandRateTests {
    @Test("fix lines carry the delivered rate_hz per role; rate lines say what gpsd answered",
          .timeLimit(.minutes(2)))
    func deliveredRates() async throws {
        // Given the sim's person NMEA at 10 Hz and its onboard NMEA at 5 Hz, read by one gpsd.
        // When `followme gps --json` runs with target.rate_hz = "max" (the default) and
        // onboard.rate_hz = "device" (the default), for 80 fixes (~5 s).
        let run = try await GPSCommandRun.run(count: 80, simArguments: ["--person-rate-hz", "10"])
        let r = run.result, objects = run.objects

        // Then the last fix of each role carries the rate it delivers (within 15 %).
        func lastRate(_ role: String) -> Double? {
            objects.last { $0["role"] as? String == role && $0["lat"] != nil && $0["rate_hz"] != nil }?["rate_hz"] as? Double
        }
        let target = try #require(lastRate("target"), "no target fix with rate_hz in:\n\(r.stdout.suffix(2000))")
        let onboard = try #require(lastRate("onboard"), "no onboard fix with rate_hz in:\n\(r.stdout.suffix(2000))")
        print("[rate] followme gps: target \(target) Hz (sim 10), onboard \(onboard) Hz (sim 5)")
        #expect(abs(target - 10) / 10 < 0.15, "target \(target) Hz")
        #expect(abs(onboard - 5) / 5 < 0.15, "onboard \(onboard) Hz")

        // And a rate line for the target says the 10 Hz request went to gpsd, which cannot confirm
        // a network source's cycle; the onboard receiver was left alone (no request).
        let rateLines = objects.filter { $0["event"] as? String == "rate" }
        let targetControls = rateLines.filter { $0["role"] as? String == "target" }.compactMap { $0["control"] as? String }
        #expect(targetControls.contains("unconfirmed"), "target rate lines: \(targetControls)")
        #expect(rateLines.filter { $0["role"] as? String == "target" }.allSatisfy { $0["requested"] as? String == "max" })
        let onboardControls = rateLines.filter { $0["role"] as? String == "onboard" }.compactMap { $0["control"] as? String }
        #expect(!onboardControls.isEmpty && onboardControls.allSatisfy { $0 == "device-default" },
                "onboard rate lines: \(onboardControls)")
    }
}
