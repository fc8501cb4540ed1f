import Foundation
import FollowCore

/// What rate to ask gpsd to run a receiver at (config `rate_hz`).
public enum RateRequest: Sendable, Hashable, CustomStringConvertible {
    /// Send nothing: the receiver keeps whatever rate it is configured for (`rate_hz = "device"`).
    case receiverDefault
    /// The fastest rate gpsd reports the device can do, at most ``fastestCapHertz`` (`rate_hz = "max"`).
    case fastest
    /// A fixed rate, fixes per second (`rate_hz = 5`); slowed down to the device's fastest if needed.
    case hertz(Double)

    /// Upper bound of `.fastest`, fixes per second. Our choice: gpsd 3.22 reports a `mincycle` of
    /// 0.02 s (50 Hz) for every u-blox (measured, docs/gps-rate.md §2), far above what the receivers
    /// do — u-blox M8 modules navigate at most 10 Hz with several GNSS (u-blox M8 data sheets,
    /// "navigation update rate") — and the follow loop gains nothing from more than 10 fixes per second.
    public static let fastestCapHertz = 10.0

    public var description: String {
        switch self {
        case .receiverDefault: return "device"
        case .fastest: return "max"
        case .hertz(let hz): return "\(hz)"
        }
    }

    /// The cycle (seconds per fix) to ask gpsd for, given the device's `mincycle` (nil if gpsd did
    /// not report one); nil for `.receiverDefault`.
    ///
    /// gpsd 3.22 only applies a cycle strictly longer than the driver's minimum (gpsd.c `?DEVICE`
    /// handler; measured: `cycle` = `mincycle` is refused, docs/gps-rate.md §2), so a wish at or below
    /// the minimum becomes the minimum plus 1 ms.
    public func cycleSeconds(minCycleSeconds: Double?) -> Double? {
        let wanted: Double
        switch self {
        case .receiverDefault: return nil
        case .fastest: wanted = 1 / Self.fastestCapHertz
        case .hertz(let hz): wanted = 1 / hz
        }
        guard let minCycleSeconds, minCycleSeconds > 0, wanted <= minCycleSeconds else { return wanted }
        return minCycleSeconds + 0.001
    }
}

/// One device as gpsd describes it in a `DEVICE` report or a `DEVICES` list (gpsd_json(5)).
///
/// Parsed from the JSON line itself, not from libgps: libgps 3.22 stores `mincycle` into
/// `dev.cycle` for a DEVICE report and garbage into `devices.list[].cycle` for DEVICES
/// (measured with gps_unpack, docs/gps-rate.md §2).
public struct GPSDDeviceReport: Sendable, Hashable {
    public var path: String
    /// gpsd's driver name ("u-blox", "NMEA0183", "SiRF", …); nil until gpsd identified the device.
    public var driver: String?
    /// False for the `"activated":0` report of a device that left the pool.
    public var activated: Bool
    /// Seconds per fix gpsd believes the device runs at. Only reported for serial devices.
    public var cycleSeconds: Double?
    /// The shortest cycle gpsd's driver can set. Reported when, and only when, the driver can
    /// change the rate (gpsd_json(5) DEVICE `mincycle`).
    public var minCycleSeconds: Double?

    /// The devices a `DEVICE` line (one) or a `DEVICES` line (its list) describes; empty for any
    /// other line or malformed JSON. Entries without a path are skipped.
    public static func parse(line: String) -> [GPSDDeviceReport] {
        guard let data = line.data(using: .utf8),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let cls = object["class"] as? String
        else { return [] }
        switch cls {
        case "DEVICE": return [GPSDDeviceReport(object)].compactMap { $0 }
        case "DEVICES": return ((object["devices"] as? [[String: Any]]) ?? []).compactMap(GPSDDeviceReport.init)
        default: return []
        }
    }
}

