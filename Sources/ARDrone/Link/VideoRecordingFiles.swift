#if canImport(Glibc)
import Glibc
#endif

/// The recordings' directory: names, sizes, the budget and the free-space floor (docs/video.md §3).
///
/// A recording is `<id>.h264` (the raw H.264 as the drone sent it), `<id>.video.jsonl` (its frame
/// index) and, once muxed, `<id>.mp4`; `<id>` is the UTC second the recording started,
/// `2026-12-07T150102Z`, with `-2`, `-3`, … for a second one in the same second. Nothing else in
/// the directory is counted or touched.
///
/// While a recorder writes a recording it holds an exclusive `flock(2)` on its `.h264`
/// (``isBeingWritten(_:)`` asks): released when the file is closed, or when the process dies.
public enum VideoRecordingFiles {
    public static let rawExtension = ".h264"
    public static let indexExtension = ".video.jsonl"
    public static let mp4Extension = ".mp4"

    /// `2026-12-07T150102Z` for `unixSeconds` (UTC).
    public static func stamp(unixSeconds: Int64) -> String {
        var t = time_t(unixSeconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The recording id of a file name this type writes, or nil for any other file.
    public static func recordingID(ofFile name: String) -> String? {
        for ext in [indexExtension, rawExtension, mp4Extension] where name.hasSuffix(ext) {
            let id = String(name.dropLast(ext.count))
            guard id.utf8.count >= 18, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x54 || $0 == 0x5A })
            else { return nil }
            return id
        }
        return nil
    }

    /// Oldest first: by start second, then by sequence (`-10` after `-9`).
    public static func isOlder(_ a: String, _ b: String) -> Bool {
        func key(_ id: String) -> (String, Int) {
            let base = String(id.prefix(18))
            let rest = id.dropFirst(18)
            return (base, rest.hasPrefix("-") ? Int(rest.dropFirst()) ?? 1 : 1)
        }
        return key(a) < key(b)
    }

    /// The recordings to delete, oldest first, so that all of them (sizes by id, the current one
    /// included) fit in `maxTotalBytes`; never `current`. 0 = no limit.
    public static func recordingsToRemove(sizes: [String: Int64], current: String?, maxTotalBytes: Int64) -> [String] {
        guard maxTotalBytes > 0 else { return [] }
        var total = sizes.values.reduce(0, +)
        var removed: [String] = []
        for id in sizes.keys.sorted(by: isOlder) where id != current {
            guard total > maxTotalBytes else { break }
            removed.append(id)
            total -= sizes[id] ?? 0
        }
        return removed
    }

    /// Bytes of each recording in `directory` (its files summed), by id.
    public static func sizes(in directory: String) -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        for (name, size) in entries(of: directory) {
            if let id = recordingID(ofFile: name) { sizes[id, default: 0] += size }
        }
        return sizes
    }

    /// The files of recording `id` in `directory`, by name.
    public static func files(of id: String, in directory: String) -> [String] {
        entries(of: directory).map(\.name).filter { recordingID(ofFile: $0) == id }.sorted()
    }

    /// Whether a recorder holds `path` (a recording's `.h264`) open for writing now: its exclusive
    /// `flock(2)`, taken when the recording opens and released when it closes or its process ends.
    /// False for a file that does not exist or cannot be opened.
    public static func isBeingWritten(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }

    /// Free bytes for an unprivileged writer on the file system holding `path` (nil if unknown).
    public static func freeBytes(at path: String) -> Int64? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// `mkdir -p`.
    public static func makeDirectory(_ path: String) -> Bool {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0, errno != EEXIST { return false }
        }
        return true
    }

    /// `(name, size)` of the regular files in `directory`.
    public static func entries(of directory: String) -> [(name: String, size: Int64)] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var result: [(String, Int64)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var st = stat()
            guard stat(directory + "/" + name, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            result.append((name, Int64(st.st_size)))
        }
        return result
    }
}

/// One open file written with `write(2)` from the recorder's thread: no user-space buffer, so
/// closing it loses nothing.
final class VideoOutputFile {
    let path: String
    private(set) var fd: Int32
    private(set) var bytesWritten: Int64 = 0

    /// Creates `path` exclusively; nil when it exists or cannot be made.
    init?(creating path: String) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { return nil }
    }

    /// Takes an exclusive `flock(2)` on the file, held until it is closed: how others tell a recording
    /// being written (``VideoRecordingFiles/isBeingWritten(_:)``). False if the lock could not be taken.
    @discardableResult
    func lockExclusive() -> Bool {
        fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Writes all of `bytes`; false on an error (the file is then left as it is).
    @discardableResult
    func write(_ bytes: some Collection<UInt8>) -> Bool {
        guard fd >= 0 else { return false }
        let ok = Array(bytes).withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
        if ok { bytesWritten += Int64(bytes.count) }
        return ok
    }

    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }

    deinit { close() }
}
