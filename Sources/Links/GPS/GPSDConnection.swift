import CGPS
import FollowCore
#if canImport(Glibc)
import Glibc
#endif

/// Owns one `gps_data_t` (24 KB, never copied) and the socket behind it. Used by one thread only.
final class GPSDConnection {
    private let data: UnsafeMutablePointer<gps_data_t>
    private var isOpen = false
    private var line: [CChar]
    /// What gpsd sent and no line was taken from yet: we read the socket ourselves, not with gps_read
    /// (whose gps_unpack can loop forever on one hostile line: shim.h, docs/fuzzing.md).
    private let reader: UnsafeMutablePointer<fm_line_reader>

    init() {
        data = .allocate(capacity: 1)
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        line = [CChar](repeating: 0, count: Int(fm_json_response_max) + 1)
        reader = .allocate(capacity: 1)
        memset(reader, 0, MemoryLayout<fm_line_reader>.size)
    }

    deinit {
        close()
        data.deallocate()
        reader.deallocate()
    }

    /// Connects and subscribes (`timeOffsets`: to gpsd's TOFF reports too). Returns nil on success, or libgps' reason.
    func open(_ endpoint: GPSDAddress, device: String?, timeOffsets: Bool = false) -> String? {
        close()
        fm_reader_reset(reader)
        var err: UnsafePointer<CChar>? = nil
        let rc = fm_open(endpoint.host, String(endpoint.port), data, &err)
        guard rc == 0 else { return err.map { String(cString: $0) } ?? "gps_open failed (\(rc))" }
        isOpen = true
        let pps: Int32 = timeOffsets ? 1 : 0
        let watched = device.map { fm_watch(data, $0, pps) } ?? fm_watch(data, nil, pps)
        guard watched == 0 else {
            close()
            return "WATCH request failed"
        }
        return nil
    }

    /// Sends `?DEVICE={"path":…,"cycle":…};`. False if not connected, if the path cannot go into
    /// JSON unescaped (`"`, `\`, control characters), or if the write failed.
    func sendDeviceCycle(path: String, cycleSeconds: Double) -> Bool {
        guard isOpen, cycleSeconds.isFinite, cycleSeconds > 0,
              !path.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 })
        else { return false }
        return fm_send_device_cycle(data, path, cycleSeconds) == 0
    }

    func close() {
        if isOpen { _ = fm_close(data) }
        isOpen = false
    }

    enum ReadResult {
        case timeout
        case partial
        case line(GPSDMessageClass)
        /// A whole line libgps would have looped on forever (or one longer than the buffer): dropped.
        case dropped
        case closed(String)
    }

    /// Waits up to `timeoutMicroseconds` for one JSON line and parses it into the owned struct.
    func read(timeoutMicroseconds: Int32) -> ReadResult {
        guard isOpen else { return .closed("not connected") }
        if fm_reader_has_line(reader) == 0 {
            guard fm_waiting(data, timeoutMicroseconds) != 0 else { return .timeout }
            if fm_reader_fill(data, reader) < 0 {
                let e = errno
                close()
                return .closed(e == 0 ? "gpsd closed the connection" : String(cString: strerror(e)))
            }
        }
        let taken = line.withUnsafeMutableBufferPointer { fm_reader_take_line(data, reader, $0.baseAddress, Int32($0.count)) }
        if taken == 0 { return .partial }
        if taken < 0 { return .dropped }
        let cls = line.withUnsafeBufferPointer { buf in
            GPSDMessageClass(line: String(cString: buf.baseAddress!).prefix(20))
        }
        return .line(cls)
    }

    /// The raw JSON line of the last successful read.
    var lastLine: String { line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }

    func map(_ cls: GPSDMessageClass, role: ReceiverRole, device: String?, receivedAt: MonotonicTime)
        -> GPSDataMapper.Outcome
    {
        GPSDataMapper.map(UnsafePointer(data), messageClass: cls, role: role, device: device, receivedAt: receivedAt)
    }
}
