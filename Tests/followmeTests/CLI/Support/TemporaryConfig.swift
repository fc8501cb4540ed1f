import Foundation

/// A temporary file holding `text` (in a new directory unless one is given), removed by the caller.
func temporaryConfig(_ text: String, name: String = "followme.toml", directory: URL? = nil) throws -> URL {
    let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("followme-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
}
