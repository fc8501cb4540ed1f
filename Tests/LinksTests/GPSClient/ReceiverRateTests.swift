@testable import Links
@testable import FollowCore
import Testing

/// The pure parts of rate control: parsing gpsd's DEVICE lines, deciding what to ask, reading the
/// answer, and measuring the delivered rate. The JSON lines are real gpsd 3.22 output captured on
/// this machine (docs/gps-rate.md §2).
@Suite("receiver rate: DEVICE parsing, rate control, delivered rate")
struct ReceiverRateTests {
    // gpsd 3.22, u-blox binary log on a pty (ublox-neo-m8n.log), gpsd not read-only.
    static let ubloxDevice = #"{"class":"DEVICE","path":"/tmp/h4/gpsub","driver":"u-blox","activated":"2026-11-23T21:48:13.319Z","flags":1,"native":1,"bps":38400,"parity":"N","stopbits":1,"cycle":1.00,"mincycle":0.02}"#
    static let ubloxAccepted = #"{"class":"DEVICE","path":"/tmp/h4/gpsub","driver":"u-blox","activated":"2026-11-23T21:48:13.319Z","flags":1,"native":1,"bps":38400,"parity":"N","stopbits":1,"cycle":0.20,"mincycle":0.02}"#
    static let ubloxList = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/tmp/h4/gpsub","driver":"u-blox","activated":"2026-11-23T21:48:19.602Z","flags":1,"native":1,"bps":38400,"parity":"N","stopbits":1,"cycle":0.20,"mincycle":0.02}]}"#
    // gpsd 3.22 under gpsfake, ublox-8.log identified as plain NMEA.
    static let nmeaDevice = #"{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-11-23T21:41:55.820Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}"#
    static let nmeaBeforeDriver = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","activated":"2026-11-23T21:41:55.769Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#
    // gpsd 3.22 reading a u-blox over tcp://: no serial parameters, no cycle.
    static let tcpUblox = #"{"class":"DEVICE","path":"tcp://127.0.0.1:29890","driver":"u-blox","activated":"2026-11-23T21:47:36.642Z","flags":1}"#
    static let gone = #"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#

