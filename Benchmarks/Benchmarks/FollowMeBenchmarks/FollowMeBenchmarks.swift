import ARDroneProtocol
import Benchmark
import CGPS
import GPSClient
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// FollowMe's hot paths (PERFORMANCE.md): the 30 Hz control step, navdata decoding, gpsd fix mapping.
///
/// Each benchmark measures one operation per iteration (scaling factor 1) and reports wall time and
/// malloc counts. `Thresholds/*.p90.json` hold the static p90 references checked by
/// `swift package benchmark thresholds check` (scripts/bench.sh --check): malloc counts with zero
/// tolerance, so one added allocation per operation fails; the control step's wall time against the
/// 5 µs goal.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput]

    /// A zero-tolerance malloc check (the reference in Thresholds/ is the allowed count per operation).
    let exactMallocs: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 0])]

    func configuration(thresholds: [BenchmarkMetric: BenchmarkThresholds]) -> Benchmark.Configuration {
        .init(metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 1_000, scalingFactor: .one,
              maxDuration: .seconds(3), maxIterations: 300_000, thresholds: thresholds)
    }

    // MARK: Control step

    // The reference wall time in Thresholds/ is 0 ns; the absolute tolerance is the 5 µs goal.
    var controlThresholds = exactMallocs
    controlThresholds[.wallClock] = .init(absolute: [.p90: 5_000])
    let harness: ControlLoopHarness
    do { harness = try ControlLoopHarness() } catch { fatalError("control harness: \(error)") }
    Benchmark("control step: fix + tick + AT datagram",
              configuration: configuration(thresholds: controlThresholds)) { benchmark in
        blackHole(harness.measuredStep())
    } teardown: {
        precondition(harness.stepsNotFollowing == 0,
                     "\(harness.stepsNotFollowing) measured steps were not in following: \(harness.machine.state)")
    }

    // MARK: Navdata decoding

    for capture in NavdataCaptures.all() {
        let bytes = capture.bytes
        Benchmark("navdata decode: \(capture.name)", configuration: configuration(thresholds: exactMallocs)) { _ in
            bytes.withUnsafeBytes { raw in
                do {
                    blackHole(try Navdata(bytes: raw).sequenceNumber)
                } catch {
                    fatalError("fixture does not decode: \(error)")
                }
            }
        }
    }

    // MARK: gpsd fix mapping

    // A TPV as libgps leaves it after gps_read (see Tests/GPSClientTests/GPSDataMapperTests.swift).
    let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    memset(data, 0, MemoryLayout<gps_data_t>.size)
    data.pointee.fix.mode = 3
    data.pointee.fix.latitude = 48.8566
    data.pointee.fix.longitude = 2.3522
    data.pointee.fix.altHAE = 35.2
    data.pointee.fix.track = 10.4
    data.pointee.fix.speed = 1.3
    data.pointee.fix.climb = 0
    data.pointee.fix.eph = 2.5
    data.pointee.fix.epv = 4.1
    data.pointee.fix.eps = 0.3
    data.pointee.fix.time = timespec(tv_sec: 1_700_000_000, tv_nsec: 280_000_000)
    fm_set_set_mask(data, fm_mask_mode | fm_mask_latlon | fm_mask_time | fm_mask_altitude | fm_mask_track
        | fm_mask_speed | fm_mask_climb)
    fm_set_device_path(data, "/dev/gpstarget")
    var receivedSeconds = 100.0
    Benchmark("gps fix mapping: TPV → GPSFix", configuration: configuration(thresholds: exactMallocs)) { _ in
        receivedSeconds += 0.2
        let outcome = GPSDataMapper.map(UnsafePointer(data), messageClass: .tpv, role: .target,
                                        device: "/dev/gpstarget", receivedAt: MonotonicTime(seconds: receivedSeconds))
        guard case .event(.fix(let fix)) = outcome else { fatalError("TPV did not map to a fix: \(outcome)") }
        blackHole(fix.coordinate)
    }
}
