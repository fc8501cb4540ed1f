import Foundation
import Testing
import TestSupport

/// The Debian package's files (scripts/package-files.sh, what debian/rules runs) staged into a
/// temporary root, and the debian/ metadata (helpers: DeploymentFilesTests.swift). What dpkg does with
/// them — conffile over an upgrade, purge, the user, /etc/default/gpsd untouched — runs in a
/// debootstrapped root: scripts/test-deb.sh (docs/packaging.md §4).
extension DeploymentFilesTests {
    // MARK: - The package's files

    @Test("the package layout puts every file in place with its mode, nothing more")
    func installStagesEveryFile() throws {
        try Stage.with { stage in
            // When laid out into an empty root
            let r = try stage.install()

            // Then every file is there, byte for byte, with its mode
            #expect(r.exitCode == 0, "\(r.both)")
            for (source, destination) in Self.installedConffiles {
                #expect(try stage.text(destination) == Self.installedText(source), "\(destination)")
                #expect(Self.permissions(stage.path(destination)) == 0o644, "\(destination)")
            }
            let built = FollowMeBinary.url.deletingLastPathComponent()
            #expect(FileManager.default.contentsEqual(atPath: stage.path(Self.installedBinary), andPath: FollowMeBinary.url.path))
            #expect(FileManager.default.contentsEqual(atPath: stage.path(Self.installedTools),
                                                      andPath: built.appendingPathComponent("followme-tools").path))
            for binary in [Self.installedBinary, Self.installedTools] { #expect(Self.permissions(stage.path(binary)) == 0o755) }
            // And nothing else: no /etc/default/gpsd (gpsd's conffile), no unit under /etc/systemd/system
            #expect(try stage.files() == Set(Self.installedConffiles.map(\.destination) + [Self.installedBinary, Self.installedTools]
                + Self.completions.values + Self.manPages + ["usr/share/man/man1/followme-tools.1"]))
        }
    }

    @Test("laying out twice writes the same tree (man pages dated like the binary)")
    func installIsIdempotent() throws {
        try Stage.with(installed: true) { stage in
            let first = try stage.snapshot()
            #expect(try stage.install().exitCode == 0)
            #expect(try stage.snapshot() == first)
        }
    }

    @Test("gpsd's -n comes from a drop-in: /etc/default/gpsd is not in the package, GPSD_OPTIONS not overridden")
    func gpsdDropIn() throws {
        // The repository no longer carries a replacement for gpsd's conffile
        #expect(!FileManager.default.fileExists(atPath: Self.repoFile("etc/default/gpsd").path))
        let dropIn = UnitFile(try Self.repoText("etc/systemd/gpsd-followme.conf"))
        // OPTIONS: in Debian's ExecStart=/usr/sbin/gpsd $GPSD_OPTIONS $OPTIONS $DEVICES, and never set by
        // /etc/default/gpsd (its EnvironmentFile= would override an Environment= of the same name)
        #expect(dropIn.entries.map { "\($0.section) \($0.key)=\($0.value)" } == ["[Service] Environment=OPTIONS=-n"])
        #expect(dropIn.uncommented.isEmpty, "uncommented lines \(dropIn.uncommented)")
    }

    @Test("usage errors exit 2 and lay out nothing", arguments: [["--bogus"], []])
    func usageErrors(_ arguments: [String]) throws {
        try Stage.with { stage in
            let r = try Self.run(Self.bash, [Self.repoFile("scripts/package-files.sh").path] + arguments)
            #expect(r.exitCode == 2, "\(r.both)")
            #expect(r.stderr.contains("package-files.sh:"), "\(r.stderr)")
            #expect(try stage.files() == [])
        }
    }

    @Test("the installed followme binary checks the installed config clean")
    func installedBinaryReadsInstalledConfig() throws {
        try Stage.with(installed: true) { stage in
            let r = try Self.run(stage.path(Self.installedBinary), ["config", "check", stage.path("etc/followme/followme.toml")])
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(r.stdout.contains("/dev/gpstarget"))
        }
    }

    // MARK: - debian/

    @Test("debian/control: Depends gpsd and the libgps soname from dpkg-shlibdeps, Recommends gpsd-clients, qrencode and ffmpeg; the user is not in dialout")
    func debianMetadata() throws {
        let control = try Self.repoText("debian/control")
        let followme = try #require(control.components(separatedBy: "\nPackage: followme\n").last?.components(separatedBy: "\nPackage: ").first)
        #expect(followme.contains("\nDepends: gpsd, ${shlibs:Depends}, ${misc:Depends}\n"), "\(followme)")
        #expect(followme.contains("\nRecommends: gpsd-clients, qrencode, ffmpeg\n"))
        #expect(followme.hasPrefix("Architecture: any\n"), "\(followme)")
        #expect(!control.contains("amd64") && !control.contains("libgps28"), "the architecture and the soname are derived, not named")
        let sysusers = try Self.repoText("debian/followme.sysusers").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(sysusers == [#"u followme - "FollowMe drone follower" /nonexistent /usr/sbin/nologin"#])
        #expect(!sysusers.contains { $0.hasPrefix("m ") }, "no group membership (dialout)")
        // postinst checks the config and never starts the service
        let postinst = try Self.repoText("debian/followme.postinst")
        #expect(postinst.contains("/usr/bin/followme config check \"$config\""))
        let commands = postinst.split(separator: "\n").filter { !$0.contains("echo") && !$0.hasPrefix("#") }
        #expect(!commands.contains { $0.contains("systemctl start") || $0.contains("systemctl restart") || $0.contains("deb-systemd-invoke") })
        #expect(try Self.repoText("debian/rules").contains("dh_installsystemd --no-enable --no-start --no-restart-after-upgrade --no-stop-on-upgrade"))
    }
}
