@testable import Cockpit
import Testing

/// The DNS rebinding guard's rule, without a socket: which Host headers name this unit.
@Suite("Cockpit Host check: IP addresses, localhost, .local names and the unit's bare host name only")
struct CockpitHostCheckTests {
    @Test("a phone's ways of naming the unit are served", arguments: [
        "192.168.1.20:8080", "10.0.0.5", "127.0.0.1:8080", "[::1]:8080", "[fe80::1]", "localhost:8080",
        "LOCALHOST", "groundunit.local:8080", "groundunit", "GroundUnit:8080", "phone-hotspot.local",
    ])
    func served(authority: String) {
        #expect(CockpitHostCheck.allows(authority: authority, hostName: "groundunit"))
    }

    @Test("another site's name (a rebound DNS name), garbage and a missing Host are refused", arguments: [
        "evil.example.com", "evil.example.com:8080", "groundunit.attacker.example", "groundunit.lan", "192.168.1", "999.1.1.1",
        "[not-an-address]:80", "[::1", "", "localhost.evil.com", "local",
    ])
    func refused(authority: String) {
        #expect(!CockpitHostCheck.allows(authority: authority, hostName: "groundunit"))
    }

    @Test("no Host at all, and an empty host name, match nothing but addresses")
    func edges() {
        #expect(!CockpitHostCheck.allows(authority: nil, hostName: "groundunit"))
        #expect(!CockpitHostCheck.allows(authority: "anything", hostName: ""))
        #expect(CockpitHostCheck.allows(authority: "10.1.2.3", hostName: ""))
        #expect(CockpitHostCheck(hostName: "GroundUnit.example.org").hostName == "groundunit")
    }
}
