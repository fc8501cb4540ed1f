import Foundation
import Testing
import TestSupport

/// `scripts/install.sh` and `scripts/uninstall.sh` staged into a temporary root, and one live
/// install inside a throwaway overlay (helpers: DeploymentFilesTests.swift).
extension DeploymentFilesTests {
    // MARK: - scripts/install.sh into a temporary root

    @Test("install into a temporary root puts every file in place, nothing more")
    func installStagesEveryFile() throws {
        try Stage.with { stage in
            // When it installs into an empty root
            let r = try stage.install()

            // Then every file is there, byte for byte, with its mode
            #expect(r.exitCode == 0, "\(r.both)")
            for (source, destination) in Self.installedConffiles {
                #expect(try stage.text(destination) == Self.installedText(source), "\(destination)")
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
            #expect(try stage.files() == Set(Self.installedConffiles.map(\.destination) + [Self.installedBinary, Self.manifest]
                + Self.completions.values))
            #expect(r.stdout.contains("skipped creating user followme"))
            #expect(r.stdout.contains("skipped systemctl daemon-reload and udevadm reload"))
        }
    }

    @Test("DESTDIR works like --root")
    func destdirEnvironment() throws {
        try Stage.with { stage in
            let r = try Self.run("/usr/bin/env", [
                "DESTDIR=\(stage.root.path)", Self.bash, Self.repoFile("scripts/install.sh").path, "--binary", stage.standIn.path,
            ])
            #expect(r.exitCode == 0, "\(r.both)")
            #expect(stage.exists("etc/followme/followme.toml"))
            #expect(stage.exists(Self.installedBinary))
        }
    }

    @Test("installing twice changes nothing the second time")
    func installIsIdempotent() throws {
        // Given an install
        try Stage.with(installed: true) { stage in
            let first = try stage.snapshot()

            // When it runs again
            let r = try stage.install()

            // Then every path, mode and byte is the same, and it says so
            #expect(r.exitCode == 0, "\(r.both)")
            #expect(try stage.snapshot() == first)
            #expect(!r.stdout.contains("followme-install: installed "), "\(r.stdout)")
            #expect(!r.stdout.contains("followme-install: updated "), "\(r.stdout)")
            #expect(r.stdout.components(separatedBy: "unchanged ").count - 1 == Self.installedConffiles.count + 1 + Self.completions.count)
        }
    }

    @Test("an edited config is never overwritten: the new one arrives as followme.toml.dist")
    func editedConfigIsKept() throws {
        try Stage.with(installed: true) { stage in
            let config = "etc/followme/followme.toml"

            // Given the operator edited the installed config
            let edited = try stage.text(config) + "\n# edited on the field: standoff for this site\n"
            try stage.write(edited, to: config)

            // When install runs again (twice)
            let r = try stage.install()
            let again = try stage.install()

            // Then the edited config stays, and the shipped one is next to it as .dist
            #expect(r.exitCode == 0 && again.exitCode == 0)
            #expect(try stage.text(config) == edited)
            #expect(try stage.text(config + ".dist") == Self.installedText("etc/followme.toml"))
            #expect(r.stdout.contains("kept      /\(config) (edited here)"), "\(r.stdout)")

            // When the operator merges (here: takes the shipped file) and installs again
            try stage.write(Self.installedText("etc/followme.toml"), to: config)
            let merged = try stage.install()

            // Then the stale .dist is gone
            #expect(merged.stdout.contains("unchanged /\(config)"))
            #expect(!stage.exists(config + ".dist"))
        }
    }

    @Test("an /etc file from an older install that nobody edited is updated in place")
    func uneditedOldFileIsUpdated() throws {
        try Stage.with(installed: true) { stage in
            let unit = "etc/systemd/system/followme.service"

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
    }

    @Test("Debian's unedited /etc/default/gpsd is saved and restored; an edited one is left alone")
    func gpsdDefaultsHandOver() throws {
        try Stage.with { stage in
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
    }

    @Test("uninstall removes what install put there, keeps config and logs; --purge removes those too")
    func uninstallAndPurge() throws {
        try Stage.with(installed: true) { stage in
            try stage.write("{\"t\":1}\n", to: "\(Self.logDirectory)/flight.jsonl")

            // When uninstalled
            let r = try stage.uninstall()

            // Then the binary, unit, rules and gpsd defaults are gone; config and flight log stay
            #expect(r.exitCode == 0, "\(r.both)")
            for gone in [Self.installedBinary, "etc/systemd/system/followme.service",
                         "etc/udev/rules.d/61-followme-gps.rules", "etc/default/gpsd"] {
                #expect(!stage.exists(gone), "\(gone)")
            }
            #expect(try stage.text("etc/followme/followme.toml") == Self.installedText("etc/followme.toml"))
            #expect(stage.exists("\(Self.logDirectory)/flight.jsonl"))

            // When uninstalled again, with --purge
            let purge = try stage.uninstall(["--purge"])

            // Then not one file is left
            #expect(purge.exitCode == 0, "\(purge.both)")
            #expect(try stage.files() == [])
            #expect(!stage.exists("etc/followme"))
            #expect(!stage.exists(Self.logDirectory))
        }
    }

    @Test("uninstall keeps pinned (edited) udev rules with the config, as 61-followme-gps.rules.saved")
    func uninstallKeepsPinnedRules() throws {
        try Stage.with(installed: true) { stage in
            let rules = "etc/udev/rules.d/61-followme-gps.rules"
            // Given the operator pinned the person's puck
            let pinned = try Self.pinnedRules()
            try stage.write(pinned, to: rules)

            // When uninstalled
            #expect(try stage.uninstall().exitCode == 0)

            // Then the rules no longer act, but the pins are kept next to the config
            #expect(!stage.exists(rules))
            #expect(try stage.text("etc/followme/61-followme-gps.rules.saved") == pinned)
        }
    }

    @Test("usage errors exit 2 and install nothing", arguments: [["--purge"], ["--bogus"], ["--root"]])
    func usageErrors(_ arguments: [String]) throws {
        try Stage.with { stage in
            let r = try Self.run(Self.bash, [Self.repoFile("scripts/install.sh").path] + arguments)
            #expect(r.exitCode == 2 || (arguments == ["--root"] && r.exitCode == 1), "\(r.both)")
            #expect(r.stderr.contains("followme-install:"), "\(r.stderr)")
            #expect(try stage.files() == [])
        }
    }

    @Test("the installed followme binary checks the installed config clean")
    func installedBinaryReadsInstalledConfig() throws {
        try Stage.with { stage in
            #expect(try stage.install(binary: FollowMeBinary.url.path).exitCode == 0)
            let r = try Self.run(stage.path(Self.installedBinary), ["config", "check", stage.path("etc/followme/followme.toml")])
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(r.stdout.contains("/dev/gpstarget"))
        }
    }

    /// The live path (user, chown, manifest, purge) in a private mount namespace: overlays over
    /// /etc, /usr, /var with their upper layers on a tmpfs, an empty tmpfs over /run (so no
    /// systemctl/udevadm reaches this machine's daemons). Everything vanishes with the namespace.
    @Test("live install (in a throwaway overlay): creates user followme in dialout, owns the logs, purge removes it",
          .enabled(if: canSandboxLiveInstall))
    func liveInstallInOverlay() throws {
        try Stage.with { stage in
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
    }
}
