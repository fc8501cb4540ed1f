#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Cockpit
import FlightRecords
import FlightService
import Foundation
import Links

/// `followme pair`: the unit's pairing secret, the cockpit's address with it in the URL fragment
/// (`#pair=…`: never in a request line or a log), and that URL as a QR code a phone's camera opens
/// already paired (docs/commands.md §4.8). `--new` makes a new secret, which voids every paired phone.
struct PairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Show the cockpit's pairing secret and a QR code that opens the cockpit paired.",
        discussion: """
            Reads the secret from the config's [web] code_file (the package makes one per unit: \
            \(PairCommand.packagedSecretPath), readable by root and the service only: run as root). \
            The QR code (drawn by qrencode) holds http://ADDRESS:PORT/#pair=SECRET; with several \
            network interfaces up it says which address it chose, --host picks another. --new makes a \
            new secret and revokes every paired phone; it is refused while the drone flies (a paired \
            phone's LAND must stay valid in the air): land first. Exit codes: 0 shown; 1 the secret \
            cannot be read or written, --new refused in flight, or --png without qrencode; 2 bad usage \
            or [web] code_file = "" (the code then changes at every start: it is in the journal).
            """)

    /// Where the package's postinst writes the unit's secret (debian/followme.postinst).
    static let packagedSecretPath = "/etc/followme/pairing-secret"

    @OptionGroup var configOption: ConfigOption

    @Option(name: .long, help: ArgumentHelp("The address the phone opens the cockpit at (default: the first interface's).",
                                            valueName: "address"))
    var host: String?

    @Option(name: .long, help: ArgumentHelp("Also write the QR code as a PNG image to this file.", valueName: "file"))
    var png: String?

    @Flag(name: .long, help: "Make a new secret first: every paired phone must pair again. Refused while the drone flies.")
    var new = false

    @Flag(name: .long, help: "With --new: only when there is no secret yet (the package's postinst).")
    var ifMissing = false

    @Flag(name: .long, help: "With --new: print nothing but errors.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("With --new: the flight's status socket, asked whether it flies "
        + "(default: the config's [status] socket, else \(StatusSocketOptions.installedSocketPath)).", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("The secret's file (default: the config's [web] code_file); with --new --quiet "
        + "the config is not read (the package's postinst).", valueName: "file"))
    var secretFile: String?

    func validate() throws {
        if (ifMissing || quiet), !new { throw ValidationError("--if-missing and --quiet go with --new") }
    }

    func run() throws {
        // The postinst's call (--new --quiet --secret-file) reads no config: a refused one must not fail the install.
        let loaded: FollowMeConfiguration? = (new && quiet && secretFile != nil) ? nil : loadConfigurationOrExit(path: configOption.config)
        guard let file = secretFile ?? loaded?.web.codeFile else {
            printError("followme pair: \(configOption.config) has [web] code_file = \"\": the code changes at every start of "
                + "followme run (journalctl -u followme | grep pairing). For one secret per unit: set "
                + "code_file = \"\(Self.packagedSecretPath)\", then sudo followme pair --new")
            throw ExitCode(2)
        }
        if new, !(ifMissing && FileManager.default.fileExists(atPath: file)) {
            let statusSocket = loaded.map(\.status.socketPath).flatMap { $0.isEmpty ? nil : $0 }
            try refuseInFlight(socketPath: socket ?? statusSocket ?? StatusSocketOptions.installedSocketPath)
            try Self.writeNewSecret(to: file)
            if !quiet { print("followme pair: new secret in \(file); every phone paired before must pair again") }
        }
        if quiet { return }
        let config = loaded ?? loadConfigurationOrExit(path: configOption.config)
        let secret: PairingCode
        do { secret = try PairingCode(contentsOfFile: file) } catch {
            printError("followme pair: \(error)")
            throw ExitCode(1)
        }
        let url = cockpitURL(config: config, secret: secret)
        print("pairing secret: \(secret.display)")
        guard let url else { return }
        print("cockpit, paired: \(url)")
        flushStandardOutput()
        let terminal = isatty(STDOUT_FILENO) == 1
        if !QRCode.draw(url, arguments: ["-t", terminal ? "ANSIUTF8" : "UTF8", "-m", "2"]) {
            printError("followme pair: no QR code: install qrencode (apt install qrencode), or type the address and the secret")
        }
        if let png {
            guard QRCode.draw(url, arguments: ["-t", "PNG", "-s", "8", "-m", "4", "-o", png]) else {
                printError("followme pair: could not write \(png): qrencode is missing or failed (apt install qrencode)")
                throw ExitCode(1)
            }
            print("QR code written to \(png)")
        }
    }

    /// The cockpit's address with the secret in its fragment, or nil when `[web] listen` is off (said).
    private func cockpitURL(config: FollowMeConfiguration, secret: PairingCode) -> String? {
        guard let endpoint = WebListenAddress(config.web.listen) else {
            printError("followme pair: [web] listen is \"\" in \(configOption.config): the cockpit is off; set listen = \"0.0.0.0:8080\"")
            return nil
        }
        var address: String
        if let host {
            address = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(endpoint.port)" : "\(host):\(endpoint.port)"
        } else {
            let candidates = RunCommand.cockpitAddresses(endpoint)
            address = candidates.first ?? "127.0.0.1:\(endpoint.port)"
            if candidates.count > 1 {
                print("address: \(address) chosen of \(candidates.joined(separator: ", ")); --host ADDRESS for another")
            } else if candidates.isEmpty {
                print("address: no network interface is up; \(address) works on this computer only (--host ADDRESS)")
            }
        }
        return "http://\(address)/#pair=\(secret.text)"
    }

    /// Exit 1 when the flight on status socket `path` is in the air (anything but preflight and
    /// landed): rotating then would take the paired phone's LAND away. No flight answering: fine.
    private func refuseInFlight(socketPath path: String) throws {
        guard let reader = try? StatusSocketReader(path: path) else { return }
        let deadline = SystemClock.now().adding(seconds: 2)
        while SystemClock.now() < deadline {
            var pfd = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 250)
            guard pfd.revents != 0, let lines = reader.readLines() else { continue }
            guard let status = lines.lazy.compactMap(FlightStatus.decode(jsonLine:)).first else { continue }
            let kind = status.state.prefix { $0 != "(" }
            guard kind == "preflight" || kind == "landed" else {
                printError("followme pair: the drone is \(status.state): a new secret now would take the paired phone's LAND "
                    + "away in flight. Land first (followme land), then run followme pair --new again")
                throw ExitCode(1)
            }
            return
        }
    }

    /// Writes a new secret to `path` atomically (a new file renamed over it, mode 0600), owned by the
    /// service's user `followme` when that user exists and this runs as root (the service reads it).
    static func writeNewSecret(to path: String) throws {
        let secret = PairingCode.random()
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            printError("followme pair: cannot write \(temporary): \(String(cString: strerror(errno))) (run as root)")
            throw ExitCode(1)
        }
        let line = secret.text + "\n"
        let written = line.utf8.withContiguousStorageIfAvailable { write(descriptor, $0.baseAddress, $0.count) } ?? -1
        if geteuid() == 0, let user = getpwnam("followme") { fchown(descriptor, user.pointee.pw_uid, user.pointee.pw_gid) }
        fchmod(descriptor, 0o600)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == line.utf8.count, synced, rename(temporary, path) == 0 else {
            printError("followme pair: cannot write \(path): \(String(cString: strerror(errno)))")
            unlink(temporary)
            throw ExitCode(1)
        }
    }
}

/// QR codes by Debian's `qrencode` (libqrencode's command line): the terminal's and the PNG's.
enum QRCode {
    /// Runs `qrencode ARGUMENTS TEXT` with its output on ours; false when it is missing or fails.
    static func draw(_ text: String, arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["qrencode"] + arguments + [text]
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
