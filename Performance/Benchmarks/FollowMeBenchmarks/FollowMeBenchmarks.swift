import ARDrone
import Benchmark
import CGPS
import Links
import FollowCore

#if canImport(Glibc)
import Glibc
#endif

/// FollowMe's hot paths (PERFORMANCE.md): the 30 Hz control step, the MAVLink tick's encoding, navdata
/// decoding, gpsd fix mapping.
///
/// Names have no spaces or slashes: package-benchmark writes `Thresholds/<target>.<name>.p90.json` with
/// those replaced by `_` but reads it back by the raw name.
///
/// Each sample runs the operation 1000 times (`scalingFactor: .kilo`, so the harness's own ~16 mallocs
/// per sample count as 0.016 per operation); the tables show wall time and malloc counts per operation.
/// `Thresholds/*.p90.json` hold the static p90 references (per sample of 1000) checked by
/// `swift package benchmark thresholds check` (scripts/bench.sh --check): malloc counts with a
/// tolerance of 500 per 1000 operations, so one added allocation per operation fails; the control
/// step's wall time against the 5 µs goal (5 ms per 1000).
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput]

    /// Malloc counts per sample of 1000 operations may move by less than one allocation per operation
    /// (the harness's own allocations jitter by a few); one more allocation per operation adds 1000.
    let exactMallocs: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 500])]

    func configuration(thresholds: [BenchmarkMetric: BenchmarkThresholds]) -> Benchmark.Configuration {
        .init(metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 10, scalingFactor: .kilo,
              maxDuration: .seconds(3), maxIterations: 1_000, thresholds: thresholds)
    }

    // MARK: Control step

    // The reference wall time in Thresholds/ is 0 ns; the absolute tolerance is the 5 µs goal per step.
    var controlThresholds = exactMallocs
    controlThresholds[.wallClock] = .init(absolute: [.p90: 5_000 * 1_000])
    let harness: ControlLoopHarness
    do { harness = try ControlLoopHarness() } catch { fatalError("control harness: \(error)") }
    Benchmark("control-step",
              configuration: configuration(thresholds: controlThresholds)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(harness.measuredStep()) }
    } teardown: {
        precondition(harness.stepsNotFollowing == 0,
                     "\(harness.stepsNotFollowing) measured steps were not in following: \(harness.machine.state)")
    }

    // MARK: MAVLink tick

    // The MAVLink link's per-tick output (MAVLinkTickHarness): pilot command → set-point →
    // SET_POSITION_TARGET_LOCAL_NED + HEARTBEAT encoded into a reused buffer. Goal 0 allocations.
    let mavlink = MAVLinkTickHarness()
    Benchmark("mavlink-tick", configuration: configuration(thresholds: exactMallocs)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(mavlink.measuredTick()) }
    }

    // MARK: Navdata decoding

    // `navdata-decode-*`: what DroneLink does with every datagram (NavdataSummary: header + demo
    // option, same checks as the full decoder), goal 0 allocations for every capture.
    // `navdata-full-decode-*`: the full, byte-exact `Navdata` (tools, simulator, tests): one array per
    // packet plus one per raw option; recorded, not a goal. The whole result goes to blackHole, so
    // the optimizer cannot drop the work it would otherwise not need.
    /// Benchmark `name`: `decode` over one capture's bytes, every result into blackHole.
    func decodeBenchmark<Decoded>(
        _ name: String, _ bytes: [UInt8], decode: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Decoded
    ) {
        Benchmark(name, configuration: configuration(thresholds: exactMallocs)) { benchmark in
            bytes.withUnsafeBytes { raw in
                for _ in benchmark.scaledIterations {
                    do {
                        blackHole(try decode(raw))
                    } catch {
                        fatalError("fixture does not decode: \(error)")
                    }
                }
            }
        }
    }
    for capture in NavdataCaptures.all() {
        decodeBenchmark("navdata-decode-\(capture.name)", capture.bytes) { try NavdataSummary(bytes: $0) }
        decodeBenchmark("navdata-full-decode-\(capture.name)", capture.bytes) { try Navdata(bytes: $0) }
    }

    // MARK: gpsd fix mapping

    // A TPV as libgps leaves it after gps_read (see Tests/LinksTests/GPSClient/GPSDataMapperTests.swift).
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
    Benchmark("gps-fix-mapping-TPV", configuration: configuration(thresholds: exactMallocs)) { benchmark in
        for _ in benchmark.scaledIterations {
            receivedSeconds += 0.2
            let outcome = GPSDataMapper.map(UnsafePointer(data), messageClass: .tpv, role: .target,
                                            device: "/dev/gpstarget",
                                            receivedAt: MonotonicTime(seconds: receivedSeconds))
            guard case .event(.fix(let fix)) = outcome else { fatalError("TPV did not map to a fix: \(outcome)") }
            blackHole(fix)
        }
    }
}
