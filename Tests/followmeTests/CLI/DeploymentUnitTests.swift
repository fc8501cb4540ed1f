import Foundation
import Testing
import TestSupport

/// The systemd unit (`systemd-analyze verify` and `security`, its key settings, its stop timeout)
/// and the gpsd drop-in (helpers: DeploymentFilesTests.swift).
extension DeploymentFilesTests {
    // MARK: - The systemd unit

    @Test("systemd-analyze verify accepts the installed unit, and flags a broken one", .enabled(if: systemdAnalyze != nil && systemUnitDirectory != nil))
    func systemdAnalyzeVerify() throws {
        let analyze = try #require(Self.systemdAnalyze), units = try #require(Self.systemUnitDirectory)
        let stage = try Stage()
        defer { stage.remove() }
        // Given the package's files with systemd's own units next to them (gpsd.socket, targets)
        #expect(try stage.install().exitCode == 0)
        #expect(try Self.run("/bin/cp", ["-an", units + "/.", stage.path("usr/lib/systemd/system")]).exitCode == 0)
        let verify = { try Self.run(analyze, ["verify", "--man=no", "--root=\(stage.root.path)", "followme.service"]) }

        // When verified, then it passes without a single warning
        let clean = try verify()
        #expect(clean.exitCode == 0, "\(clean.both)")
        #expect(clean.both.isEmpty, "\(clean.both)")

        // Control: an unknown key is reported (as a warning: verify still exits 0)
        let unit = "usr/lib/systemd/system/followme.service"
        let shipped = try stage.text(unit)
        try stage.write(shipped.replacingOccurrences(of: "[Service]\n", with: "[Service]\nTimeoutStopSeconds=45\n"), to: unit)
        let typo = try verify()
        #expect(typo.both.contains("Unknown key 'TimeoutStopSeconds'"), "\(typo.both)")

        // Control: a missing binary fails verification
        try stage.write(shipped, to: unit)
        try FileManager.default.removeItem(atPath: stage.path(Self.installedBinary))
        let missing = try verify()
        #expect(missing.exitCode != 0)
        #expect(missing.both.contains("/usr/bin/followme"), "\(missing.both)")
    }

