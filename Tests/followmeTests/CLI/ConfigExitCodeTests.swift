import Foundation
import Testing
import TestSupport

/// A bad config stops every command with exit 2 and a message naming FILE:LINE and the key.
@Suite struct ConfigExitCodeTests {
    /// A config text and the line and key its error must name.
    static let cases: [(name: String, toml: String, line: Int, key: String)] = [
        (name: "unknown key (typo)", toml: "[onboard]\ndevice = \"/dev/gpsonboard\"\nmount_ofset_deg = 90\n",
         line: 3, key: "onboard.mount_ofset_deg"),
        (name: "unknown table", toml: "# c\n[gpds]\nhost = \"x\"\n", line: 2, key: "gpds"),
        (name: "wrong type", toml: "[onboard]\n\n\nmount_offset_deg = \"ninety\"\n",
         line: 4, key: "onboard.mount_offset_deg"),
        (name: "out of range", toml: "[gpsd]\nport = 70000\n", line: 2, key: "gpsd.port"),
        (name: "nan", toml: "[follow]\nstandoff_m = nan\n", line: 2, key: "follow.standoff_m"),
        (name: "cross-field", toml: "[follow]\nstandoff_m = 4\n[failsafe]\nmin_separation_m = 5\n",
         line: 4, key: "failsafe.min_separation_m"),
    ]

    @Test("bad config → exit 2 and FILE:LINE: KEY", arguments: cases)
    func badConfig(_ c: (name: String, toml: String, line: Int, key: String)) throws {
        let file = try temporaryConfig(c.toml)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        for args in [["config", "check", file.path], ["gps", "--config", file.path, "--count", "1"]] {
            let r = try FollowMeBinary.run(args)
            #expect(r.exitCode == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("\(file.path):\(c.line): \(c.key)"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("a standoff too short for min_separation_m + gps_relative_error_m names both keys and the standoff to set",
          arguments: ["4", "6"])
    func standoffTooShortNamesTheFix(_ standoff: String) throws {
        // Given the shipped separation (3 m) and GPS error (4 m) with a standoff they do not fit in
        let file = try temporaryConfig("[follow]\nstandoff_m = \(standoff)\n[failsafe]\nmin_separation_m = 3\ngps_relative_error_m = 4\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // When it is checked
        let r = try FollowMeBinary.run(["config", "check", file.path])
        // Then exit 2, naming both keys and the one value that fixes it (the walker rule's 10.4 m, not 7.5)
        #expect(r.exitCode == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(file.path):4: failsafe.min_separation_m: 3 is out of range"), "\(r.stderr)")
        #expect(r.stderr.contains("failsafe.gps_relative_error_m (4)"), "\(r.stderr)")
        #expect(r.stderr.contains("set follow.standoff_m to at least 10.4"), "\(r.stderr)")
        #expect(!r.stderr.contains("to -0.5"), "an empty range must not be printed as one: \(r.stderr)")
        // and the value it names passes
        let fixed = try temporaryConfig("[follow]\nstandoff_m = 10.4\n[failsafe]\nmin_separation_m = 3\ngps_relative_error_m = 4\n"
            + "[target]\ndevice = \"/dev/gpstarget\"\n[onboard]\ndevice = \"/dev/gpsonboard\"\n")
        defer { try? FileManager.default.removeItem(at: fixed.deletingLastPathComponent()) }
        let ok = try FollowMeBinary.run(["config", "check", fixed.path])
        #expect(ok.exitCode == 0, "\(ok.stderr)")
    }

    @Test("TOML syntax error → exit 2 with the line")
    func syntaxError() throws {
        let file = try temporaryConfig("[gpsd]\nhost = \"127.0.0.1\"\nport = = 3\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let r = try FollowMeBinary.run(["config", "check", file.path])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("\(file.path):3"))
    }

    @Test("missing file → exit 2 naming the file")
    func missingFile() throws {
        let r = try FollowMeBinary.run(["gps", "--config", "/nonexistent/followme.toml"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("/nonexistent/followme.toml"))
        #expect(r.stderr.contains("not found"))
    }

    @Test("the shipped etc/followme.toml checks clean and prints the effective config")
    func shippedConfig() throws {
        let r = try FollowMeBinary.run(["config", "check", RepositoryRoot.file("etc/followme.toml").path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("mount_offset_deg = 90"))
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
    }

    @Test("config keys --markdown prints docs/config-keys.md; config keys lists every key")
    func keysCommand() throws {
        let markdown = try FollowMeBinary.run(["config", "keys", "--markdown"])
        #expect(markdown.exitCode == 0, "\(markdown.stderr)")
        let docs = try String(contentsOf: RepositoryRoot.file("docs/config-keys.md"), encoding: .utf8)
        #expect(markdown.stdout == docs)
        let plain = try FollowMeBinary.run(["config", "keys"])
        #expect(plain.exitCode == 0)
        #expect(plain.stdout.contains("failsafe.min_separation_m\tnumber\tm\t1 to follow.standoff_m - 0.5 - gps_relative_error_m\t3\n"))
    }

    @Test("a [mavlink] key an AR.Drone file does not use → exit 0 and a FILE:LINE: KEY warning")
    func unusedKeyWarning() throws {
        let file = try temporaryConfig("[target]\ndevice = \"/dev/a\"\n[onboard]\ndevice = \"/dev/b\"\n"
            + "[mavlink]\nport = 14540\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let r = try FollowMeBinary.run(["config", "check", file.path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: \(file.path):6: mavlink.port: not used: drone.protocol is \"ardrone\""),
                "\(r.stderr)")
        #expect(!r.stdout.contains("[mavlink]"))
    }
}

@Suite struct UsageExitCodeTests {
    @Test("usage errors exit 2 with a message", arguments: [["--bogus"], ["gps", "--count", "0"], ["run", "--land-timeout", "-1"]])
    func usage(_ args: [String]) throws {
        let r = try FollowMeBinary.run(args)
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("Error:"))
    }

    @Test("a directory given as the config → exit 2 saying so, not a Foundation error code")
    func directoryAsConfig() throws {
        let dir = try scratchDirectory(label: "config-dir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try FollowMeBinary.run(["gps", "--config", dir.path, "--count", "1"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("\(dir.path): cannot read config file: is a directory"), "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("--log-level takes only the levels, and the error lists them")
    func logLevelValues() throws {
        let r = try FollowMeBinary.run(["run", "--log-level", "loud", "--config", "/nonexistent.toml"])
        #expect(r.exitCode == 2)
        #expect(["trace", "debug", "info", "notice", "warning", "error", "critical"].allSatisfy { r.stderr.contains("- \($0)") },
                "\(r.stderr)")
        let help = try FollowMeBinary.run(["run", "--help"])
        #expect(help.stdout.contains("values: trace, debug, info, notice,"), "\(help.stdout)")
    }
}
