#if canImport(Glibc)
import Glibc
#endif
import Logging

/// A swift-log handler that formats each message like swift-log's `StreamLogHandler`
/// (`<timestamp> <level> <label> : <metadata> [<source>] <message>`) and hands the line to a
/// `LogWriter`, so logging never blocks the caller (the flight loop runs on the drone link's event
/// loop: a stalled stderr must not stop the AT commands). A line that does not fit the writer's
/// queue is dropped and counted there (`LogWriter.counters`). `style` adds what the reader of
/// stderr needs in front of each line: the journal's priority, or a cleared terminal line.
public struct QueuedLogHandler: LogHandler {
    public let label: String
    public let writer: LogWriter
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// What each line starts with (nothing by default: plain `StreamLogHandler` lines).
    public var style: LogLineStyle

    public init(label: String, writer: LogWriter, metadataProvider: Logger.MetadataProvider? = nil,
                style: LogLineStyle = LogLineStyle()) {
        self.label = label
        self.writer = writer
        self.metadataProvider = metadataProvider
        self.style = style
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        writer.enqueue(Self.format(event: event, label: label, handlerMetadata: metadata,
                                   provided: metadataProvider?.get(), timestamp: Self.timestamp(), style: style))
    }

    /// One line (with its newline): handler metadata, then the provider's, then the event's (later
    /// wins); with `style`'s prefix (a journal priority on every line of a multi-line message, since
    /// the journal splits records at newlines).
    static func format(event: LogEvent, label: String, handlerMetadata: Logger.Metadata,
                       provided: Logger.Metadata?, timestamp: String, style: LogLineStyle = LogLineStyle()) -> String {
        var merged = handlerMetadata
        if let provided { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var line = timestamp + " " + event.level.rawValue + " " + label + " :"
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        line += " [" + event.source + "] " + event.message.description
        return style.decorate(line, level: event.level) + "\n"
    }

    /// Local time like `StreamLogHandler`: `%Y-%m-%dT%H:%M:%S%z`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What a log line starts with, for whoever reads stderr.
///
/// - Under systemd with stderr connected to the journal, a syslog priority `<N>` (sd-daemon(3):
///   `SD_ERR` is `"<3>"` … `SD_DEBUG` `"<7>"`), so `journalctl -p warning` finds warnings and worse;
///   without it the journal stores every line at the unit's default priority (info).
/// - On a terminal that shows `followme run`'s status line (drawn with `\r`, no newline), the escape
///   `\r\e[2K` (carriage return, erase the whole line) first, so a log line is not glued to it; the
///   status line is drawn again below at its next refresh.
public struct LogLineStyle: Sendable, Hashable {
    /// Start each line with its syslog priority (`syslogPriority(of:)`).
    public var journalPriorities: Bool
    /// Start each line by erasing the terminal line (a status line may be on it).
    public var clearsStatusLine: Bool

    public init(journalPriorities: Bool = false, clearsStatusLine: Bool = false) {
        self.journalPriorities = journalPriorities
        self.clearsStatusLine = clearsStatusLine
    }

    /// Carriage return + ECMA-48 "erase in line, entire line" (`CSI 2 K`).
    public static let clearLine = "\r\u{1B}[2K"

    /// The syslog priority of a swift-log level (syslog(3): 2 crit, 3 err, 4 warning, 5 notice,
    /// 6 info, 7 debug). swift-log has no emergency or alert; trace is finer than debug, and
    /// syslog has nothing finer, so both are 7.
    public static func syslogPriority(of level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    /// `line` (without its final newline) as written: each of its lines prefixed as the style says.
    public func decorate(_ line: String, level: Logger.Level) -> String {
        var out = clearsStatusLine ? Self.clearLine : ""
        if journalPriorities {
            let prefix = "<\(Self.syslogPriority(of: level))>"
            out += prefix + line.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + prefix)
        } else {
            out += line
        }
        return out
    }

    /// Whether `JOURNAL_STREAM` (systemd.exec(5): `DEVICE:INODE` of the stream the service manager
    /// connected stdout/stderr to, in decimal) names the stream that is stderr now. A variable
    /// inherited by a child whose stderr went elsewhere (a terminal, a file) does not match, and
    /// that child must not write journal prefixes.
    public static func journalStreamMatches(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return false }
        return d == device && i == inode
    }

    /// The style for stderr: journal priorities when `JOURNAL_STREAM` in `environment` names
    /// stderr (checked with `fstat(2)`), the status-line clearing when `statusLine` is on.
    public static func forStandardError(environment: [String: String], statusLine: Bool) -> LogLineStyle {
        var info = stat()
        let connected = fstat(STDERR_FILENO, &info) == 0
            && journalStreamMatches(environment["JOURNAL_STREAM"], device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return LogLineStyle(journalPriorities: connected, clearsStatusLine: statusLine)
    }
}
