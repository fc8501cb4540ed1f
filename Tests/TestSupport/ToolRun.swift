import Foundation

/// A short command-line tool (ffmpeg, ffprobe, followme) run to the end through `/usr/bin/env`: its exit status and
/// everything it wrote to stdout, as text and as bytes (a decoded picture is binary); stderr is the test's.
package enum ToolRun {
    package static func run(_ arguments: [String]) throws -> (status: Int32, output: String, bytes: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), [UInt8](data))
    }
}
