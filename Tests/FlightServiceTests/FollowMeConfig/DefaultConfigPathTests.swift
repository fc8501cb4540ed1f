@testable import FlightService
import Testing

/// `--config`'s default (issue 23 item 6): an installed unit's commands work from any directory.
@Suite struct DefaultConfigPathTests {
    @Test("FOLLOWME_CONFIG wins; else the installed file when it exists; else the checkout's")
    func order() {
        let installed: (String) -> Bool = { $0 == "/etc/followme/followme.toml" }
        let none: (String) -> Bool = { _ in false }
        #expect(defaultConfigPath(environment: ["FOLLOWME_CONFIG": "/tmp/x.toml"], exists: installed) == "/tmp/x.toml")
        #expect(defaultConfigPath(environment: ["FOLLOWME_CONFIG": ""], exists: installed) == "/etc/followme/followme.toml")
        #expect(defaultConfigPath(environment: [:], exists: installed) == "/etc/followme/followme.toml")
        #expect(defaultConfigPath(environment: [:], exists: none) == "etc/followme.toml")
    }
}
