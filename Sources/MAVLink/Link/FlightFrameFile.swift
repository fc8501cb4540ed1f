import Foundation
import MAVLink

/// The file the MAVLink link keeps a flight's frame in (`FlightFrameRecord`, docs/mavlink.md §7.2):
/// written when a flight of ours gets its frame, removed when it ends, read by the next link at
/// start. JSON, written atomically (a new file renamed over the old, mode 0600). A missing, unreadable
/// or malformed file is no record: the flight is adopted in the autopilot's frame of the moment.
public struct FlightFrameFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public func read() -> FlightFrameRecord? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 4096 else { return nil }
        return try? JSONDecoder().decode(FlightFrameRecord.self, from: data)
    }

    /// Writes `record`, or removes the file for nil. Returns whether it worked.
    @discardableResult
    public func write(_ record: FlightFrameRecord?) -> Bool {
        guard let record else { return unlink(path) == 0 || errno == ENOENT }
        guard let data = try? JSONEncoder().encode(record) else { return false }
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
