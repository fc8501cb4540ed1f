#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The name of one flight's log in a `[log] directory`: its UTC start time, to the second,
/// `2026-11-23T101500Z.jsonl`; a second flight starting in the same second gets `…Z-2.jsonl`, then
/// `-3`, … (no colons: the name is valid on every file system a log might be copied to).
public struct FlightLogFileName: Sendable, Hashable, Comparable {
    /// `2026-11-23T101500Z`: sorts like the time it names.
    public var stamp: String
    /// 1 for the first flight of its second (no suffix), 2 for `-2`, …
    public var sequence: Int

    public static let fileExtension = ".jsonl"

    /// The first name for a flight that started at `unixSeconds` (UTC).
    public init(startUnixSeconds unixSeconds: Int64, sequence: Int = 1) {
        // iso8601UTC: "2026-11-23T10:15:00.000Z" → "2026-11-23T101500Z".
        let iso = iso8601UTC(seconds: unixSeconds, nanoseconds: 0)
        stamp = String(iso.prefix(19)).replacingOccurrences(of: ":", with: "") + "Z"
        self.sequence = sequence
    }

    /// Parses a file name this type wrote; nil for any other file (which retention never touches).
    public init?(fileName: String) {
        guard fileName.hasSuffix(Self.fileExtension) else { return nil }
        let base = fileName.dropLast(Self.fileExtension.count)
        let parts = base.split(separator: "-", omittingEmptySubsequences: false)
        // "YYYY", "MM", "DDTHHMMSSZ" and an optional sequence ≥ 2.
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let stamp = parts[0...2].joined(separator: "-")
        let shape = Array(stamp.utf8)
        let digitOffsets = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16]
        guard shape.count == 18, shape[10] == UInt8(ascii: "T"), shape[17] == UInt8(ascii: "Z"),
              digitOffsets.allSatisfy({ (48...57).contains(shape[$0]) })
        else { return nil }
        var sequence = 1
        if parts.count == 4 {
            guard let n = Int(parts[3]), n >= 2, String(n) == parts[3] else { return nil }
            sequence = n
        }
        self.stamp = stamp
        self.sequence = sequence
    }

    public var fileName: String {
        stamp + (sequence == 1 ? "" : "-\(sequence)") + Self.fileExtension
    }

    /// The same start second, the next sequence number.
    public var next: FlightLogFileName {
        var n = self
        n.sequence += 1
        return n
    }

    /// Oldest first: by start time, then by sequence (`-10` after `-9`).
    public static func < (a: FlightLogFileName, b: FlightLogFileName) -> Bool {
        (a.stamp, a.sequence) < (b.stamp, b.sequence)
    }
}

/// How many flight logs a `[log] directory` keeps: the decision only, without any I/O.
public struct FlightLogRetention: Sendable, Hashable {
    /// At most this many flight logs, the current one included; 0 = no limit.
    public var maxFlights: Int
    /// At most this many bytes of flight logs in all; 0 = no limit.
    public var maxTotalBytes: Int64

    /// One file found in the directory.
    public struct Entry: Sendable, Hashable {
        public var fileName: String
        public var sizeBytes: Int64
    }

    /// The files to delete, oldest first, so that the flight logs left (the current one counted,
    /// listed or not) are within both limits. Only names `FlightLogFileName` parses are counted or
    /// removed (a file someone put there is left alone), and never `current`: a limit the
    /// current flight alone exceeds leaves it as the only log.
    public func filesToRemove(in entries: [Entry], current: String) -> [String] {
        let logs = entries.compactMap { e in FlightLogFileName(fileName: e.fileName).map { (name: $0, entry: e) } }
            .sorted { $0.name < $1.name }
        var count = logs.count + (logs.contains { $0.entry.fileName == current } ? 0 : 1)
        var total = logs.reduce(Int64(0)) { $0 + $1.entry.sizeBytes }
        var removed: [String] = []
        for log in logs where log.entry.fileName != current {
            let tooMany = maxFlights > 0 && count > maxFlights
            let tooLarge = maxTotalBytes > 0 && total > maxTotalBytes
            guard tooMany || tooLarge else { break }
            removed.append(log.entry.fileName)
            count -= 1
            total -= log.entry.sizeBytes
        }
        return removed
    }

    public init(maxFlights: Int, maxTotalBytes: Int64) {
        self.maxFlights = maxFlights
        self.maxTotalBytes = maxTotalBytes
    }
}

/// The shell side of a `[log] directory`: create it, claim this flight's file, apply retention.
public enum FlightLogDirectory {
    /// What `startFlight` did.
    public struct Started: Sendable, Hashable {
        /// The new, empty log file of this flight.
        public var path: String
        /// Older flight logs deleted by retention (file names).
        public var removed: [String]
        /// Older flight logs retention wanted gone but could not delete, with the reason.
        public var failedRemovals: [String: String]
    }

    public enum DirectoryError: Error, CustomStringConvertible {
        case cannotCreate(directory: String, reason: String)
        public var description: String {
            switch self {
            case .cannotCreate(let directory, let reason): "\(directory): cannot create a flight log there: \(reason)"
            }
        }
    }

    /// Creates `directory` if needed, creates this flight's file (exclusively: two flights never
    /// share one, whatever the clock says) named by `startUnixSeconds`, then deletes the oldest
    /// logs `retention` says to. A deletion that fails is reported, never fatal.
    public static func startFlight(directory: String, startUnixSeconds: Int64,
                                   retention: FlightLogRetention) throws(DirectoryError) -> Started {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(directory: directory, reason: error.localizedDescription)
        }
        var name = FlightLogFileName(startUnixSeconds: startUnixSeconds)
        var path = ""
        // Bounded: 1000 flights in one second means something else is wrong.
        for _ in 0..<1000 {
            path = (directory as NSString).appendingPathComponent(name.fileName)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                close(fd)
                break
            }
            guard errno == EEXIST else {
                throw .cannotCreate(directory: directory, reason: String(cString: strerror(errno)))
            }
            name = name.next
            path = ""
        }
        guard !path.isEmpty else { throw .cannotCreate(directory: directory, reason: "1000 flight logs named \(name.stamp) exist") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let entries = names.map { file in
            let size = (try? FileManager.default.attributesOfItem(atPath: (directory as NSString).appendingPathComponent(file)))?[.size]
            return FlightLogRetention.Entry(fileName: file, sizeBytes: (size as? NSNumber)?.int64Value ?? 0)
        }
        var started = Started(path: path, removed: [], failedRemovals: [:])
        for file in retention.filesToRemove(in: entries, current: name.fileName) {
            if unlink((directory as NSString).appendingPathComponent(file)) == 0 {
                started.removed.append(file)
            } else {
                started.failedRemovals[file] = String(cString: strerror(errno))
            }
        }
        return started
    }
}
