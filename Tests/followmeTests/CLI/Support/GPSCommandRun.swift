import Foundation
import Testing
import TestSupport

/// One `followme gps --json --count N --timeout 40` run against a fresh `SimField` (the sim's two
/// NMEA streams read by one real gpsd), with the field stopped and its directory removed after.
struct GPSCommandRun {
    /// The field the command ran against (stopped; its ports and devices stay readable).
    let field: SimField
    let result: FollowMeBinary.Result
    /// Every stdout line that is a JSON object.
    let objects: [[String: Any]]

    /// Runs the command for `count` fixes (60 s bound) and expects exit 0.
    static func run(count: Int, simArguments: [String] = []) async throws -> GPSCommandRun {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let field = try await SimField.start(in: dir, simArguments: simArguments)
        let r: FollowMeBinary.Result
        do {
            let config = try temporaryConfig(field.configText(), directory: dir)
            r = try FollowMeBinary.run(["gps", "--config", config.path, "--json", "--count", String(count), "--timeout", "40"],
                                       timeoutSeconds: 60)
        } catch {
            await field.stop()
            throw error
        }
        await field.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        let objects = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return GPSCommandRun(field: field, result: r, objects: objects)
    }
}
