import Logging
import Testing

/// A swift-log destination that keeps every message (level, text, metadata) for a test to read or
/// wait on: what a shell component logged, checked without parsing stderr.
package final class CapturedLog: Sendable {
    /// One logged message; metadata values as text.
    package struct Entry: Sendable {
        package let level: Logger.Level
        package let message: String
        package let metadata: [String: String]
    }

    /// Every message so far, with its arrival time.
    package let recorder = EventRecorder<Entry>()

    package init() {}

    /// A logger writing here at `level` and above.
    package func logger(label: String, level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: label) { [recorder] _ in Handler(recorder: recorder) }
        logger.logLevel = level
        return logger
    }

    /// The messages so far whose text is `message`.
    package func entries(_ message: String) -> [Entry] {
        recorder.events.filter { $0.message == message }
    }

    /// Runs a component from `start` until it logged more than one message or `seconds` passed, stops
    /// it, and returns the one warning whose text is `message` (a test issue, with everything logged,
    /// when there is not exactly one such warning).
    package func onlyWarning(_ message: String, runningFor seconds: Double,
                             start: () async throws -> Void, stop: () async -> Void,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws -> Entry {
        try await start()
        _ = await recorder.waitUntil(timeoutSeconds: seconds) { $0.count > 1 }
        await stop()
        let found = entries(message)
        #expect(found.count == 1 && found.first?.level == .warning, "\(recorder.events)", sourceLocation: sourceLocation)
        return try #require(found.first, sourceLocation: sourceLocation)
    }

    private struct Handler: LogHandler {
        let recorder: EventRecorder<Entry>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.append(Entry(level: event.level, message: "\(event.message)",
                                  metadata: merged.mapValues { "\($0)" }))
        }
    }
}
