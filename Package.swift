// swift-tools-version: 6.1
// FollowMe: make a Parrot AR.Drone 2.0 follow a person carrying a GPS.
//
// Architecture (functional core, imperative shell):
//   pure:  Geometry, Telemetry, ARDroneProtocol, FollowCore, Simulation, FollowMeConfig
//          (no clocks, sockets, files or loggers; time is an argument)
//   shell: CGPS (libgps), GPSClient, DroneLink (swift-nio UDP), FollowMeService, followme (CLI)
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "FollowMe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "followme", targets: ["followme"]),
        // For the separate Benchmarks/ package (package-benchmark), which depends on this one by path.
        .library(
            name: "FollowMeKit",
            targets: ["Geometry", "Telemetry", "ARDroneProtocol", "FollowCore", "GPSClient"]
        ),
    ],
    // Pinned exactly to the versions CI tests (the local package mirror's); there is no lock file in git.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // MARK: C boundary
        .systemLibrary(
            name: "CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),

        // MARK: Pure core
        .target(name: "Geometry", swiftSettings: strict),
        .target(name: "Telemetry", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "ARDroneProtocol", swiftSettings: strict),
        .target(
            name: "FollowMeConfig",
            // FollowCore: the config checks the flight core's own rules (one source of truth).
            dependencies: ["Geometry", "FollowCore", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict
        ),
        .target(
            name: "FollowCore",
            dependencies: ["Geometry", "Telemetry"],
            swiftSettings: strict
        ),
        .target(
            name: "Simulation",
            dependencies: ["Geometry", "Telemetry"],
            swiftSettings: strict
        ),

        .target(
            name: "FollowBench",
            dependencies: ["FollowCore", "Simulation", "Geometry", "Telemetry"],
            swiftSettings: strict
        ),

        // MARK: Shell
        .target(name: "SystemTime", dependencies: ["Telemetry"], swiftSettings: strict),
        .target(
            name: "GPSClient",
            dependencies: [
                "CGPS", "Telemetry", "Geometry", "SystemTime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "DroneLink",
            dependencies: [
                "ARDroneProtocol", "Telemetry", "SystemTime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "FollowMeService",
            dependencies: [
                "GPSClient", "DroneLink", "FollowCore", "FollowMeConfig", "Simulation", "Telemetry", "Geometry", "SystemTime",
                "FollowBench",
                "ARDroneProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "followme",
            dependencies: [
                "FollowMeService", "FollowMeConfig", "GPSClient", "DroneLink", "ARDroneProtocol", "Telemetry",
                "FollowBench", "Geometry", "Simulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: Tests
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"], swiftSettings: strict),
        .testTarget(
            name: "ARDroneProtocolTests", dependencies: ["ARDroneProtocol"],
            resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(name: "FollowMeConfigTests", dependencies: ["FollowMeConfig", "FollowCore"], swiftSettings: strict),
        .testTarget(name: "FollowCoreTests", dependencies: ["FollowCore", "Geometry", "Telemetry"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Geometry", "Telemetry"], swiftSettings: strict),
        .testTarget(
            name: "GPSClientTests",
            dependencies: ["GPSClient", "CGPS", "Telemetry", "SystemTime", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(
            name: "DroneLinkTests",
            dependencies: [
                "DroneLink", "ARDroneProtocol", "SystemTime", "Telemetry",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FollowMeServiceTests",
            dependencies: [
                "FollowMeService", "DroneLink", "GPSClient", "ARDroneProtocol", "Simulation", "Telemetry", "Geometry",
                "FollowCore", "SystemTime", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FollowBenchTests", dependencies: ["FollowBench", "FollowCore", "Simulation", "Geometry", "Telemetry"],
            swiftSettings: strict
        ),
        .testTarget(name: "FaultInjectionTests", swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["FollowMeConfig"], swiftSettings: strict),
    ]
)
