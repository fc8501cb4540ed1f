import Foundation  // test-only: find the repository's files from this file's path

/// `<repo>/<relative>`, found from this file's path (`<repo>/Tests/FollowMeConfigTests/…`).
func repositoryPath(_ relative: String) -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent(relative).path
}