    @Test("DEVICE and DEVICES lines parse into path, driver, activated, cycle, mincycle")
    func parsing() {
        #expect(GPSDDeviceReport.parse(line: Self.ubloxDevice) == [
            GPSDDeviceReport(path: "/tmp/h4/gpsub", driver: "u-blox", activated: true, cycleSeconds: 1.0, minCycleSeconds: 0.02),
        ])
        #expect(GPSDDeviceReport.parse(line: Self.ubloxList) == [
            GPSDDeviceReport(path: "/tmp/h4/gpsub", driver: "u-blox", activated: true, cycleSeconds: 0.2, minCycleSeconds: 0.02),
        ])
        #expect(GPSDDeviceReport.parse(line: Self.nmeaBeforeDriver) == [
            GPSDDeviceReport(path: "/dev/pts/1", driver: nil, activated: true, cycleSeconds: 1.0, minCycleSeconds: nil),
        ])
        #expect(GPSDDeviceReport.parse(line: Self.tcpUblox) == [
            GPSDDeviceReport(path: "tcp://127.0.0.1:29890", driver: "u-blox", activated: true, cycleSeconds: nil, minCycleSeconds: nil),
        ])
        #expect(GPSDDeviceReport.parse(line: Self.gone) == [
            GPSDDeviceReport(path: "/dev/pts/1", driver: nil, activated: false, cycleSeconds: nil, minCycleSeconds: nil),
        ])
        #expect(GPSDDeviceReport.parse(line: #"{"class":"DEVICES","devices":[]}"#).isEmpty)
        #expect(GPSDDeviceReport.parse(line: #"{"class":"TPV","device":"/dev/pts/1","mode":3}"#).isEmpty)
        #expect(GPSDDeviceReport.parse(line: #"{"class":"DEVICE","path":"/dev/pts/1","cycle":"#).isEmpty)
    }

    @Test("the cycle asked for", arguments: [
        // (request, gpsd mincycle, expected cycle)
        (RateRequest.fastest, 0.02 as Double?, 0.1 as Double?),      // u-blox: capped at 10 Hz
        (.fastest, nil, 0.1),                                        // mincycle unknown (network source)
        (.fastest, 0.25, 0.251),                                     // slow device: just above its minimum
        (.hertz(5), 0.02, 0.2),
        (.hertz(20), 0.1, 0.101),                                    // faster than the device: its fastest
        (.hertz(0.5), nil, 2.0),
        (.receiverDefault, 0.02, nil),
    ])
    func cycle(_ request: RateRequest, _ minCycle: Double?, _ expected: Double?) throws {
        let cycle = request.cycleSeconds(minCycleSeconds: minCycle)
        if let expected {
            #expect(abs(try #require(cycle) - expected) < 1e-9)
        } else {
            #expect(cycle == nil)
        }
    }

    @Test("u-blox: asks for the fastest rate once the driver is known, and gpsd accepts")
    func ubloxAccepted() {
        // Given a role asking for 5 Hz of /tmp/h4/gpsub.
        var control = RateControl(request: .hertz(5), watchedDevice: "/tmp/h4/gpsub")
        #expect(control.status == .waitingForDevice)
        // When gpsd lists the device before it knows the driver, nothing is sent (gpsd would
        // answer "Type of … is unknown").
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.nmeaBeforeDriver.replacingOccurrences(of: "/dev/pts/1", with: "/tmp/h4/gpsub"))) == nil)
        // When gpsd identifies the u-blox, the request goes out.
        let command = control.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice))
        #expect(command == RateControl.Command(path: "/tmp/h4/gpsub", cycleSeconds: 0.2))
        #expect(control.status == .requested(cycleSeconds: 0.2))
        // Then gpsd's reply with the new cycle is an acceptance.
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.ubloxAccepted)) == nil)
        #expect(control.status == .accepted(cycleSeconds: 0.2))
        // And the same report again (e.g. after a reconnect) sends nothing more.
        control.connected()
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.ubloxList)) == nil)
        #expect(control.status == .accepted(cycleSeconds: 0.2))
    }

    @Test("plain NMEA: sent once, gpsd keeps cycle 1.00 without mincycle → not supported")
    func nmeaNotSupported() {
        var control = RateControl(request: .fastest, watchedDevice: nil)
        let command = control.handle(GPSDDeviceReport.parse(line: Self.nmeaDevice))
        #expect(command == RateControl.Command(path: "/dev/pts/1", cycleSeconds: 0.1))
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.nmeaDevice)) == nil)
        #expect(control.status == .notSupported(driver: "NMEA0183"))
        // Later reports do not make it ask again in the same activation.
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.nmeaDevice)) == nil)
        // A new activation (device gone and back) asks again.
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.gone)) == nil)
        #expect(control.status == .waitingForDevice)
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.nmeaDevice)) != nil)
    }

    @Test("u-blox with mincycle but the cycle unchanged → refused; an ERROR answer → refused")
    func refused() {
        var control = RateControl(request: .fastest, watchedDevice: "/tmp/h4/gpsub")
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice)) != nil)
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice)) == nil)
        guard case .refused = control.status else {
            Issue.record("expected refused, got \(control.status)")
            return
        }
        var other = RateControl(request: .fastest, watchedDevice: "/tmp/h4/gpsub")
        _ = other.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice))
        other.gpsdError("Can't open /tmp/h4/gpsub.")
        #expect(other.status == .refused(reason: "Can't open /tmp/h4/gpsub."))
    }

    @Test("network source: gpsd reports no cycle → unconfirmed")
    func unconfirmed() {
        var control = RateControl(request: .fastest, watchedDevice: "tcp://127.0.0.1:29890")
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.tcpUblox)) != nil)
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.tcpUblox)) == nil)
        #expect(control.status == .unconfirmed(cycleSeconds: 0.1))
    }

    @Test("rate_hz = device: never sends; other devices are ignored")
    func quiet() {
        var control = RateControl(request: .receiverDefault, watchedDevice: nil)
        #expect(control.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice)) == nil)
        #expect(control.status == .notRequested)
        var watching = RateControl(request: .fastest, watchedDevice: "/dev/gpstarget")
        #expect(watching.handle(GPSDDeviceReport.parse(line: Self.ubloxDevice)) == nil)
        #expect(watching.status == .waitingForDevice)
    }

    static func fixTime(_ centiseconds: Int) -> FixTime {
        FixTime(seconds: Int64(centiseconds / 100), nanoseconds: Int32(centiseconds % 100) * 10_000_000)
    }

    @Test("delivered rate: median interval of new epochs", arguments: [1.0, 5.0, 10.0])
    func meter(_ hz: Double) throws {
        // Given fixes every 1/hz s with ±5 % jitter, one late fix, and each epoch reported twice
        // (gpsd reports per sentence when the cycle end is unreliable).
        var meter = DeliveredRateMeter()
        let period = 1 / hz
        var t = 100.0
        for i in 0..<30 {
            let jitter = [0.0, 0.05, -0.05, 0.02][i % 4] * period
            let late = i == 12 ? 3 * period : 0
            let at = t + jitter + late
            let epoch = Self.fixTime(i * Int(period * 100))
            meter.record(receivedAt: MonotonicTime(seconds: at), fixTime: epoch)
            meter.record(receivedAt: MonotonicTime(seconds: at + 0.01), fixTime: epoch)
            t += period
        }
        // Then the rate is the epoch rate, within 10 %.
        let rate = try #require(meter.rateHertz)
        #expect(abs(rate - hz) / hz < 0.1, "measured \(rate) Hz for \(hz) Hz")
        #expect(meter.intervalCount == DeliveredRateMeter.windowIntervals)
    }

    @Test("delivered rate needs three intervals, and reset forgets")
    func meterStart() {
        var meter = DeliveredRateMeter()
        for i in 0..<3 { meter.record(receivedAt: MonotonicTime(seconds: Double(i) * 0.2), fixTime: nil) }
        #expect(meter.rateHertz == nil)
        meter.record(receivedAt: MonotonicTime(seconds: 0.6), fixTime: nil)
        #expect(meter.rateHertz.map { abs($0 - 5) < 1e-9 } == true)
        meter.reset()
        #expect(meter.rateHertz == nil && meter.intervalCount == 0)
    }
}
