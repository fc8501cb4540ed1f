#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
@testable import Links
import Testing

/// What a log line starts with: the journal's syslog priority under systemd (`JOURNAL_STREAM`),
/// a cleared terminal line when `followme run` draws its status line.
@Suite("Log line style: journal priorities, status-line clearing")
struct LogLineStyleTests {
    @Test("each swift-log level maps to its syslog priority (sd-daemon(3): <2> crit … <7> debug)", arguments: [
        (Logger.Level.critical, 2), (.error, 3), (.warning, 4), (.notice, 5), (.info, 6), (.debug, 7), (.trace, 7),
    ])
    func priorities(_ level: Logger.Level, _ priority: Int) {
        #expect(LogLineStyle.syslogPriority(of: level) == priority)
        // Given journal style, when a line is decorated, then it starts with <N>
        #expect(LogLineStyle(journalPriorities: true).decorate("x", level: level) == "<\(priority)>x")
    }

    @Test("plain style leaves a line alone; every line of a multi-line message gets the priority")
    func multiLine() {
        #expect(LogLineStyle().decorate("a\nb", level: .error) == "a\nb")
        #expect(LogLineStyle(journalPriorities: true).decorate("a\nb", level: .error) == "<3>a\n<3>b")
    }

    @Test("with the status line on, a line first erases the terminal line")
    func statusLineCleared() {
        #expect(LogLineStyle(clearsStatusLine: true).decorate("hold", level: .warning) == "\r\u{1B}[2Khold")
        #expect(LogLineStyle(journalPriorities: true, clearsStatusLine: true).decorate("hold", level: .warning)
            == "\r\u{1B}[2K<4>hold")
    }

    @Test("JOURNAL_STREAM counts only when it names stderr's device and inode", arguments: [
        ("8:1234", true), ("8:1235", false), ("9:1234", false), ("8:1234:5", false), ("", false), ("x:y", false), (nil, false),
    ] as [(String?, Bool)])
    func journalStreamMatch(_ value: String?, _ matches: Bool) {
        #expect(LogLineStyle.journalStreamMatches(value, device: 8, inode: 1234) == matches)
    }

    @Test("forStandardError: journal priorities when JOURNAL_STREAM is stderr's device:inode, not otherwise")
    func forStandardErrorReadsStderr() {
        // Given this process's real stderr
        var info = stat()
        #expect(fstat(STDERR_FILENO, &info) == 0)
        let mine = "\(info.st_dev):\(info.st_ino)"
        // When JOURNAL_STREAM names it, then lines carry priorities; when it names another stream, they do not
        #expect(LogLineStyle.forStandardError(environment: ["JOURNAL_STREAM": mine], statusLine: false).journalPriorities)
        #expect(!LogLineStyle.forStandardError(environment: ["JOURNAL_STREAM": "1:1"], statusLine: false).journalPriorities)
        #expect(!LogLineStyle.forStandardError(environment: [:], statusLine: true).journalPriorities)
        #expect(LogLineStyle.forStandardError(environment: [:], statusLine: true).clearsStatusLine)
    }

    @Test("the queued handler writes the journal priority in front of each line")
    func handlerWritesPriorities() throws {
        // Given a handler in journal style, writing to a file
        let (writer, path) = try LogWriterTests.fileWriter("journal")
        defer { unlink(path) }
        var logger = Logger(label: "followme.test") {
            QueuedLogHandler(label: $0, writer: writer, style: LogLineStyle(journalPriorities: true))
        }
        logger.logLevel = .debug

        // When it logs at four levels
        logger.error("landing", metadata: ["reason": "hold-expired:target-stale"])
        logger.warning("holding")
        logger.notice("following")
        logger.debug("detail")
        writer.shutdown(timeoutSeconds: 5)

        // Then each line starts with its priority, and is otherwise the usual line
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.map { String($0.prefix(3)) } == ["<3>", "<4>", "<5>", "<7>"])
        #expect(lines.first?.hasSuffix(" error followme.test : reason=hold-expired:target-stale [LinksTests] landing") == true,
                "\(lines)")
    }
}
