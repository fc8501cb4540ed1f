import Foundation
import Testing
import TestSupport

/// The package's man pages (followme(1) from swift-argument-parser's generate-manual, run on the
/// binary; followme.toml(5) from the config rows) and bash/zsh/fish completions
/// (`followme --generate-completion-script`), and the installed config's field paths
/// (helpers: DeploymentFilesTests.swift).
extension DeploymentFilesTests {
    static let manPage = "usr/share/man/man1/followme.1"
    static let configManPage = "usr/share/man/man5/followme.toml.5"
    static var manPages: [String] { [manPage, configManPage] }
    static let completions = [
        "bash": "usr/share/bash-completion/completions/followme",
        "zsh": "usr/share/zsh/vendor-completions/_followme",
        "fish": "usr/share/fish/vendor_completions.d/followme.fish",
    ]

    /// A repository file as the package installs it: the config with the field's paths
    /// (`[log] directory` and `[status] socket` point into /var/log and /run), the others as they are.
    static func installedText(_ source: String) throws -> String {
        let text = try repoText(source)
        guard source == "etc/followme.toml" else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            switch line {
            case "directory = \"out/flights\"": "directory = \"/var/log/followme\""
            case "socket = \"out/followme.sock\"": "socket = \"/run/followme/status.sock\""
            case "takeoff = \"auto\"": "takeoff = \"start\""
            case "listen = \"\"": "listen = \"0.0.0.0:8080\""
            case "code_file = \"\"": "code_file = \"/etc/followme/pairing-secret\""
            default: String(line)
            }
        }.joined(separator: "\n")
    }

    @Test("the installed config logs each flight to /var/log/followme, serves status on /run/followme/status.sock and the cockpit on :8080, and takes off on START")
    func installedConfigHasFieldPaths() throws {
        try Stage.with(installed: true) { stage in
            // Then config check of the installed file shows the field's paths (the checkout's were rewritten)
            let r = try Self.run(stage.path(Self.installedBinary), ["config", "check", stage.path("etc/followme/followme.toml")])
            #expect(r.exitCode == 0, "\(r.both)")
            #expect(r.stdout.contains("\ndirectory = \"/var/log/followme\""), "\(r.stdout)")
            #expect(r.stdout.contains("\nsocket = \"/run/followme/status.sock\""), "\(r.stdout)")
            #expect(r.stdout.contains("\ntakeoff = \"start\"") && r.stdout.contains("\nlisten = \"0.0.0.0:8080\""), "\(r.stdout)")
            #expect(r.stdout.contains("\ncode_file = \"/etc/followme/pairing-secret\""), "\(r.stdout)")
            // And nothing else differs from the checkout's file
            #expect(try Self.installedText("etc/followme.toml") != Self.repoText("etc/followme.toml"))
            #expect(try stage.text("etc/followme/followme.toml") == Self.installedText("etc/followme.toml"))
        }
    }

    /// swift-argument-parser's man page writer next to the followme binary (scripts/test.sh builds it).
    static var generateManual: URL {
        FollowMeBinary.url.deletingLastPathComponent().appendingPathComponent("generate-manual")
    }

    @Test("the package's man pages are roff with every subcommand and every config key; three completion scripts")
    func manPageAndCompletions() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.generateManual.path),
                     "no \(Self.generateManual.path): build it with `swift build --product generate-manual` (scripts/test.sh does)")
        try Stage.with(installed: true) { stage in
            // Then followme(1) is roff with every subcommand, new ones included
            let man = try stage.text(Self.manPage)
            #expect(man.contains(".Dt FOLLOWME 1"), "\(man.prefix(300))")
            for subcommand in ["run", "gps", "config", "pin", "sim", "log", "geojson", "gpx"] {
                #expect(man.contains("\n.It Em \(subcommand)\n"), "no \(subcommand) in the man page")
            }
            // And followme.toml(5) has a section per table and an entry per key, and man(1) renders it
            let config = try stage.text(Self.configManPage)
            #expect(config.hasPrefix(".TH FOLLOWME.TOML 5 "), "\(config.prefix(200))")
            for heading in [".SH [follow]", ".SH [target]", ".SH [failsafe]"] { #expect(config.contains("\n\(heading)\n"), "\(heading)") }
            #expect(config.contains("\n.B standoff_m\n"))
            #expect(!config.split(separator: "\n").contains { $0.hasPrefix(".") && !$0.hasPrefix(".TH") && !$0.hasPrefix(".SH")
                && !$0.hasPrefix(".TP") && !$0.hasPrefix(".B") && !$0.hasPrefix(".br") }, "only man(7) requests")
            for page in Self.manPages { #expect(Self.permissions(stage.path(page)) == 0o644) }
            // And each completion script is non-empty, names followme's subcommands, and bash's parses
            for (shell, path) in Self.completions {
                let script = try stage.text(path)
                #expect(script.contains("geojson") && script.contains("followme"), "\(shell): \(script.prefix(200))")
                #expect(Self.permissions(stage.path(path)) == 0o644)
            }
            let syntax = try Self.run(Self.bash, ["-n", stage.path(Self.completions["bash"]!)])
            #expect(syntax.exitCode == 0, "\(syntax.both)")
        }
    }

    @Test("without a generate-manual tool the layout fails and says so (a package without its man page is not built)")
    func noManualTool() throws {
        try Stage.with { stage in
            // Given a bin directory with followme but no generate-manual
            let bin = stage.directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("followme").path, withDestinationPath: FollowMeBinary.url.path)
            let r = try stage.install(binDirectory: bin.path)
            #expect(r.exitCode != 0, "\(r.both)")
            #expect(r.stderr.contains("generate-manual"), "\(r.stderr)")
        }
    }
}
