import Foundation
import Testing
import TestSupport

/// The field-deployment files and their installer: `scripts/install.sh` staged into a temporary
/// root (DESTDIR), `systemd-analyze` on the unit, `udevadm test` on the udev rules against
/// simulated USB pucks, and a line-by-line check of the unit, the rules and etc/default/gpsd.
/// Nothing here installs onto this machine: staged installs go to a temporary directory, and the
/// one "live" install runs inside a private mount namespace with overlays over /etc, /usr, /var.
@Suite struct DeploymentFilesTests {
    // MARK: - Files and tools

    /// The package checkout (this file is Tests/CLITests/DeploymentFilesTests.swift).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func repoFile(_ relativePath: String) -> URL { repo.appendingPathComponent(relativePath) }
    static func repoText(_ relativePath: String) throws -> String {
        try String(contentsOf: repoFile(relativePath), encoding: .utf8)
    }

    /// Repository file → where scripts/install.sh puts it (relative to the install root).
    static let installedConffiles: [(source: String, destination: String)] = [
        ("etc/followme.toml", "etc/followme/followme.toml"),
        ("etc/systemd/followme.service", "etc/systemd/system/followme.service"),
        ("udev/61-followme-gps.rules", "etc/udev/rules.d/61-followme-gps.rules"),
        ("etc/default/gpsd", "etc/default/gpsd"),
    ]
    static let installedBinary = "usr/local/bin/followme"
    static let logDirectory = "var/log/followme"
    static let manifest = "var/lib/followme/install-manifest"

    /// Debian bookworm's /etc/default/gpsd as shipped by gpsd 3.22-4.1 (docs/gpsd.md §5.1).
    static let debianDefaultGPSD = """
        # Devices gpsd should collect to at boot time.
        # They need to be read/writeable, either by user gpsd or the group dialout.
        DEVICES=""

        # Other options you want to pass to gpsd
        GPSD_OPTIONS=""

        # Automatically hot add/remove USB GPS devices via gpsdctl
        USBAUTO="true"

        """

    static func executable(_ candidates: [String]) -> String? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static let systemdAnalyze = executable(["/usr/bin/systemd-analyze", "/bin/systemd-analyze"])
    static let systemdEscape = executable(["/usr/bin/systemd-escape", "/bin/systemd-escape"])
    static let bash = executable(["/bin/bash", "/usr/bin/bash"]) ?? "/bin/bash"
    /// systemd's own unit directory (gpsd.socket, network-online.target, ...), copied into staged
    /// roots so `systemd-analyze verify --root` can resolve the unit's dependencies.
    static let systemUnitDirectory = ["/usr/lib/systemd/system", "/lib/systemd/system"].first {
        FileManager.default.fileExists(atPath: "\($0)/multi-user.target")
    }

    /// Root, `unshare` and `udevadm` available: udev/simulate-puck.sh can build its sandbox.
    static let canSimulatePucks: Bool = {
        guard geteuid() == 0, DeploymentFilesTests.executable(["/usr/bin/udevadm", "/bin/udevadm"]) != nil,
              let unshare = DeploymentFilesTests.executable(["/usr/bin/unshare"]) else { return false }
        return (try? DeploymentFilesTests.run(unshare, ["--mount", "--propagation", "private", "true"]).exitCode) == 0
    }()

