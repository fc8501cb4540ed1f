#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `followme pair`: the secret, the paired URL and its QR code (read back by zbarimg), `--new`.
@Suite struct PairCommandTests {
    /// A config with the cockpit on and its secret in `dir`.
    func config(in dir: URL, codeFile: String?, listen: String = "0.0.0.0:8080") throws -> URL {
        try temporaryConfig("""
            [target]
            device = "/dev/gpstarget"
            [onboard]
            device = "/dev/gpsonboard"
            [web]
            listen = "\(listen)"
            code_file = "\(codeFile ?? "")"
            """, directory: dir)
    }

    @Test("--new writes a 50-bit secret (mode 0600); pair prints it in groups and writes a QR code that reads back as the paired URL")
    func qrCode() throws {
        let zbarimg = try #require(ChildProcess.locate("zbarimg"), "zbar-tools is not installed (scripts/ensure-deps.sh --test)")
        let dir = try scratchDirectory(label: "pair")
        defer { try? FileManager.default.removeItem(at: dir) }
        let secretFile = dir.appendingPathComponent("pairing-secret").path
        let config = try config(in: dir, codeFile: secretFile)
        let made = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--new", "--if-missing", "--quiet", "--secret-file", secretFile],
                                        timeoutSeconds: 30)
        #expect(made.exitCode == 0 && made.stdout.isEmpty, "\(made.stdout) \(made.stderr)")
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var info = stat()
        #expect(stat(secretFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(secret.count == 10, "\(secret)")
        // --if-missing keeps what is there (an upgrade's postinst).
        _ = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--new", "--if-missing", "--quiet", "--secret-file", secretFile],
                                 timeoutSeconds: 30)
        #expect(try String(contentsOfFile: secretFile, encoding: .utf8).hasPrefix(secret))

        let png = dir.appendingPathComponent("pair.png").path
        let shown = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--config", config.path, "--host", "127.0.0.1", "--png", png],
                                         timeoutSeconds: 30)
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("pairing secret: \(secret.prefix(5))-\(secret.dropFirst(5))"), "\(shown.stdout)")
        let url = "http://127.0.0.1:8080/#pair=\(secret)"
        #expect(shown.stdout.contains("cockpit, paired: \(url)"), "\(shown.stdout)")
        let decoded = try ChildProcess.run(zbarimg, ["-q", "--raw", png], timeoutSeconds: 30)
        #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == url, "\(decoded.stdout) \(decoded.stderr)")

        // --new makes another one (no flight answers on the socket: allowed).
        let rotated = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--config", config.path, "--new", "--socket",
                                                                     dir.appendingPathComponent("none.sock").path], timeoutSeconds: 30)
        #expect(rotated.exitCode == 0 && rotated.stdout.contains("every phone paired before must pair again"), "\(rotated.stderr)")
        #expect(try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) != secret)
    }

    @Test("code_file = \"\": exit 2 saying where the code is and how to get one secret per unit")
    func noCodeFile() throws {
        let dir = try scratchDirectory(label: "pair-none")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ChildProcess.run(FollowMeBinary.url.path, ["pair", "--config", try config(in: dir, codeFile: nil).path], timeoutSeconds: 30)
        #expect(r.exitCode == 2 && r.stderr.contains("code_file = \"/etc/followme/pairing-secret\"") && r.stderr.contains("grep pairing"),
                "\(r.stderr)")
    }
}
