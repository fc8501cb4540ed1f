import Foundation
import Testing
import TestSupport

/// The field-deployment files and how the Debian package lays them out: `scripts/package-files.sh`
/// (what debian/rules runs) staged into a temporary root with the real binaries, `systemd-analyze` on
/// the unit, `udevadm test` on the udev rules against simulated USB pucks, and a line-by-line check of
/// the unit, the rules and the gpsd drop-in. Nothing here installs onto this machine. What dpkg itself
/// does with the package (conffile kept over an upgrade, purge, the user, /etc/default/gpsd left
/// alone) is tested in a debootstrapped bookworm root by scripts/test-deb.sh (docs/packaging.md §4).
///
/// This file holds the suite's files, tools and helpers; the tests are in DeploymentPackageTests.swift
/// (the package layout), DeploymentManualTests.swift, DeploymentUnitTests.swift and DeploymentUdevTests.swift.
@Suite struct DeploymentFilesTests {
    // MARK: - Files and tools

    /// The package checkout.
    static let repo = RepositoryRoot.url
    static func repoFile(_ relativePath: String) -> URL { RepositoryRoot.file(relativePath) }
    static func repoText(_ relativePath: String) throws -> String {
        try String(contentsOf: repoFile(relativePath), encoding: .utf8)
    }

    /// Repository file → where the package puts it (relative to the root). The config is rewritten
    /// with the field's paths (``installedText(_:)``); the others are copied as they are.
    static let installedConffiles: [(source: String, destination: String)] = [
        ("etc/followme.toml", "etc/followme/followme.toml"),
        ("etc/systemd/followme.service", "usr/lib/systemd/system/followme.service"),
        ("etc/systemd/gpsd-followme.conf", "usr/lib/systemd/system/gpsd.service.d/followme.conf"),
        ("udev/61-followme-gps.rules", "usr/lib/udev/rules.d/61-followme-gps.rules"),
    ]
    static let installedBinary = "usr/bin/followme"
    static let installedTools = "usr/bin/followme-tools"
    static let logDirectory = "var/log/followme"

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

    // MARK: - Running helpers

    typealias Output = ChildProcess.Completed

    /// Runs `executable arguments…`, killing it (by PID) after `timeoutSeconds`.
    static func run(_ executable: String, _ arguments: [String], timeoutSeconds: Double = 120) throws -> Output {
        try ChildProcess.run(executable, arguments, timeoutSeconds: timeoutSeconds)
    }

    /// A scratch directory with an empty package root `root/`.
    struct Stage {
        let directory: URL
        var root: URL { directory.appendingPathComponent("root") }

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("followme-deploy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("root"),
                                                    withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// Runs `body` on a fresh stage and removes it afterwards; with `installed`, `body` starts
        /// after one `install()` that must exit 0.
        static func with(installed: Bool = false, _ body: (Stage) throws -> Void) throws {
            let stage = try Stage()
            defer { stage.remove() }
            if installed {
                let first = try stage.install()
                #expect(first.exitCode == 0, "\(first.both)")
            }
            try body(stage)
        }
        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }
        func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }
        func write(_ text: String, to relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// `scripts/package-files.sh --bin-dir <bin> --root <root> --tools-root <root> extra…`: both
        /// packages' files into one root, from the build's followme, followme-tools and generate-manual.
        func install(_ extra: [String] = [], binDirectory: String? = nil) throws -> Output {
            try DeploymentFilesTests.run(DeploymentFilesTests.bash, [
                DeploymentFilesTests.repoFile("scripts/package-files.sh").path,
                "--bin-dir", binDirectory ?? FollowMeBinary.url.deletingLastPathComponent().path,
                "--root", root.path, "--tools-root", root.path,
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
}
