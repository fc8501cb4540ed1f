import Foundation

/// Loads files from `Fixtures/` (copied into the test bundle by `resources: [.copy("Fixtures")]`).
enum Fixture {
    static let fw248GPS = "node-ar-drone_navdata_full_fw248-gps.bin"
    static let full2012 = "node-ar-drone_navdata_full_2012.bin"
    static let fw247GPS480 = "node-ar-drone_navdata_full_fw247-gps480.bin"
    static let bootstrap = "navdata_bootstrap_24byte_forum.bin"
    static let allNavdata = [fw248GPS, full2012, fw247GPS480, bootstrap]

    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name) not found in the test bundle" }
    }

    static func url(_ name: String) throws -> URL {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Missing(name: "Fixtures/")
        }
        return directory.appendingPathComponent(name)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }
}
