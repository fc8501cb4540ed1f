import Benchmark
import ARDroneProtocol

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ATEncoder.wireInteger(for: 0.5)) }
    }
}
