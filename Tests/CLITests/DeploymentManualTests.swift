import Foundation
import Testing
import TestSupport

/// scripts/install.sh installs the man page (swift-argument-parser's generate-manual, run on the
/// binary) and the bash/zsh/fish completions (`followme --generate-completion-script`), and the
/// installed config carries the field's paths (helpers: DeploymentFilesTests.swift).
extension DeploymentFilesTests {
    static let manPage = "usr/local/share/man/man1/followme.1"
    static let completions = [
        "bash": "usr/local/share/bash-completion/completions/followme",
        "zsh": "usr/local/share/zsh/site-functions/_followme",
        "fish": "usr/local/share/fish/vendor_completions.d/followme.fish",
    ]

    /// A repository file as scripts/install.sh installs it: the config with the field's paths
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
            default: String(line)
            }
        }.joined(separator: "\n")
    }

    @Test("the installed config logs each flight to /var/log/followme, serves status on /run/followme/status.sock and the cockpit on :8080, and takes off on START")
    func installedConfigHasFieldPaths() throws {
        try Stage.with { stage in
            #expect(try stage.install(binary: FollowMeBinary.url.path).exitCode == 0)
            // Then config check of the installed file shows the field's paths (the checkout's were rewritten)
            let r = try Self.run(stage.path(Self.installedBinary), ["config", "check", stage.path("etc/followme/followme.toml")])
            #expect(r.exitCode == 0, "\(r.both)")
            #expect(r.stdout.contains("\ndirectory = \"/var/log/followme\""), "\(r.stdout)")
            #expect(r.stdout.contains("\nsocket = \"/run/followme/status.sock\""), "\(r.stdout)")
            #expect(r.stdout.contains("\ntakeoff = \"start\"") && r.stdout.contains("\nlisten = \"0.0.0.0:8080\""), "\(r.stdout)")
            // And nothing else differs from the checkout's file
            #expect(try Self.installedText("etc/followme.toml") != Self.repoText("etc/followme.toml"))
            #expect(try stage.text("etc/followme/followme.toml") == Self.installedText("etc/followme.toml"))
        }
    }

    /// swift-argument-parser's man page writer next to the followme binary (scripts/test.sh builds it).
    static var generateManual: URL {
        FollowMeBinary.url.deletingLastPathComponent().appendingPathComponent("generate-manual")
    }

    @Test("a staged install of the real binary puts the man page and three completion scripts in place; uninstall removes them")
    func manPageAndCompletions() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.generateManual.path),
                     "no \(Self.generateManual.path): build it with `swift build --product generate-manual` (scripts/test.sh does)")
        try Stage.with { stage in
            // When the real followme binary is installed into an empty root
            let r = try stage.install(binary: FollowMeBinary.url.path)
            #expect(r.exitCode == 0, "\(r.both)")

            // Then the man page is roff with every subcommand, new ones included
            let man = try stage.text(Self.manPage)
            #expect(man.contains(".Dt FOLLOWME 1"), "\(man.prefix(300))")
            for subcommand in ["run", "gps", "config", "sim", "log", "geojson", "gpx"] {
                #expect(man.contains("\n.It Em \(subcommand)\n"), "no \(subcommand) in the man page")
            }
            #expect(Self.permissions(stage.path(Self.manPage)) == 0o644)
            #expect(r.stdout.contains("installed /\(Self.manPage)"), "\(r.stdout)")
            // And each completion script is non-empty, names followme's subcommands, and bash's parses
            for (shell, path) in Self.completions {
                let script = try stage.text(path)
                #expect(script.contains("geojson") && script.contains("followme"), "\(shell): \(script.prefix(200))")
                #expect(Self.permissions(stage.path(path)) == 0o644)
            }
            let syntax = try Self.run(Self.bash, ["-n", stage.path(Self.completions["bash"]!)])
            #expect(syntax.exitCode == 0, "\(syntax.both)")

            // When installed again, then nothing changes
            let again = try stage.install(binary: FollowMeBinary.url.path)
            #expect(again.stdout.contains("unchanged /\(Self.manPage)"), "\(again.stdout)")
            #expect(!again.stdout.contains("followme-install: installed "), "\(again.stdout)")

            // When uninstalled, then they are gone
            #expect(try stage.uninstall().exitCode == 0)
            #expect(!stage.exists(Self.manPage))
            #expect(Self.completions.values.allSatisfy { !stage.exists($0) })
        }
    }

    @Test("without a generate-manual tool the install still succeeds, says why there is no man page")
    func noManualTool() throws {
        try Stage.with { stage in
            let r = try stage.install(["--generate-manual", stage.directory.appendingPathComponent("missing").path])
            #expect(r.exitCode == 0, "\(r.both)")
            #expect(r.stdout.contains("no generate-manual tool"), "\(r.stdout)")
            #expect(!stage.exists(Self.manPage))
        }
    }
}
