import Foundation

/// Runs the built `followme` executable (it sits next to the test bundle in the build folder).
struct FollowMeBinary {
    struct Result {
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    static var url: URL {
        // CommandLine.arguments[0] is the test runner inside .build/<triple>/debug/.
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("followme")
    }

    /// Runs `followme args…`, killing it after `timeoutSeconds`.
    static func run(_ args: [String], timeoutSeconds: Double = 30) throws -> Result {
        let p = Process()
        p.executableURL = url
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        // Drain pipes concurrently so a chatty child cannot block on a full pipe.
        let outData = LockedData(), errData = LockedData()
        let g = DispatchGroup()
        for (h, d) in [(out.fileHandleForReading, outData), (err.fileHandleForReading, errData)] {
            g.enter()
            DispatchQueue.global().async { d.set(h.readDataToEndOfFile()); g.leave() }
        }
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        g.wait()
        return Result(exitCode: p.terminationStatus,
                      stdout: String(decoding: outData.get(), as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A temporary file holding `text` (in a new directory unless one is given), removed by the caller.
func temporaryConfig(_ text: String, name: String = "followme.toml", directory: URL? = nil) throws -> URL {
    let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("followme-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
}