extension GPSDDeviceReport {
    private init?(_ o: [String: Any]) {
        guard let path = o["path"] as? String, !path.isEmpty else { return nil }
        func positive(_ key: String) -> Double? {
            guard let n = o[key] as? NSNumber else { return nil }
            let v = n.doubleValue
            return v.isFinite && v > 0 ? v : nil
        }
        // gpsd writes an ISO 8601 time when active and the number 0 when the device is gone.
        let activated: Bool
        switch o["activated"] {
        case let s as String: activated = !s.isEmpty
        case let n as NSNumber: activated = n.doubleValue != 0
        default: activated = true
        }
        let driver = (o["driver"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        self.init(path: path, driver: driver, activated: activated,
                  cycleSeconds: positive("cycle"), minCycleSeconds: positive("mincycle"))
    }
}

/// Where asking gpsd for a rate stands, for one role.
public enum RateControlStatus: Sendable, Hashable {
    /// `rate_hz = "device"`: nothing is sent.
    case notRequested
    /// Waiting for gpsd to identify the device (a DEVICE report with a driver).
    case waitingForDevice
    /// `?DEVICE` sent; gpsd's answer not read yet.
    case requested(cycleSeconds: Double)
    /// gpsd reports the device now runs at this cycle.
    case accepted(cycleSeconds: Double)
    /// Sent, but gpsd does not report the cycle of this kind of source (a network source): only the
    /// delivered rate tells.
    case unconfirmed(cycleSeconds: Double)
    /// gpsd's driver for this device cannot change its rate (no `mincycle`, cycle unchanged), e.g.
    /// plain NMEA0183: the receiver keeps its own rate.
    case notSupported(driver: String)
    /// gpsd answered with an error, or kept the old cycle although its driver can change it (e.g. a
    /// cycle at or below `mincycle`, which gpsd 3.22 ignores).
    case refused(reason: String)

    /// A short name for logs and JSON.
    public var name: String {
        switch self {
        case .notRequested: return "device-default"
        case .waitingForDevice: return "waiting"
        case .requested: return "requested"
        case .accepted: return "accepted"
        case .unconfirmed: return "unconfirmed"
        case .notSupported: return "not-supported"
        case .refused: return "refused"
        }
    }

    /// One sentence a person can act on.
    public var detail: String {
        switch self {
        case .notRequested: return "rate left as the receiver is configured"
        case .waitingForDevice: return "waiting for gpsd to identify the receiver"
        case .requested(let c): return "asked gpsd for a \(Self.format(c)) s cycle"
        case .accepted(let c): return "gpsd set a \(Self.format(c)) s cycle"
        case .unconfirmed(let c):
            return "asked gpsd for a \(Self.format(c)) s cycle; gpsd does not report this source's cycle"
        case .notSupported(let driver): return "gpsd driver \(driver) cannot change the rate; receiver keeps its own"
        case .refused(let reason): return "gpsd refused the rate: \(reason); receiver keeps its own"
        }
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3g", seconds) }
}

/// Asks gpsd, once per device activation, to run a role's receiver at the requested rate, and
/// reads gpsd's answer. Pure: fed gpsd's reports, returns the command to send.
///
/// Never fails anything: whatever gpsd answers, fixes keep flowing at the receiver's own rate.
public struct RateControl: Sendable, Hashable {
    /// A `?DEVICE={"path":…,"cycle":…}` request for the caller to send.
    public struct Command: Sendable, Hashable {
        public var path: String
        public var cycleSeconds: Double
    }

    public let request: RateRequest
    /// The device path this role watches (nil = the first device gpsd identifies).
    public let watchedDevice: String?
    public private(set) var status: RateControlStatus
    /// The device the request applies to, once known.
    public private(set) var device: String?
    /// What gpsd last said about that device.
    public private(set) var lastReport: GPSDDeviceReport?
    private var sentThisActivation = false

    /// gpsd 3.22 prints the cycle with 2 decimals (`"cycle":0.20`, docs/gps-rate.md §2), so a
    /// cycle within 6 ms of the request is the request.
    static let cycleToleranceSeconds = 0.006

    public init(request: RateRequest, watchedDevice: String?) {
        self.request = request
        self.watchedDevice = watchedDevice
        status = request == .receiverDefault ? .notRequested : .waitingForDevice
    }

    /// A new connection to gpsd: ask again once the device is identified (gpsd may have restarted).
    public mutating func connected() {
        self = RateControl(request: request, watchedDevice: watchedDevice)
    }

    /// gpsd described some devices (a DEVICE or DEVICES line). Returns the request to send, if any.
    public mutating func handle(_ reports: [GPSDDeviceReport]) -> Command? {
        var command: Command?
        for report in reports { if let c = handle(report) { command = c } }
        return command
    }

    private mutating func handle(_ report: GPSDDeviceReport) -> Command? {
        guard request != .receiverDefault else { return nil }
        if let watchedDevice, report.path != watchedDevice { return nil }
        if let device, report.path != device { return nil }
        guard report.activated else {
            // Gone from gpsd's pool: ask again when it comes back.
            if device != nil { self = RateControl(request: request, watchedDevice: watchedDevice) }
            return nil
        }
        lastReport = report
        guard let driver = report.driver else { return nil }  // gpsd refuses "Type of … is unknown"
        device = report.path
        guard let wanted = request.cycleSeconds(minCycleSeconds: report.minCycleSeconds) else { return nil }

        if case .requested(let asked) = status {
            status = Self.answer(report, asked: asked, driver: driver)
            return nil
        }
        if let cycle = report.cycleSeconds, abs(cycle - wanted) < Self.cycleToleranceSeconds {
            status = .accepted(cycleSeconds: cycle)
            return nil
        }
        switch status {
        case .accepted(let asked), .unconfirmed(let asked):
            // A later report (e.g. identification finished) may restate the cycle; a changed one is news.
            if let cycle = report.cycleSeconds, abs(cycle - asked) >= Self.cycleToleranceSeconds {
                status = Self.answer(report, asked: asked, driver: driver)
            }
            return nil
        case .refused, .notSupported:
            return nil
        case .notRequested, .waitingForDevice, .requested:
            break
        }
        guard !sentThisActivation else { return nil }
        sentThisActivation = true
        status = .requested(cycleSeconds: wanted)
        return Command(path: report.path, cycleSeconds: wanted)
    }

    /// The request could not be written to gpsd (the connection will be reopened, asking again).
    public mutating func couldNotSend(_ reason: String) {
        status = .refused(reason: reason)
    }

    /// gpsd sent an ERROR line. While a request is pending it is the answer to it.
    public mutating func gpsdError(_ message: String) {
        if case .requested = status { status = .refused(reason: message) }
    }

    private static func answer(_ report: GPSDDeviceReport, asked: Double, driver: String) -> RateControlStatus {
        guard let cycle = report.cycleSeconds else { return .unconfirmed(cycleSeconds: asked) }
        if abs(cycle - asked) < cycleToleranceSeconds { return .accepted(cycleSeconds: cycle) }
        if report.minCycleSeconds == nil { return .notSupported(driver: driver) }
        return .refused(reason: "gpsd kept a \(RateControlStatus.format(cycle)) s cycle "
                        + "(the driver or the receiver did not take it)")
    }
}

/// The rate a receiver actually delivers: the median interval between new fixes, as received.
///
/// Median, not mean, so one late fix or a burst does not move it. A fix with the same receiver
/// timestamp as the previous one is the same epoch reported again (gpsd reports per sentence when
/// it cannot tell where a cycle ends) and is not counted. Pure: times are arguments.
public struct DeliveredRateMeter: Sendable, Hashable {
    /// Intervals kept. Our choice: 20 covers 2 s at 10 Hz and 20 s at 1 Hz.
    public static let windowIntervals = 20
    /// Intervals needed before a rate is reported (a median of 3 already ignores one outlier).
    public static let minimumIntervals = 3

    private var intervals: [Double] = []
    private var lastAt: MonotonicTime?
    private var lastFixTime: FixTime?

    public init() {}

    /// Counts a fix received at `receivedAt` carrying the receiver time `fixTime`.
    public mutating func record(receivedAt: MonotonicTime, fixTime: FixTime?) {
        if let lastAt {
            if let fixTime, fixTime == lastFixTime { return }
            let dt = receivedAt.seconds(since: lastAt)
            if dt > 0 {
                intervals.append(dt)
                if intervals.count > Self.windowIntervals { intervals.removeFirst(intervals.count - Self.windowIntervals) }
            }
        }
        lastAt = receivedAt
        lastFixTime = fixTime
    }

    /// Forgets everything (the receiver or gpsd went away; the next rate may differ).
    public mutating func reset() { self = DeliveredRateMeter() }

    /// Intervals currently measured.
    public var intervalCount: Int { intervals.count }

    /// Median seconds between new fixes, once ``minimumIntervals`` were measured.
    public var medianIntervalSeconds: Double? {
        guard intervals.count >= Self.minimumIntervals else { return nil }
        let sorted = intervals.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Fixes per second delivered (1 / median interval).
    public var rateHertz: Double? { medianIntervalSeconds.map { 1 / $0 } }
}

/// What `followme gps` and the flight service show about a role's rate.
public struct ReceiverRateReport: Sendable, Hashable {
    public var requested: RateRequest
    public var control: RateControlStatus
    /// The device the rate control applies to, once gpsd identified it.
    public var device: String?
    /// gpsd's driver, cycle and minimum cycle for that device, as last reported.
    public var driver: String?
    public var gpsdCycleSeconds: Double?
    public var gpsdMinCycleSeconds: Double?
    /// Delivered fixes per second (median interval), nil until enough fixes arrived.
    public var deliveredHertz: Double?
    /// Intervals behind `deliveredHertz`.
    public var intervalsMeasured: Int

    public init(control: RateControl, meter: DeliveredRateMeter) {
        requested = control.request
        self.control = control.status
        device = control.device
        driver = control.lastReport?.driver
        gpsdCycleSeconds = control.lastReport?.cycleSeconds
        gpsdMinCycleSeconds = control.lastReport?.minCycleSeconds
        deliveredHertz = meter.rateHertz
        intervalsMeasured = meter.intervalCount
    }
}
