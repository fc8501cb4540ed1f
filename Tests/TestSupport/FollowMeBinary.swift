#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The built `followme` executable (it sits next to the test bundle in the build folder).
package enum FollowMeBinary {
    package typealias Result = ChildProcess.Completed

    package static var url: URL {
        // CommandLine.arguments[0] is the test runner inside .build/<triple>/debug/.
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("followme")
    }

    /// The executable for `followme run`: `$FAULT_RUN_BINARY` if set (e.g. a build of an older
    /// commit, to show that a test fails without a fix), else `url`.
    package static var runURL: URL {
        ProcessInfo.processInfo.environment["FAULT_RUN_BINARY"].map { URL(fileURLWithPath: $0) } ?? url
    }

    /// Runs `followme args…` to the end, killing it (SIGKILL) after `timeoutSeconds`.
    package static func run(_ args: [String], timeoutSeconds: Double = 30) throws -> Result {
        try ChildProcess.run(url.path, args, timeoutSeconds: timeoutSeconds)
    }
}

/// The repository's root directory (this file is Tests/TestSupport/FollowMeBinary.swift).
package enum RepositoryRoot {
    package static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `url` + a path relative to the repository's root.
    package static func file(_ relativePath: String) -> URL { url.appendingPathComponent(relativePath) }
}

/// A new scratch directory `followme-<label>-<UUID>` under the temporary directory, writable by
/// everyone so a gpsd running as nobody can put its control socket there. Removed by the caller.
package func scratchDirectory(label: String = "e2e") throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("followme-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    chmod(dir.path, 0o777)
    return dir
}

/// A scratch directory for one flight, with the status socket's path and the flight log's URL in it.
package func flightScratch(label: String) throws -> (dir: URL, socket: String, log: URL) {
    let dir = try scratchDirectory(label: label)
    return (dir, dir.appendingPathComponent("status.sock").path, dir.appendingPathComponent("flight.jsonl"))
}
