import Foundation  // test-only: find the repository's files from this file's path

/// `<repo>/<relative>`, found from this file's path (`<repo>/Tests/FlightServiceTests/FollowMeConfig/…`).
func repositoryPath(_ relative: String) -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.appendingPathComponent(relative).path
}
