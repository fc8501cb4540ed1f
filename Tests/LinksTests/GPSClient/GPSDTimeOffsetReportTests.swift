@testable import Links
import Testing

/// gpsd's TOFF report read from the raw JSON line (libgps ≤ 3.24 cannot decode it).
@Suite("GPSDTimeOffsetReport: TOFF from the raw gpsd line")
struct GPSDTimeOffsetReportTests {
    /// A line gpsd 3.22 sent for a `tcp://` source writing GGA + RMC 150 ms after each second (captured
    /// on this machine, 2026-12-07; 3.22 writes a space after `real_sec`'s comma).
    static let gpsd322Line = #"{"class":"TOFF","device":"tcp://127.0.0.1:40895","real_sec":1796646925, "real_nsec":0,"clock_sec":1796646925,"clock_nsec":150440304}"#

    @Test("a gpsd 3.22 TOFF line gives its device, both times and the delay clock − real")
    func gpsd322() throws {
        let report = try #require(GPSDTimeOffsetReport.parse(line: Self.gpsd322Line))
        #expect(report.device == "tcp://127.0.0.1:40895")
        #expect(report.realSeconds == 1_796_646_925 && report.realNanoseconds == 0)
        #expect(report.clockSeconds == 1_796_646_925 && report.clockNanoseconds == 150_440_304)
        #expect(abs(report.delaySeconds - 0.150440304) < 1e-9)
    }

    @Test("3.24's extra fields are ignored; a delay across a second boundary and a negative one come out right")
    func laterFieldsAndSigns() throws {
        let later = #"{"class":"TOFF","device":"/dev/ttyACM0","real_sec":100,"real_nsec":900000000,"clock_sec":101,"clock_nsec":50000000,"precision":-1,"shm":"NTP2"}"#
        #expect(abs(try #require(GPSDTimeOffsetReport.parse(line: later)).delaySeconds - 0.15) < 1e-9)
        let behind = #"{"class":"TOFF","real_sec":100,"real_nsec":20000000,"clock_sec":100,"clock_nsec":0}"#
        let report = try #require(GPSDTimeOffsetReport.parse(line: behind))
        #expect(abs(report.delaySeconds + 0.02) < 1e-9)
        #expect(report.device == "")
    }

    @Test("lines that are not a whole TOFF give nothing", arguments: [
        #"{"class":"TPV","real_sec":1,"real_nsec":0,"clock_sec":1,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"/dev/x","real_sec":1,"real_nsec":0,"clock_sec":1}"#,
        #"{"class":"TOFF","real_sec":1.5,"real_nsec":0,"clock_sec":1,"clock_nsec":0}"#,
        #"{"class":"TOFF","real_sec":1,"real_nsec":1000000000,"clock_sec":1,"clock_nsec":0}"#,
        #"{"class":"TOFF","real_sec":1,"real_nsec":0,"clock_sec":1,"clock_nsec":-1}"#,
        #"{"class":"TOFF","real_sec":"1","real_nsec":0,"clock_sec":1,"clock_nsec":0}"#,
        #"{"class":"TOFF","real_sec":1e300,"real_nsec":0,"clock_sec":1,"clock_nsec":0}"#,
        #"{"class":"TOFF","real_sec":1,"real_nsec":0,"clock_sec":1,"clock_nsec":0"#,
        "",
    ])
    func rejected(_ line: String) {
        #expect(GPSDTimeOffsetReport.parse(line: line) == nil)
    }

    @Test("the delay of times far apart never traps")
    func farApart() {
        let report = GPSDTimeOffsetReport(device: "", realSeconds: .min, realNanoseconds: 999_999_999,
                                          clockSeconds: .max, clockNanoseconds: 0)
        #expect(report.delaySeconds.isFinite && report.delaySeconds > 1e18)
    }
}