    /// Mount namespaces and overlayfs available, and FollowMe not installed on this machine (the
    /// sandboxed live install starts from the machine's own /etc, /usr and /var).
    static let canSandboxLiveInstall: Bool = {
        guard DeploymentFilesTests.canSimulatePucks,
              let filesystems = try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8),
              filesystems.split(separator: "\n").contains(where: { $0.hasSuffix("\toverlay") }) else { return false }
        return !FileManager.default.fileExists(atPath: "/usr/local/bin/followme")
            && (try? DeploymentFilesTests.run("/usr/bin/getent", ["passwd", "followme"]).exitCode) != 0
    }()

    // MARK: - Running helpers

    struct Output: Sendable {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        var both: String { stdout + stderr }
    }

    /// Thread-safe bytes collected from one pipe.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
    }

    /// Runs `executable arguments…`, killing it (by PID) after `timeoutSeconds`.
    static func run(_ executable: String, _ arguments: [String], timeoutSeconds: Double = 120) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let outData = Collected(), errData = Collected()
        let group = DispatchGroup()
        for (handle, sink) in [(out.fileHandleForReading, outData), (err.fileHandleForReading, errData)] {
            group.enter()
            DispatchQueue.global().async { sink.set(handle.readDataToEndOfFile()); group.leave() }
        }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        group.wait()
        return Output(exitCode: p.terminationStatus, stdout: outData.text, stderr: errData.text)
    }

    /// A scratch directory with an empty install root `root/` and a stand-in `followme` binary.
    struct Stage {
        let directory: URL
        var root: URL { directory.appendingPathComponent("root") }
        var standIn: URL { directory.appendingPathComponent("followme-stand-in") }

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("followme-deploy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("root"),
                                                    withIntermediateDirectories: true)
            try "#!/bin/sh\necho \"followme stand-in $*\"\n".write(
                to: directory.appendingPathComponent("followme-stand-in"), atomically: true, encoding: .utf8)
            chmod(directory.appendingPathComponent("followme-stand-in").path, 0o755)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }
        func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }
        func write(_ text: String, to relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// `scripts/install.sh --root <root> --binary <stand-in> extra…`.
        func install(_ extra: [String] = [], binary: String? = nil) throws -> Output {
            try DeploymentFilesTests.run(DeploymentFilesTests.bash, [
                DeploymentFilesTests.repoFile("scripts/install.sh").path, "--root", root.path,
                "--binary", binary ?? standIn.path,
            ] + extra)
        }

        /// `scripts/uninstall.sh --root <root> extra…`.
        func uninstall(_ extra: [String] = []) throws -> Output {
            try DeploymentFilesTests.run(DeploymentFilesTests.bash, [
                DeploymentFilesTests.repoFile("scripts/uninstall.sh").path, "--root", root.path,
            ] + extra)
        }

        /// Every path under the root with its type, permissions and content (files) or target (links).
        func snapshot() throws -> [String: String] {
            let fm = FileManager.default
            var result: [String: String] = [:]
            for relative in try fm.subpathsOfDirectory(atPath: root.path) {
                let full = path(relative)
                let attributes = try fm.attributesOfItem(atPath: full)
                let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
                let type = attributes[.type] as? FileAttributeType
                var description = "\(type.map { "\($0.rawValue)" } ?? "?") \(String(permissions, radix: 8))"
                if type == .typeRegular {
                    description += " " + (try Data(contentsOf: URL(fileURLWithPath: full))).base64EncodedString()
                } else if type == .typeSymbolicLink {
                    description += " -> " + (try fm.destinationOfSymbolicLink(atPath: full))
                }
                result[relative] = description
            }
            return result
        }

        /// Regular files and symlinks under the root.
        func files() throws -> Set<String> {
            try Set(snapshot().filter { !$0.value.hasPrefix(FileAttributeType.typeDirectory.rawValue) }.keys)
        }
    }

    static func permissions(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    // MARK: - scripts/install.sh into a temporary root

    @Test("install into a temporary root puts every file in place, nothing more")
    func installStagesEveryFile() throws {
        let stage = try Stage()
        defer { stage.remove() }

        // When it installs into an empty root
        let r = try stage.install()

        // Then every file is there, byte for byte, with its mode
        #expect(r.exitCode == 0, "\(r.both)")
        for (source, destination) in Self.installedConffiles {
            #expect(try stage.text(destination) == Self.repoText(source), "\(destination)")
            #expect(Self.permissions(stage.path(destination)) == 0o644, "\(destination)")
            #expect(r.stdout.contains("installed /\(destination)"), "\(r.stdout)")
        }
        #expect(FileManager.default.contentsEqual(atPath: stage.path(Self.installedBinary), andPath: stage.standIn.path))
        #expect(Self.permissions(stage.path(Self.installedBinary)) == 0o755)
        #expect(Self.permissions(stage.path(Self.logDirectory)) == 0o750)
        // And the manifest records each /etc file with its checksum
        let manifest = try stage.text(Self.manifest)
        for (_, destination) in Self.installedConffiles {
            #expect(manifest.split(separator: "\n").contains { $0.hasPrefix("conffile ") && $0.hasSuffix(" /\(destination)") },
                    "\(manifest)")
        }
        // And nothing else: no user, no daemon reloads in a staged install
        #expect(try stage.files() == Set(Self.installedConffiles.map(\.destination) + [Self.installedBinary, Self.manifest]))
        #expect(r.stdout.contains("skipped creating user followme"))
        #expect(r.stdout.contains("skipped systemctl daemon-reload and udevadm reload"))
    }

    @Test("DESTDIR works like --root")
    func destdirEnvironment() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let r = try Self.run("/usr/bin/env", [
            "DESTDIR=\(stage.root.path)", Self.bash, Self.repoFile("scripts/install.sh").path, "--binary", stage.standIn.path,
        ])
        #expect(r.exitCode == 0, "\(r.both)")
        #expect(stage.exists("etc/followme/followme.toml"))
        #expect(stage.exists(Self.installedBinary))
    }

    @Test("installing twice changes nothing the second time")
    func installIsIdempotent() throws {
        let stage = try Stage()
        defer { stage.remove() }
        // Given an install
        #expect(try stage.install().exitCode == 0)
        let first = try stage.snapshot()

        // When it runs again
        let r = try stage.install()

        // Then every path, mode and byte is the same, and it says so
        #expect(r.exitCode == 0, "\(r.both)")
        #expect(try stage.snapshot() == first)
        #expect(!r.stdout.contains("followme-install: installed "), "\(r.stdout)")
        #expect(!r.stdout.contains("followme-install: updated "), "\(r.stdout)")
        #expect(r.stdout.components(separatedBy: "unchanged ").count - 1 == Self.installedConffiles.count + 1)
    }

    @Test("an edited config is never overwritten: the new one arrives as followme.toml.dist")
    func editedConfigIsKept() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let config = "etc/followme/followme.toml"
        #expect(try stage.install().exitCode == 0)

        // Given the operator edited the installed config
        let edited = try stage.text(config) + "\n# edited on the field: standoff for this site\n"
        try stage.write(edited, to: config)

        // When install runs again (twice)
        let r = try stage.install()
        let again = try stage.install()

        // Then the edited config stays, and the shipped one is next to it as .dist
        #expect(r.exitCode == 0 && again.exitCode == 0)
        #expect(try stage.text(config) == edited)
        #expect(try stage.text(config + ".dist") == Self.repoText("etc/followme.toml"))
        #expect(r.stdout.contains("kept      /\(config) (edited here)"), "\(r.stdout)")

        // When the operator merges (here: takes the shipped file) and installs again
        try stage.write(Self.repoText("etc/followme.toml"), to: config)
        let merged = try stage.install()

        // Then the stale .dist is gone
        #expect(merged.stdout.contains("unchanged /\(config)"))
        #expect(!stage.exists(config + ".dist"))
    }

    @Test("an /etc file from an older install that nobody edited is updated in place")
    func uneditedOldFileIsUpdated() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let unit = "etc/systemd/system/followme.service"
        #expect(try stage.install().exitCode == 0)

        // Given an older unit on disk, recorded in the manifest as installed by an older version
        let older = "[Service]\nExecStart=/usr/local/bin/followme run\n"
        try stage.write(older, to: unit)
        let olderSHA = try #require(Self.run("/usr/bin/sha256sum", [stage.path(unit)]).stdout.split(separator: " ").first)
        let manifest = try stage.text(Self.manifest).split(separator: "\n").map {
            $0.hasSuffix(" /\(unit)") ? "conffile \(olderSHA) /\(unit)" : String($0)
        }.joined(separator: "\n") + "\n"
        try stage.write(manifest, to: Self.manifest)

        // When install runs
        let r = try stage.install()

        // Then the unit is replaced by the shipped one, without a .dist
        #expect(r.stdout.contains("updated   /\(unit)"), "\(r.stdout)")
        #expect(try stage.text(unit) == Self.repoText("etc/systemd/followme.service"))
        #expect(!stage.exists(unit + ".dist"))
    }

    @Test("Debian's unedited /etc/default/gpsd is saved and restored; an edited one is left alone")
    func gpsdDefaultsHandOver() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let defaults = "etc/default/gpsd"

        // Given Debian's stock /etc/default/gpsd
        try stage.write(Self.debianDefaultGPSD, to: defaults)

        // When FollowMe is installed, then ours replaces it and Debian's is saved
        #expect(try stage.install().exitCode == 0)
        #expect(try stage.text(defaults) == Self.repoText("etc/default/gpsd"))
        #expect(try stage.text(defaults + ".followme-orig") == Self.debianDefaultGPSD)

        // When it is uninstalled, then Debian's is back and nothing of ours is left
        #expect(try stage.uninstall().exitCode == 0)
        #expect(try stage.text(defaults) == Self.debianDefaultGPSD)
        #expect(!stage.exists(defaults + ".followme-orig"))

        // Given an operator's own gpsd defaults
        let own = "DEVICES=\"/dev/ttyS0\"\nGPSD_OPTIONS=\"-n -G\"\nUSBAUTO=\"true\"\n"
        try stage.write(own, to: defaults)

        // When installed and uninstalled, then theirs is never touched; ours waits in .dist
        #expect(try stage.install().exitCode == 0)
        #expect(try stage.text(defaults) == own)
        #expect(try stage.text(defaults + ".dist") == Self.repoText("etc/default/gpsd"))
        #expect(try stage.uninstall(["--purge"]).exitCode == 0)
        #expect(try stage.text(defaults) == own)
        #expect(!stage.exists(defaults + ".dist"))
    }

    @Test("uninstall removes what install put there, keeps config and logs; --purge removes those too")
    func uninstallAndPurge() throws {
        let stage = try Stage()
        defer { stage.remove() }
        #expect(try stage.install().exitCode == 0)
        try stage.write("{\"t\":1}\n", to: "\(Self.logDirectory)/flight.jsonl")

        // When uninstalled
        let r = try stage.uninstall()

        // Then the binary, unit, rules and gpsd defaults are gone; config and flight log stay
        #expect(r.exitCode == 0, "\(r.both)")
        for gone in [Self.installedBinary, "etc/systemd/system/followme.service",
                     "etc/udev/rules.d/61-followme-gps.rules", "etc/default/gpsd"] {
            #expect(!stage.exists(gone), "\(gone)")
        }
        #expect(try stage.text("etc/followme/followme.toml") == Self.repoText("etc/followme.toml"))
        #expect(stage.exists("\(Self.logDirectory)/flight.jsonl"))

        // When uninstalled again, with --purge
        let purge = try stage.uninstall(["--purge"])

        // Then not one file is left
        #expect(purge.exitCode == 0, "\(purge.both)")
        #expect(try stage.files() == [])
        #expect(!stage.exists("etc/followme"))
        #expect(!stage.exists(Self.logDirectory))
    }

    @Test("uninstall keeps pinned (edited) udev rules with the config, as 61-followme-gps.rules.saved")
    func uninstallKeepsPinnedRules() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let rules = "etc/udev/rules.d/61-followme-gps.rules"
        #expect(try stage.install().exitCode == 0)
        // Given the operator pinned the person's puck
        let pinned = try Self.pinnedRules()
        try stage.write(pinned, to: rules)

        // When uninstalled
        #expect(try stage.uninstall().exitCode == 0)

        // Then the rules no longer act, but the pins are kept next to the config
        #expect(!stage.exists(rules))
        #expect(try stage.text("etc/followme/61-followme-gps.rules.saved") == pinned)
    }

    @Test("usage errors exit 2 and install nothing", arguments: [["--purge"], ["--bogus"], ["--root"]])
    func usageErrors(_ arguments: [String]) throws {
        let stage = try Stage()
        defer { stage.remove() }
        let r = try Self.run(Self.bash, [Self.repoFile("scripts/install.sh").path] + arguments)
        #expect(r.exitCode == 2 || (arguments == ["--root"] && r.exitCode == 1), "\(r.both)")
        #expect(r.stderr.contains("followme-install:"), "\(r.stderr)")
        #expect(try stage.files() == [])
    }

    @Test("the installed followme binary checks the installed config clean")
    func installedBinaryReadsInstalledConfig() throws {
        let stage = try Stage()
        defer { stage.remove() }
        #expect(try stage.install(binary: FollowMeBinary.url.path).exitCode == 0)
        let r = try Self.run(stage.path(Self.installedBinary), ["config", "check", stage.path("etc/followme/followme.toml")])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("/dev/gpstarget"))
    }

    /// The live path (user, chown, manifest, purge) in a private mount namespace: overlays over
    /// /etc, /usr, /var with their upper layers on a tmpfs, an empty tmpfs over /run (so no
    /// systemctl/udevadm reaches this machine's daemons). Everything vanishes with the namespace.
    @Test("live install (in a throwaway overlay): creates user followme in dialout, owns the logs, purge removes it",
          .enabled(if: canSandboxLiveInstall))
    func liveInstallInOverlay() throws {
        let stage = try Stage()
        defer { stage.remove() }
        let script = #"""
            set -euo pipefail
            work=$1 repo=$2 bin=$3
            mount -t tmpfs followme-test "$work"
            for d in etc usr var; do
                mkdir -p "$work/$d.up" "$work/$d.work"
                mount -t overlay followme-test -o "lowerdir=/$d,upperdir=$work/$d.up,workdir=$work/$d.work" "/$d"
            done
            mount -t tmpfs followme-test /run
            for d in /etc /usr /var; do
                [ "$(findmnt -n -o FSTYPE "$d")" = overlay ] || { echo "not sandboxed: $d" >&2; exit 99; }
            done
            echo "== install 1"; "$repo/scripts/install.sh" --binary "$bin"
            echo "== groups $(id -nG followme)"
            echo "== logdir $(stat -c '%U:%G %a' /var/log/followme)"
            echo "== install 2"; "$repo/scripts/install.sh" --binary "$bin"
            echo "== uninstall"; "$repo/scripts/uninstall.sh"
            getent passwd followme >/dev/null && echo "== user kept"
            [ -f /etc/followme/followme.toml ] && echo "== config kept"
            [ -e /usr/local/bin/followme ] || echo "== binary gone"
            echo "== purge"; "$repo/scripts/uninstall.sh" --purge
            getent passwd followme >/dev/null || echo "== user gone"
            """#
        let work = stage.directory.appendingPathComponent("overlay")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let r = try Self.run("/usr/bin/unshare", [
            "--mount", "--propagation", "private", Self.bash, "-c", script, "sandbox",
            work.path, Self.repo.path, stage.standIn.path,
        ])
        #expect(r.exitCode == 0, "\(r.both)")
        let out = r.stdout
        #expect(out.contains("created system user followme"), "\(out)")
        let groups = out.split(separator: "\n").first { $0.hasPrefix("== groups ") }.map { Set($0.split(separator: " ").dropFirst(2)) }
        #expect(groups == ["followme", "dialout"], "\(out)")
        #expect(out.contains("== logdir followme:followme 750"), "\(out)")
        let second = out.components(separatedBy: "== install 2").last?.components(separatedBy: "== uninstall").first ?? ""
        #expect(!second.contains("followme-install: installed ") && !second.contains("followme-install: created "), "\(second)")
        #expect(second.contains("followme-install: unchanged user followme"), "\(second)")
        for line in ["== user kept", "== config kept", "== binary gone", "removed user followme", "== user gone"] {
            #expect(out.contains(line), "\(line) missing:\n\(out)")
        }
        // And this machine never saw any of it
        #expect(!FileManager.default.fileExists(atPath: "/etc/followme"))
        #expect(try Self.run("/usr/bin/getent", ["passwd", "followme"]).exitCode != 0)
    }

    // MARK: - The systemd unit

    @Test("systemd-analyze verify accepts the installed unit, and flags a broken one", .enabled(if: systemdAnalyze != nil && systemUnitDirectory != nil))
    func systemdAnalyzeVerify() throws {
        let analyze = try #require(Self.systemdAnalyze), units = try #require(Self.systemUnitDirectory)
        let stage = try Stage()
        defer { stage.remove() }
        // Given a staged install with systemd's own units next to it (gpsd.socket, targets)
        #expect(try stage.install().exitCode == 0)
        try FileManager.default.createDirectory(atPath: stage.path("usr/lib/systemd"), withIntermediateDirectories: true)
        #expect(try Self.run("/bin/cp", ["-a", units, stage.path("usr/lib/systemd/system")]).exitCode == 0)
        let verify = { try Self.run(analyze, ["verify", "--man=no", "--root=\(stage.root.path)", "followme.service"]) }

        // When verified, then it passes without a single warning
        let clean = try verify()
        #expect(clean.exitCode == 0, "\(clean.both)")
        #expect(clean.both.isEmpty, "\(clean.both)")

        // Control: an unknown key is reported (as a warning: verify still exits 0)
        let unit = "etc/systemd/system/followme.service"
        let shipped = try stage.text(unit)
        try stage.write(shipped.replacingOccurrences(of: "[Service]\n", with: "[Service]\nTimeoutStopSeconds=45\n"), to: unit)
        let typo = try verify()
        #expect(typo.both.contains("Unknown key 'TimeoutStopSeconds'"), "\(typo.both)")

        // Control: a missing binary fails verification
        try stage.write(shipped, to: unit)
        try FileManager.default.removeItem(atPath: stage.path(Self.installedBinary))
        let missing = try verify()
        #expect(missing.exitCode != 0)
        #expect(missing.both.contains("/usr/local/bin/followme"), "\(missing.both)")
    }

    @Test("systemd-analyze security rates the unit's exposure at most 2.0 (of 10)", .enabled(if: systemdAnalyze != nil))
    func systemdSecurityExposure() throws {
        let analyze = try #require(Self.systemdAnalyze)
        let stage = try Stage()
        defer { stage.remove() }
        #expect(try stage.install().exitCode == 0)
        let r = try Self.run(analyze, ["security", "--offline=yes", "--no-pager", stage.path("etc/systemd/system/followme.service")])
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
        #expect(unit.value("Service", "ExecStart")?.hasPrefix("/usr/local/bin/followme run --config /etc/followme/followme.toml") == true)
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

    // MARK: - etc/default/gpsd

    @Test("etc/default/gpsd: no boot-time DEVICES, gpsd polls at once (-n), hotplug on, every line commented")
    func gpsdDefaults() throws {
        let path = Self.repoFile("etc/default/gpsd").path
        // Read the way gpsd.service/gpsdctl@.service do: as shell assignments
        let r = try Self.run("/usr/bin/env", ["-i", Self.bash, "-c",
                                              #"set -eu; . "$1"; printf '%s\n' "$DEVICES" "$GPSD_OPTIONS" "$USBAUTO""#, "sh", path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let values = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(values.count >= 3)
        guard values.count >= 3 else { return }
        #expect(values[0] == "")
        #expect(values[1].split(separator: " ").contains("-n"))
        #expect(values[2] == "true")
        let lines = try Self.repoText("etc/default/gpsd").split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in lines.enumerated() where line.contains("=") && !line.hasPrefix("#") {
            #expect(i > 0 && lines[i - 1].hasPrefix("#"), "line \(i + 1) has no comment above it")
        }
    }

    // MARK: - The udev rules

    /// A checker for udev rules lines (udev(7) syntax, the subset these rules use).
    enum UdevLint {
        struct Pair: Equatable {
            var key: String
            var attribute: String?
            var op: String
            var value: String
        }

        static let matchOnly: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS",
                                             "DRIVER", "DRIVERS", "ATTRS", "TAGS", "TEST", "RESULT", "CONST"]
        static let assignOnly: Set<String> = ["OWNER", "GROUP", "MODE", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
        static let either: Set<String> = ["ENV", "ATTR", "NAME", "SYMLINK", "TAG", "SYSCTL"]
        static let needsAttribute: Set<String> = ["ENV", "ATTR", "ATTRS", "SYSCTL", "IMPORT", "CONST"]
        static let optionalAttribute: Set<String> = ["RUN", "TEST", "SECLABEL"]

        /// One rule line → its pairs, or what is wrong with it.
        static func parse(_ line: String) -> Result<[Pair], LintProblem> {
            var pairs: [Pair] = []
            var rest = Substring(line)
            while true {
                let key = rest.prefix { $0.isUppercase || $0 == "_" }
                guard !key.isEmpty else { return .failure(.init("expected a KEY at \"\(rest.prefix(20))\"")) }
                rest = rest.dropFirst(key.count)
                var attribute: String?
                if rest.first == "{" {
                    guard let close = rest.firstIndex(of: "}") else { return .failure(.init("unclosed { after \(key)")) }
                    attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                    rest = rest[rest.index(after: close)...]
                }
                guard let op = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else {
                    return .failure(.init("expected an operator after \(key)"))
                }
                rest = rest.dropFirst(op.count)
                guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else {
                    return .failure(.init("\(key)\(op) needs a \"quoted value\""))
                }
                let value = String(rest[rest.index(after: rest.startIndex)..<end])
                rest = rest[rest.index(after: end)...]
                let k = String(key)
                guard matchOnly.contains(k) || assignOnly.contains(k) || either.contains(k) else {
                    return .failure(.init("unknown key \(k)"))
                }
                let isMatch = op == "==" || op == "!="
                if isMatch && assignOnly.contains(k) { return .failure(.init("\(k) cannot be matched (\(op))")) }
                if !isMatch && matchOnly.contains(k) { return .failure(.init("\(k) cannot be assigned (\(op))")) }
                if needsAttribute.contains(k) && attribute == nil { return .failure(.init("\(k) needs {name}")) }
                if !needsAttribute.contains(k) && !optionalAttribute.contains(k) && attribute != nil {
                    return .failure(.init("\(k) takes no {name}"))
                }
                pairs.append(Pair(key: k, attribute: attribute, op: op, value: value))
                if rest.allSatisfy(\.isWhitespace) { break }
                guard rest.first == "," else { return .failure(.init("expected \", \" between pairs before \"\(rest.prefix(20))\"")) }
                rest = rest.dropFirst().drop { $0 == " " }
            }
            if pairs.allSatisfy({ $0.op == "==" || $0.op == "!=" }) { return .failure(.init("rule only matches, assigns nothing")) }
            return .success(pairs)
        }

        /// Every problem in a rules file, as "line N: ...".
        static func problems(_ text: String) -> [String] {
            var problems: [String] = []
            var gotos: [(line: Int, label: String)] = []
            var labels: Set<String> = []
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, raw) in lines.enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasSuffix("\\") { problems.append("line \(index + 1): no line continuations"); continue }
                switch parse(line) {
                case .failure(let problem): problems.append("line \(index + 1): \(problem.message)")
                case .success(let pairs):
                    for p in pairs where p.key == "GOTO" { gotos.append((index + 1, p.value)) }
                    for p in pairs where p.key == "LABEL" { labels.insert(p.value) }
                    for p in pairs where p.key == "SYMLINK" && (p.value.contains("-") || p.value.contains("/")) {
                        problems.append("line \(index + 1): link \(p.value) contains '-' or '/' (systemd unescapes '-' in %I)")
                    }
                    for p in pairs where p.key == "ENV" && p.attribute == "SYSTEMD_WANTS" && p.value.contains("-") {
                        problems.append("line \(index + 1): unit \(p.value) contains '-'")
                    }
                }
                let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                if previous?.hasPrefix("#") != true { problems.append("line \(index + 1): no comment above this rule") }
            }
            for (line, label) in gotos where !labels.contains(label) {
                problems.append("line \(line): GOTO=\"\(label)\" has no LABEL")
            }
            return problems
        }
    }

    struct LintProblem: Error { var message: String; init(_ message: String) { self.message = message } }

    static let rulesText: String = (try? repoText("udev/61-followme-gps.rules")) ?? ""

    /// The shipped rules with the serial template pinned to the person's puck ("TGT0001") and the
    /// port template pinned to the onboard receiver (USB port 1.2 of the simulated xHCI).
    static let pinnedSerial = "TGT0001"
    static let pinnedIDPath = "pci-0000:00:14.0-usb-0:1.2:1.0"
    static func pinnedRules() throws -> String {
        let serialTemplate = #"#ENV{ID_SERIAL_SHORT}=="put-serial-here", ENV{FOLLOWME_ROLE}="target""#
        let portTemplate = #"#ENV{ID_PATH}=="put-id-path-here", ENV{FOLLOWME_ROLE}="onboard""#
        try #require(rulesText.contains(serialTemplate) && rulesText.contains(portTemplate), "template lines changed")
        return rulesText
            .replacingOccurrences(of: serialTemplate, with: #"ENV{ID_SERIAL_SHORT}=="\#(pinnedSerial)", ENV{FOLLOWME_ROLE}="target""#)
            .replacingOccurrences(of: portTemplate, with: #"ENV{ID_PATH}=="\#(pinnedIDPath)", ENV{FOLLOWME_ROLE}="onboard""#)
    }

    @Test("udev rules: every line is KEY/operator/\"value\" pairs with known keys, commented, GOTOs resolve")
    func udevRulesLint() throws {
        #expect(!Self.rulesText.isEmpty)
        #expect(UdevLint.problems(Self.rulesText) == [])
        // The pinned form the README asks for is just as valid
        #expect(UdevLint.problems(try Self.pinnedRules()) == [])
    }

    @Test("the udev lint catches broken rules (control)")
    func udevLintCatchesBrokenRules() {
        let broken = """
            # missing comma
            ENV{X}=="1" SYMLINK+="a"
            # dash in the link
            SUBSYSTEM=="tty", SYMLINK+="gps-target"
            # unknown key, unquoted value
            KERNEL=="ttyACM0", FOO="bar"
            KERNEL=="ttyACM0", MODE=0660
            # goto nowhere
            SUBSYSTEM!="tty", GOTO="nowhere"
            """
        let problems = UdevLint.problems(broken)
        #expect(problems.count == 6, "\(problems)")
        for expected in ["line 2: expected \", \"", "line 4: link gps-target", "line 6: unknown key FOO",
                         "line 7: MODE= needs a \"quoted value\"", "line 7: no comment above", "GOTO=\"nowhere\" has no LABEL"] {
            #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
        }
    }

    /// Every USB id Debian bookworm's 60-gpsd.rules lists (docs/gpsd.md §5.1), with the
    /// kernel module its comment must name; FTDI is disabled there and here.
    static let debianPucks: [(vendor: String, product: String, module: String, enabled: Bool)] = [
        ("1546", "01a5", "cdc_acm", true), ("1546", "01a6", "cdc_acm", true), ("1546", "01a7", "cdc_acm", true),
        ("1546", "01a8", "cdc_acm", true), ("1546", "01a9", "cdc_acm", true), ("067b", "2303", "pl2303", true),
        ("067b", "aaa0", "pl2303", true), ("0557", "2008", "pl2303", true), ("10c4", "ea60", "cp210x", true),
        ("10c4", "ea71", "cp210x", true), ("0e8d", "3329", "cdc_acm", true), ("1163", "0100", "cypress_m8", true),
        ("1163", "0200", "cypress_m8", true), ("091e", "0003", "garmin_gps", true), ("0403", "6001", "ftdi_sio", false),
    ]

    @Test("udev rules: every Debian puck id is there, commented with its kernel module; FTDI stays disabled")
    func udevVendorRules() throws {
        let lines = Self.rulesText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for puck in Self.debianPucks {
            let rule = #"ENV{ID_VENDOR_ID}=="\#(puck.vendor)", ENV{ID_MODEL_ID}=="\#(puck.product)", ENV{FOLLOWME_GPS}="1""#
            let index = try #require(lines.firstIndex { $0 == (puck.enabled ? rule : "#" + rule) }, "\(puck.vendor):\(puck.product)")
            #expect(lines.filter { $0.contains(rule) }.count == 1, "\(puck.vendor):\(puck.product) listed twice")
            // the comment block right above names the module (a disabled rule's comment may span lines)
            let above = lines[..<index].reversed().prefix { $0.hasPrefix("#") && !$0.hasPrefix("#ENV") }
            #expect(above.contains { $0.contains("[linux module: \(puck.module)]") }, "\(puck.vendor):\(puck.product)")
            #expect(!above.isEmpty)
        }
        // Nothing but these ids is recognised
        let recognised = lines.filter { $0.hasPrefix("ENV{ID_VENDOR_ID}") }
        #expect(recognised.count == Self.debianPucks.filter(\.enabled).count)
    }

    @Test("udev rules: role links have no '-', each wants gpsdctl@<link>.service (replacing Debian's), and match the shipped config")
    func udevRoleLinks() throws {
        var links: [String: String] = [:]   // link → wanted unit
        for line in Self.rulesText.split(separator: "\n") where !line.hasPrefix("#") {
            guard case .success(let pairs) = UdevLint.parse(String(line)),
                  let link = pairs.first(where: { $0.key == "SYMLINK" }) else { continue }
            #expect(link.op == "+=")
            let wants = try #require(pairs.first { $0.key == "ENV" && $0.attribute == "SYSTEMD_WANTS" }, "\(line)")
            // "=" replaces a gpsdctl@ttyACM0.service set by Debian's 60-gpsd.rules: one name per puck (TIOCEXCL)
            #expect(wants.op == "=")
            #expect(pairs.contains(Pair(key: "TAG", attribute: nil, op: "+=", value: "systemd")))
            #expect(!link.value.contains("-") && !link.value.contains("/"))
            links[link.value] = wants.value
        }
        #expect(links == ["gpstarget": "gpsdctl@gpstarget.service", "gpsonboard": "gpsdctl@gpsonboard.service"])
        // The shipped config names exactly these links
        let config = try Self.repoText("etc/followme.toml")
        for link in links.keys {
            #expect(config.contains("device = \"/dev/\(link)\""), "etc/followme.toml does not use /dev/\(link)")
        }
    }
    typealias Pair = UdevLint.Pair

    @Test("udev rules sort after 60-serial.rules (ID_SERIAL_SHORT, ID_PATH) and Debian's 60-gpsd.rules")
    func udevRulesOrder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.repoFile("udev").path).filter { $0.hasSuffix(".rules") }
        #expect(names == ["61-followme-gps.rules"])
        for earlier in ["60-serial.rules", "60-gpsd.rules"] { #expect(earlier < "61-followme-gps.rules") }
    }

    @Test("link names are their own systemd instance names (a '-' would become '/')", .enabled(if: systemdEscape != nil))
    func linkNamesEscapeToThemselves() throws {
        let escape = try #require(Self.systemdEscape)
        for link in ["gpstarget", "gpsonboard"] {
            let r = try Self.run(escape, ["--template=gpsdctl@.service", link])
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gpsdctl@\(link).service")
        }
        // Control: the pitfall the names avoid
        let dashed = try Self.run(escape, ["--unescape", "gps-target"])
        #expect(dashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gps/target")
    }

    // MARK: - udevadm test against simulated pucks

    struct PuckCase: Sendable, CustomStringConvertible {
        var description: String
        var vendor: String
        var product: String
        var serial: String?
        var port: String
        var pinned = true
        var maskDebian = false
        var recognised = true
        /// The role link this device must get (nil: none).
        var role: String?
    }

    static let puckCases: [PuckCase] = [
        PuckCase(description: "u-blox 8 pinned by serial → /dev/gpstarget", vendor: "1546", product: "01a8",
                 serial: pinnedSerial, port: "2", role: "gpstarget"),
        PuckCase(description: "BU-353-S4 (PL2303, no serial) pinned by port → /dev/gpsonboard", vendor: "067b",
                 product: "2303", serial: nil, port: "1.2", role: "gpsonboard"),
        PuckCase(description: "u-blox 7 dongle by port, Debian's 60-gpsd.rules masked → /dev/gpsonboard only",
                 vendor: "1546", product: "01a7", serial: nil, port: "1.2", maskDebian: true, role: "gpsonboard"),
        PuckCase(description: "a second u-blox 8 (other serial, other port) gets no role", vendor: "1546", product: "01a8",
                 serial: "OTHER42", port: "3", role: nil),
        PuckCase(description: "FTDI cable in the onboard port: not a recognised GPS chip, no role", vendor: "0403",
                 product: "6001", serial: "FT1", port: "1.2", recognised: false, role: nil),
        PuckCase(description: "shipped rules, nothing pinned: the person's puck gets no role", vendor: "1546",
                 product: "01a8", serial: pinnedSerial, port: "2", pinned: false, role: nil),
    ]

    @Test("udevadm test on a simulated puck: links, gpsd hand-over, permissions", .enabled(if: canSimulatePucks),
          arguments: puckCases)
    func simulatedPuck(_ c: PuckCase) throws {
        let stage = try Stage()
        defer { stage.remove() }
        // Given the rules (pinned as the README says, or as shipped)
        let rules = stage.directory.appendingPathComponent("61-followme-gps.rules")
        try (c.pinned ? Self.pinnedRules() : Self.rulesText).write(to: rules, atomically: true, encoding: .utf8)
        var arguments = [Self.repoFile("udev/simulate-puck.sh").path, "--vendor", c.vendor, "--product", c.product,
                         "--port", c.port]
        if let serial = c.serial { arguments += ["--serial", serial] }
        if c.maskDebian { arguments.append("--mask-debian-gpsd") }

        // When udev handles the "add" event of that puck
        let r = try Self.run(Self.bash, arguments + [rules.path])

        // Then
        #expect(r.exitCode == 0, "\(r.stderr)")
        var properties: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            if let eq = line.firstIndex(of: "=") { properties[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        let links = Set((properties["DEVLINKS"] ?? "").split(separator: " ").map(String.init))
        let wants = (properties["SYSTEMD_WANTS"] ?? "").split(separator: " ").map(String.init)
        #expect(properties["ID_VENDOR_ID"] == c.vendor, "sysfs simulation broken: \(r.stdout)")
        // udev found nothing to complain about in our file
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("/etc/udev/rules.d/61-followme-gps.rules") }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect((properties["FOLLOWME_GPS"] == "1") == c.recognised)
        if c.recognised {
            #expect(properties["ID_MM_DEVICE_IGNORE"] == "1")
            #expect(r.stderr.contains(#/61-followme-gps\.rules:\d+ MODE 0660/#), "\(r.stderr)")
        }
        if let role = c.role {
            #expect(links.contains("/dev/\(role)"), "\(links)")
            // gpsd gets this puck under exactly one name, even with Debian's rule active (TIOCEXCL)
            #expect(wants == ["gpsdctl@\(role).service"], "\(wants)")
            #expect(properties["TAGS"]?.contains(":systemd:") == true)
        }
        for other in ["gpstarget", "gpsonboard"] where other != c.role {
            #expect(!links.contains("/dev/\(other)"), "\(links)")
            #expect(!wants.contains("gpsdctl@\(other).service"), "\(wants)")
        }
        if c.maskDebian {
            #expect(!links.contains { $0.hasPrefix("/dev/gps") && $0.dropFirst(8).allSatisfy(\.isNumber) }, "\(links)")
            #expect(r.stderr.contains("Skipping overridden file '/usr/lib/udev/rules.d/60-gpsd.rules'")
                    || !FileManager.default.fileExists(atPath: "/usr/lib/udev/rules.d/60-gpsd.rules"))
        }
    }
}
