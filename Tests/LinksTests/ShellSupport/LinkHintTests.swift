@testable import Links
import FollowCore
import Testing

/// The fixes named when the drone stays silent (issue 23 item 6): the words and when they are said.
@Suite struct LinkHintTests {
    @Test("no navdata names the drone's Wi-Fi, the configured address and ports, and another controller")
    func noNavdata() {
        let hint = LinkHint.noNavdata(address: "10.0.0.9", atPort: 6556, navdataPort: 6554)
        #expect(hint.contains("ardrone2_") && hint.contains("`ip addr`"))
        #expect(hint.contains("[drone] address/at_port/navdata_port") && hint.contains("10.0.0.9, 6556/6554"))
        #expect(hint.contains("FreeFlight"))
    }

    @Test("no HEARTBEAT names [mavlink] address:port, the autopilot's MAVLink output per stack, local_port and the firewall")
    func noHeartbeat() {
        let hint = LinkHint.noHeartbeat(address: "127.0.0.1", port: 14580, localPort: 0)
        #expect(hint.contains("[mavlink] address/port") && hint.contains("127.0.0.1:14580"))
        #expect(hint.contains("SERIALn_PROTOCOL") && hint.contains("MAV_n_CONFIG") && hint.contains("--out"))
        #expect(hint.contains("local_port") && hint.contains("firewall"))
    }

    @Test("a silent link's reminder: first after five silence periods, then every 30 s, never once it heard the drone")
    func firstPacketReminder() {
        // Given a link started at t = 100 s with a 1 s silence bound
        var reminder = WaitingReminder.firstPacket(silenceSeconds: 1)
        let start = MonotonicTime(seconds: 100)
        func due(_ at: Double, arrived: Bool = false) -> Double? {
            reminder.due(now: MonotonicTime(seconds: at), since: start, arrived: arrived)
        }
        // When it ticks every 30 ms with nothing heard, then the drone answers
        var said: [Double] = []
        for tick in 0..<(70 * 33) {  // 69.3 s
            if let waited = due(100 + Double(tick) * 0.03) { said.append(waited) }
        }
        let afterArrival = due(200, arrived: true) ?? due(300)
        // Then it was said at 5, 35 and 65 s (three times in 2310 ticks, at the first tick due), and never after the answer
        #expect(said.count == 3, "\(said)")
        for (waited, expected) in zip(said, [5.0, 35.0, 65.0]) { #expect(waited >= expected && waited < expected + 0.03, "\(said)") }
        #expect(afterArrival == nil)
    }

    @Test("a reminder without a repeat is said once")
    func onceOnly() {
        var reminder = WaitingReminder(firstAfterSeconds: 2, repeatSeconds: nil)
        let start = MonotonicTime(seconds: 0)
        let times = stride(from: 0.0, through: 100, by: 0.5).compactMap {
            reminder.due(now: MonotonicTime(seconds: $0), since: start, arrived: false)
        }
        #expect(times == [2])
    }
}
