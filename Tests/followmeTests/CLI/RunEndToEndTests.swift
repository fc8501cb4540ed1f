import Foundation
import Testing
import TestSupport

/// `followme run` end to end: the simulated drone (`followme sim`, real UDP protocol) serves the
/// drone's and the person's NMEA over TCP, a real gpsd reads both, and `followme run` flies:
/// takes off, follows, lands on SIGTERM confirmed by navdata, exits 0.
@Suite(.serialized) struct RunEndToEndTests {
    @Test("takes off, follows a walking person, lands on SIGTERM and exits 0", .timeLimit(.minutes(3)))
    func flyAndLandOnSIGTERM() async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }

        // Given a simulated drone, a person walking straight once the drone is up, and a real gpsd
        let field = try await SimField.start(in: dir)
        let run: ChildProcess
        do {
            run = try await startRun(field: field, dir: dir)
        } catch {
            await field.stop()
            throw error
        }
        await flyAndLand(run: run, log: dir.appendingPathComponent("flight.jsonl"))
        await run.terminate()
        await field.stop()
    }

    /// Starts `followme run` against the field.
    func startRun(field: SimField, dir: URL) async throws -> ChildProcess {
        // And a config pointing followme at them, when followme runs
        try field.startRun(flightLog: dir.appendingPathComponent("flight.jsonl"), ["--land-timeout", "40"])
    }

    func flyAndLand(run: ChildProcess, log: URL) async {
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        // Then it takes off and starts following within a minute
        let following = await eventually(seconds: 90) { logText().contains(#""to":"following""#) }
        #expect(following, "never reached following; stderr:\n\(run.stderrText.text.suffix(3000))")
        guard following else { return }
        try? await Task.sleep(for: .seconds(8))
        #expect(run.isRunning)

        // When SIGTERM arrives it lands, navdata confirms, and it exits 0
        run.signal(SIGTERM)
        let status = await run.waitForExit(seconds: 60)
        #expect(status == 0, "exit \(String(describing: status)); stderr:\n\(run.stderrText.text.suffix(3000))")
        let text = logText()
        #expect(text.contains(#""to":"landing(shutdown)""#))
        #expect(text.contains(#""to":"landed""#))
        // And every line of the flight log parses
        for line in text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "bad line: \(line)")
        }
    }
}

/// `followme gps --json --count 20` against one real gpsd with two receivers: roles and positions.
@Suite struct GPSCommandEndToEndTests {
    @Test("prints 20 position fixes with the right role for each receiver", .timeLimit(.minutes(2)))
    func twoReceiversOneGPSD() async throws {
        let run = try await GPSCommandRun.run(count: 20)
        let field = run.field, objects = run.objects
        let fixes = objects.filter { $0["lat"] != nil }
        #expect(fixes.count == 20)
        // The sim's drone sits at its home (48.8584, 2.2945); the person stands 10 m south of it.
        for fix in fixes {
            let role = fix["role"] as? String, device = fix["device"] as? String
            let lat = try #require(fix["lat"] as? Double), lon = try #require(fix["lon"] as? Double)
            #expect(abs(lon - 2.2945) < 1e-4)
            switch role {
            case "onboard":
                #expect(device == field.onboardDevice)
                #expect(abs(lat - 48.8584) < 2e-6)   // ~0.2 m
            case "target":
                #expect(device == field.targetDevice)
                #expect(abs(lat - (48.8584 - 10 / 111_200)) < 5e-6)   // the sim's person: 10 m south of home
            default:
                Issue.record("unexpected role \(String(describing: role))")
            }
        }
        #expect(Set(fixes.compactMap { $0["role"] as? String }) == ["target", "onboard"])
        // The onboard receiver's heading arrives too (HDT → gpsd ATT).
        #expect(objects.contains { $0["role"] as? String == "onboard" && $0["heading"] != nil })
    }
}
