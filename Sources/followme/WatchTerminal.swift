#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FollowCore
import Links
import Synchronization

/// Set by SIGINT/SIGTERM/SIGHUP while `followme watch` runs (a signal handler may only set a flag).
let watchQuitRequested = Atomic<Bool>(false)

/// The terminal of `followme watch`: the alternate screen, no cursor, keys read one at a time
/// without echo; `restore()` puts everything back (also after Ctrl-C, which arrives as a key).
final class WatchTerminal {
    private var saved = termios()
    private var rawMode = false

    /// Enters full-screen mode on stdout (and raw keys on stdin if it is a terminal).
    init() {
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 {
            var raw = saved
            // No line buffering, no echo; Ctrl-C is a key (0x03) so the screen is restored before exit.
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            rawMode = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
        }
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// The terminal's size (columns, rows); 80 × 24 if it cannot be asked.
    static func size() -> (columns: Int, rows: Int) {
        var w = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    /// Redraws in place: cursor home, each line over the old one (cleared to its end), everything
    /// below the last line cleared. No full clear, so nothing flickers.
    func draw(_ lines: [String]) {
        Self.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    /// Leaves the alternate screen, shows the cursor, restores the keyboard mode.
    func restore() {
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
        if rawMode { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        rawMode = false
    }

    /// Whether `bytes` (keys read from stdin) ask to quit: `q`, `Q`, Ctrl-C, Ctrl-D.
    /// The operator command a key asks for: L lands, H holds, R resumes (either case); the last such
    /// key in `bytes` wins. START is not on a key: a take-off needs the cockpit's confirm or `followme start`.
    static func operatorCommand(_ bytes: some Sequence<UInt8>) -> OperatorCommand? {
        var command: OperatorCommand?
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "l"), UInt8(ascii: "L"): command = .land
            case UInt8(ascii: "h"), UInt8(ascii: "H"): command = .hold
            case UInt8(ascii: "r"), UInt8(ascii: "R"): command = .resume
            default: break
            }
        }
        return command
    }

    static func asksToQuit(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") || $0 == 0x03 || $0 == 0x04 }
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// SIGINT, SIGTERM and SIGHUP set `watchQuitRequested`; SIGPIPE is ignored (stdout may be a pipe).
    static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { _ in watchQuitRequested.store(true, ordering: .relaxed) }
        }
    }
}

/// A connection to a flight's status socket, split into lines; it may also send operator commands.
final class StatusSocketReader {
    let fd: Int32
    private var lines = LineSplitter()

    /// Connects to the Unix socket at `path`; throws the reason a person reads on the waiting screen.
    init(path: String) throws(UnixSocketAddress.Failure) {
        fd = try UnixSocketAddress.connectStream(path: path)
    }

    deinit { Glibc.close(fd) }

    /// Reads what is there (call when poll says readable): the complete lines, or nil at end of stream.
    func readLines() -> [String]? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard n > 0 else { return nil }
        return lines.append(chunk[..<n])
    }

    /// Sends one operator command (`{"command":"land","via":"cli"}`); false if the socket is gone.
    /// The line is tiny: the kernel takes it whole or not at all.
    func send(_ command: OperatorCommand, via: String) -> Bool {
        send(.command(command), via: via)
    }

    /// Sends one request: a command as above, or a change of follow mode
    /// (`{"command":"mode","mode":"angle","angle_deg":90.0,"via":"cli"}`); false if the socket is gone.
    func send(_ request: OperatorRequest, via: String) -> Bool {
        var fields = ["\"command\":\"\(request.name)\""]
        if case .followMode(let change) = request {
            fields.append("\"mode\":\"\(change.mode.rawValue)\"")
            if let angle = change.angleDegrees { fields.append("\"angle_deg\":\(angle)") }
            if let direction = change.orbitDirection { fields.append("\"orbit_direction\":\"\(direction.rawValue)\"") }
        }
        fields.append("\"via\":\"\(via)\"")
        let line = Array(("{" + fields.joined(separator: ",") + "}\n").utf8)
        let n = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return n == line.count
    }
}