    @Test("systemd-analyze security rates the unit's exposure at most 2.0 (of 10)", .enabled(if: systemdAnalyze != nil))
    func systemdSecurityExposure() throws {
        let analyze = try #require(Self.systemdAnalyze)
        let stage = try Stage()
        defer { stage.remove() }
        #expect(try stage.install().exitCode == 0)
        let r = try Self.run(analyze, ["security", "--offline=yes", "--no-pager", stage.path("usr/lib/systemd/system/followme.service")])
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("Overall exposure level for followme.service:") },
                                "\(r.both)")
        let exposure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        #expect(exposure <= 2.0, "\(line)")
    }

    /// A systemd unit file as (section, key, value) entries, comments and blank lines dropped.
    struct UnitFile {
        struct Entry { var section: String; var key: String; var value: String; var line: Int }
        var entries: [Entry] = []
        /// Directive lines whose previous non-blank line is not a comment.
        var uncommented: [Int] = []

        init(_ text: String) {
            var section = "", previousIsComment = false
            for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty { continue }
                if line.hasPrefix("#") || line.hasPrefix(";") { previousIsComment = true; continue }
                if line.hasPrefix("[") { section = line; previousIsComment = false; continue }
                if let eq = line.firstIndex(of: "=") {
                    entries.append(Entry(section: section, key: String(line[..<eq]), value: String(line[line.index(after: eq)...]),
                                         line: index + 1))
                }
                if !previousIsComment { uncommented.append(index + 1) }
                previousIsComment = false
            }
        }

        func values(_ section: String, _ key: String) -> [String] {
            entries.filter { $0.section == "[\(section)]" && $0.key == key }.map(\.value)
        }
        func value(_ section: String, _ key: String) -> String? { values(section, key).last }
    }

    /// Seconds in a systemd time span such as "45", "45s", "1min 30s" (systemd.time(7)).
    static func seconds(_ span: String) -> Double? {
        var total = 0.0
        for token in span.split(separator: " ") {
            let digits = token.prefix { $0.isNumber || $0 == "." }
            guard let number = Double(digits) else { return nil }
            switch token.dropFirst(digits.count) {
            case "", "s", "sec": total += number
            case "ms", "msec": total += number / 1000
            case "min", "m": total += number * 60
            default: return nil
            }
        }
        return total
    }

    static let unitText: String = (try? repoText("etc/systemd/followme.service")) ?? ""

    @Test("the unit runs followme as user followme, restarts on failure, lands on SIGTERM, needs gpsd only weakly")
    func unitKeySettings() throws {
        let unit = UnitFile(Self.unitText)
        #expect(!unit.entries.isEmpty)
        #expect(unit.value("Service", "User") == "followme")
        #expect(unit.value("Service", "ExecStart")?.hasPrefix("/usr/bin/followme run --config /etc/followme/followme.toml") == true)
        #expect(unit.value("Service", "Restart") == "on-failure")
        #expect(unit.value("Service", "KillSignal") == "SIGTERM")
        #expect(unit.values("Service", "RestartPreventExitStatus").flatMap { $0.split(separator: " ") }.contains("2"))
        // gpsd and the network: ordered after and wanted, never required (a gpsd restart must not land the drone)
        for key in ["Wants", "After"] {
            let listed = unit.values("Unit", key).flatMap { $0.split(separator: " ").map(String.init) }
            #expect(listed.contains("gpsd.socket") && listed.contains("network-online.target"), "\(key)=\(listed)")
        }
        for key in ["Requires", "Requisite", "BindsTo", "PartOf"] {
            #expect(unit.values("Unit", key).isEmpty, "\(key) would stop followme with gpsd")
        }
        // Hardening that must not break UDP/TCP to the drone and gpsd, or the flight log
        #expect(unit.value("Service", "NoNewPrivileges") == "yes")
        #expect(unit.value("Service", "ProtectSystem") == "strict")
        #expect(unit.values("Service", "ReadWritePaths").contains("/var/log/followme"))
        #expect(unit.value("Service", "PrivateTmp") == "yes")
        #expect(unit.value("Service", "ProtectHome") == "yes")
        let families = Set(unit.values("Service", "RestrictAddressFamilies").flatMap { $0.split(separator: " ").map(String.init) })
        #expect(families == ["AF_INET", "AF_INET6", "AF_UNIX"])
        #expect(unit.value("Service", "PrivateNetwork") == nil)
        #expect(unit.value("Service", "IPAddressDeny") == nil)
        // Every directive has its comment (docs/style.md habit 18)
        #expect(unit.uncommented.isEmpty, "uncommented lines \(unit.uncommented)")
    }

    @Test("TimeoutStopSec outlasts followme's bounded landing (--land-timeout), so systemd never SIGKILLs a landing drone")
    func stopTimeoutExceedsLanding() throws {
        let unit = UnitFile(Self.unitText)
        let stop = try #require(unit.value("Service", "TimeoutStopSec").flatMap(Self.seconds))
        let exec = try #require(unit.value("Service", "ExecStart")).split(separator: " ").map(String.init)
        // The landing bound: --land-timeout in ExecStart, else followme's own default (from its --help)
        let land: Double
        if let i = exec.firstIndex(of: "--land-timeout"), i + 1 < exec.count {
            land = try #require(Double(exec[i + 1]))
        } else {
            let help = try FollowMeBinary.run(["run", "--help"]).stdout
            let tail = try #require(help.components(separatedBy: "--land-timeout <land-timeout>").last)
            land = try #require(tail.components(separatedBy: "(default: ").dropFirst().first?.split(separator: ")").first
                .flatMap { Double($0) })
        }
        #expect(land >= 30)
        #expect(stop >= land + 10, "TimeoutStopSec=\(stop) s vs landing \(land) s")
    }

    @Test("ExecStart's arguments parse, and a bad config exits with a status the unit never restarts")
    func badConfigIsNotRestarted() throws {
        let unit = UnitFile(Self.unitText)
        var arguments = try #require(unit.value("Service", "ExecStart")).split(separator: " ").map(String.init).dropFirst()
            .map { $0 }
        let config = try temporaryConfig("[follow]\nstandoff_m = 0.5\n")
        defer { try? FileManager.default.removeItem(at: config.deletingLastPathComponent()) }
        let i = try #require(arguments.firstIndex(of: "--config"))
        arguments[i + 1] = config.path
        let r = try FollowMeBinary.run(arguments)
        let noRestart = unit.values("Service", "RestartPreventExitStatus").flatMap { $0.split(separator: " ") }.compactMap { Int32($0) }
        #expect(noRestart.contains(r.exitCode), "exit \(r.exitCode): \(r.stderr)")
        #expect(r.stderr.contains("\(config.path):2: follow.standoff_m"), "\(r.stderr)")
    }
}
