import Foundation
import TestSupport

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

extension TestDirectory {
    /// Copies `Fixtures/<name>` from the test bundle here (world-readable) and returns its path.
    func copyFixture(_ name: String) throws -> String {
        try copy(try Fixtures.path(name), as: name)
    }
}
