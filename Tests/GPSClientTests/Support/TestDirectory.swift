#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private scratch directory per test: TMPDIR and HOME of the processes the test starts
/// (gpsfake puts its control socket in $TMPDIR), their logs, and fixture copies.
///
/// When the tests run as root the directory is handed to `nobody`, the user the children
/// run as (`ChildProcess.dropsPrivileges`).
final class TestDirectory: Sendable {
    let path: String

    init(label: String) throws {
        var template = Array("/tmp/gpsclienttests-\(label).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw DirectoryError.mkdtemp(errno) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if ChildProcess.dropsPrivileges {
            chown(path, ChildProcess.unprivilegedID, ChildProcess.unprivilegedID)
        }
    }

    enum DirectoryError: Error {
        case mkdtemp(Int32)
        case missingFixture(String)
    }

    /// `path/name`
    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The environment for a child process: a fixed PATH, and TMPDIR/HOME pointing here.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "TMPDIR": path,
            "HOME": path,
            "LANG": "C.UTF-8",
        ].merging(extra) { $1 }
    }

    /// Copies `Fixtures/<name>` from the test bundle here (world-readable) and returns its path.
    func copyFixture(_ name: String) throws -> String {
        let source = try Fixtures.path(name)
        let destination = file(name)
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        chmod(destination, 0o644)
        return destination
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The test bundle's `Fixtures` directory (copied by SwiftPM as a resource).
enum Fixtures {
    static func path(_ name: String) throws -> String {
        guard let dir = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw TestDirectory.DirectoryError.missingFixture("Fixtures")
        }
        let path = dir.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw TestDirectory.DirectoryError.missingFixture(name) }
        return path
    }
}
