import Foundation
import Testing
import TestSupport

/// The flight log survives `kill -9`: every line already written parses (whole lines only).
@Suite struct FlightLogKillTests {
    @Test("followme run killed with SIGKILL mid-flight leaves a log whose every line parses", .timeLimit(.minutes(2)))
    func sigkillLeavesParsableLog() async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let field = try await SimField.start(in: dir)
        let log = dir.appendingPathComponent("flight.jsonl")
        let run: ChildProcess
        do {
            run = try field.startRun(flightLog: log)
        } catch {
            await field.stop()
            throw error
        }
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // Given a flight that is following (many lines a second are being written)
        let following = await eventually(seconds: 60) { logText().contains(#""to":"following""#) }
        #expect(following, "never reached following: \(run.stderrText.text.suffix(2000))")
        try? await Task.sleep(for: .seconds(2))
        // When it is killed with SIGKILL
        run.signal(SIGKILL)
        _ = await run.waitForExit(seconds: 10)
        await field.stop()
        // Then the log holds complete lines only, each of them JSON, and it reached the kill
        let text = logText()
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count > 20)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "bad line: \(line)")
        }
        #expect(text.contains(#""to":"following""#))
    }
}
