#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private scratch directory per test: TMPDIR and HOME of the processes the test starts
/// (gpsfake puts its control socket in $TMPDIR), their logs, and fixture copies.
///
/// When the tests run as root the directory is handed to `nobody`, the user the children
/// run as (`ChildProcess.dropsPrivileges`).
package final class TestDirectory: Sendable {
    package let path: String

    package init(label: String, prefix: String = "gpsclienttests") throws {
        var template = Array("/tmp/\(prefix)-\(label).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw DirectoryError.mkdtemp(errno) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if ChildProcess.dropsPrivileges {
            chown(path, ChildProcess.unprivilegedID, ChildProcess.unprivilegedID)
        }
    }

    package enum DirectoryError: Error {
        case mkdtemp(Int32)
        case missingFixture(String)
    }

    /// `path/name`
    package func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The environment for a child process: a fixed PATH, and TMPDIR/HOME pointing here.
    package func environment(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "TMPDIR": path,
            "HOME": path,
            "LANG": "C.UTF-8",
        ].merging(extra) { $1 }
    }

    /// Copies the file at `source` here as `name` (world-readable) and returns its path.
    package func copy(_ source: String, as name: String) throws -> String {
        let destination = file(name)
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        chmod(destination, 0o644)
        return destination
    }

    /// Deletes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
