#if canImport(Glibc)
import Glibc
#endif
import Logging

/// A swift-log handler that formats each message like swift-log's `StreamLogHandler`
/// (`<timestamp> <level> <label> : <metadata> [<source>] <message>`) and hands the line to a
/// `LogWriter`, so logging never blocks the caller (the flight loop runs on the drone link's event
/// loop: a stalled stderr must not stop the AT commands). A line that does not fit the writer's
/// queue is dropped and counted there (`LogWriter.counters`).
public struct QueuedLogHandler: LogHandler {
    public let label: String
    public let writer: LogWriter
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, writer: LogWriter, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.writer = writer
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        writer.enqueue(Self.format(event: event, label: label, handlerMetadata: metadata,
                                   provided: metadataProvider?.get(), timestamp: Self.timestamp()))
    }

    /// One line (with its newline): handler metadata, then the provider's, then the event's (later wins).
    static func format(event: LogEvent, label: String, handlerMetadata: Logger.Metadata,
                       provided: Logger.Metadata?, timestamp: String) -> String {
        var merged = handlerMetadata
        if let provided { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var line = timestamp + " " + event.level.rawValue + " " + label + " :"
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        line += " [" + event.source + "] " + event.message.description + "\n"
        return line
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
