// swift-tools-version: 6.1
// FollowMe performance benchmarks (package-benchmark), kept in their own package so the main
// package's build and CI never compile them or fetch package-benchmark.
//
// Run from the repository root: scripts/bench.sh   (= cd Performance && swift package benchmark)
// What is measured and the thresholds: ../PERFORMANCE.md.
import PackageDescription

let package = Package(
    name: "FollowMeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The main package, by path: its FollowMeKit library product (Package.swift `products:`).
        .package(name: "FollowMe", path: ".."),
        // package-benchmark 1.38.1. The MallocInterposer trait counts mallocs (Swift 6.3+ backend);
        // listing it alone leaves out the default RuntimeInterposer trait (ARC counters), whose
        // package is not needed for wall time and malloc counts.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
                 traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FollowMeBenchmarks",
            dependencies: [
                .product(name: "FollowMeKit", package: "FollowMe"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FollowMeBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
