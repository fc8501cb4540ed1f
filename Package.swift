// swift-tools-version: 6.2
// FollowMe: make a Parrot AR.Drone 2.0 follow a person carrying a GPS.
//
// Functional core, imperative shell (docs/architecture.md has the module map and the path of
// one GPS fix to one AT datagram). The README's architecture table lists the same targets.
//   pure:  Geometry, Observations, SeededRandom, ARDroneProtocol, ARDroneAdapter, DroneControl, FollowCore, FollowMeConfig,
//          Simulation, FollowBench, Plots, FlightReport, TextFormats
//          (no clocks, sockets, files or loggers; time is an argument)
//   shell: CGPS (libgps), GPSClient, DroneLink (swift-nio UDP), ShellSupport, FlightLog,
//          TrackFiles, FlightService, SimulatorServer, followme (CLI)
//   tools: Fuzzing (mutation fuzzers, corpora), TestSupport (test targets only)
import CompilerPluginSupport
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let log = Target.Dependency.product(name: "Logging", package: "swift-log")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

let package = Package(
    name: "FollowMe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "followme", targets: ["followme"]),
        // For the separate Performance/ package (package-benchmark), which depends on this one by path.
        .library(
            name: "FollowMeKit",
            targets: ["Geometry", "Observations", "ARDroneProtocol", "ARDroneAdapter", "FollowCore", "GPSClient", "DroneLink", "MAVLink", "MAVLinkAdapter"]
        ),
    ],
    // Pinned exactly to the versions CI tests (the local package mirror's); there is no lock file in git.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // For the @MemberwiseInit macro only (compile time; nothing of it is linked into followme).
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    ],
    targets: [
        // MARK: C boundary
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),

        // MARK: Build tool: the memberwise initializers public value types need across modules
        .macro(
            name: "MemberwiseInitMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        .target(name: "MemberwiseInit", dependencies: ["MemberwiseInitMacros"], swiftSettings: strict),

        // MARK: Pure core (values in, values out; time is an argument)
        .target(name: "Geometry", swiftSettings: strict),
        .target(name: "Observations", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "SeededRandom", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "ARDroneProtocol", swiftSettings: strict),
        .target(name: "MAVLink", swiftSettings: strict),
        .target(name: "FollowCore", dependencies: ["Geometry", "Observations"], swiftSettings: strict),
        .target(
            name: "FollowMeConfig",
            // FollowCore: the config checks the flight core's own rules (one source of truth).
            dependencies: ["Geometry", "FollowCore", "TextFormats", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict
        ),
        .target(
            name: "Simulation",
            dependencies: ["Geometry", "Observations", "SeededRandom", "ARDroneProtocol", "MAVLink"],
            swiftSettings: strict
        ),
        .target(name: "TextFormats", swiftSettings: strict),
        .target(name: "Plots", dependencies: ["Geometry", "TextFormats"], swiftSettings: strict),
        // The after-flight page (`followme report`, `followme bench --report`): a timeline in, one HTML page out.
        .target(name: "FlightReport", dependencies: ["Geometry", "TextFormats", "Plots"], swiftSettings: strict),
        // The AR.Drone's vocabulary ↔ the core's: navdata → DroneTelemetry, DroneCommand → REF/PCMD.
        .target(
            name: "ARDroneAdapter", dependencies: ["ARDroneProtocol", "FollowCore", "Observations"],
            swiftSettings: strict
        ),
        // The seam between a flight and any drone link: LinkCommand out, LinkEvent in (docs/architecture.md §3).
        .target(name: "DroneControl", dependencies: ["FollowCore", "Observations"], swiftSettings: strict),
        // An autopilot's vocabulary ↔ the core's: MAVLink telemetry → DroneTelemetry, the core's MotionCommand → velocity
        // set-points, and MAVLinkSession, the vehicle state machine (docs/mavlink.md §7).
        .target(
            name: "MAVLinkAdapter", dependencies: ["MAVLink", "DroneControl", "FollowCore", "Observations", "Geometry"],
            swiftSettings: strict
        ),
        .target(
            name: "FollowBench",
            dependencies: [
                "FollowCore", "Simulation", "Geometry", "Observations", "SeededRandom", "ARDroneProtocol", "ARDroneAdapter",
                "Plots", "TextFormats", "FlightReport", "MAVLinkAdapter", "MAVLink", "DroneControl",
            ],
            swiftSettings: strict
        ),

        // MARK: Shell (clocks, sockets, files, loggers)
        .target(name: "ShellSupport", dependencies: ["Observations", "TextFormats", log, nioCore, nioPosix], swiftSettings: strict),
        .target(
            name: "GPSClient",
            dependencies: ["CGPS", "Observations", "Geometry", "ShellSupport", log],
            swiftSettings: strict
        ),
        .target(
            name: "DroneLink",
            dependencies: ["ARDroneAdapter", "ARDroneProtocol", "DroneControl", "FollowCore", "Observations", "ShellSupport", nioCore, nioPosix, log],
            swiftSettings: strict
        ),
        // The MAVLink link (PX4, ArduPilot): MAVLinkSession on one NIO UDP socket, 30 Hz tick (docs/mavlink.md §7).
        .target(
            name: "MAVLinkLink",
            dependencies: ["MAVLinkAdapter", "MAVLink", "DroneControl", "Observations", "ShellSupport", nioCore, nioPosix, log],
            swiftSettings: strict
        ),
        .target(name: "TrackFiles", dependencies: ["Geometry", "TextFormats"], swiftSettings: strict),
        .target(
            name: "FlightLog",
            dependencies: ["Geometry", "Observations", "Plots", "TrackFiles", "ShellSupport", "TextFormats", "FlightReport"],
            swiftSettings: strict
        ),
        .target(
            name: "FlightService",
            dependencies: [
                // No AR.Drone module: the flight speaks DroneControl; DroneLink is only built here (docs/architecture.md §3).
                "GPSClient", "DroneControl", "DroneLink", "FollowCore", "FollowMeConfig", "FlightLog", "Observations", "Geometry",
                "ShellSupport", "MAVLinkAdapter", "MAVLinkLink", log, lifecycle, nioCore, nioPosix,
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SimulatorServer",
            dependencies: [
                "TextFormats", "Simulation", "ARDroneProtocol", "MAVLink", "Observations", "Geometry", "ShellSupport", "TrackFiles",
                log, lifecycle, nioCore, nioPosix,
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "followme",
            dependencies: [
                "FollowCore", "TextFormats", "FlightService", "FlightLog", "SimulatorServer", "TrackFiles", "ShellSupport", "FollowMeConfig",
                "GPSClient", "DroneLink", "ARDroneProtocol", "Observations", "FollowBench", "Geometry", "Simulation",
                "Fuzzing", "FlightReport", "DroneControl", "MAVLink", "MAVLinkAdapter", "MAVLinkLink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), log, lifecycle,
            ],
            swiftSettings: strict
        ),

        // MARK: Tools (never part of a flight)
        .target(
            name: "Fuzzing",
            dependencies: ["ARDroneProtocol", "FollowMeConfig", "MAVLink", "SeededRandom"],
            swiftSettings: strict
        ),
        // Shared by the integration test targets only: child processes, gpsd launchers, UDP peers, the sim field.
        .target(name: "TestSupport", dependencies: ["Observations", "ShellSupport"], path: "Tests/TestSupport", swiftSettings: strict),

        // MARK: Tests (one target per module; integration targets start real gpsd / UDP peers)
        .testTarget(
            name: "GeometryTests", dependencies: ["Geometry"], resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(name: "MemberwiseInitTests", dependencies: ["MemberwiseInit"], swiftSettings: strict),
        .testTarget(
            name: "ARDroneAdapterTests", dependencies: ["ARDroneAdapter", "ARDroneProtocol", "FollowCore", "Observations"],
            swiftSettings: strict
        ),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats"], swiftSettings: strict),
        .testTarget(name: "FlightReportTests", dependencies: ["FlightReport", "Geometry", "TextFormats", "FollowBench"], swiftSettings: strict),
        .testTarget(name: "SeededRandomTests", dependencies: ["SeededRandom"], swiftSettings: strict),
        .testTarget(
            name: "MAVLinkAdapterTests", dependencies: ["MAVLinkAdapter", "MAVLink", "DroneControl", "FollowCore", "Observations", "SeededRandom", "Geometry"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MAVLinkTests", dependencies: ["MAVLink", "SeededRandom"], exclude: ["pymavlink_vectors.py"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ARDroneProtocolTests", dependencies: ["ARDroneProtocol", "Fuzzing", "SeededRandom"],
            resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(name: "FollowMeConfigTests", dependencies: ["FollowMeConfig", "FollowCore", "FlightService", "MAVLinkAdapter", "SeededRandom"], swiftSettings: strict),
        .testTarget(
            name: "FollowCoreTests", dependencies: ["FollowCore", "Geometry", "Observations", "SeededRandom"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SimulationTests", dependencies: ["Simulation", "ARDroneProtocol", "Geometry", "Observations", "SeededRandom", "MAVLink"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FuzzingTests", dependencies: ["Fuzzing", "ARDroneProtocol", "FollowMeConfig", "SeededRandom"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GPSClientTests",
            dependencies: ["GPSClient", "CGPS", "Observations", "Geometry", "Simulation", "ShellSupport", "TestSupport", log],
            resources: [.copy("Fixtures")], swiftSettings: strict
        ),
        .testTarget(
            name: "DroneLinkTests",
            dependencies: ["DroneLink", "DroneControl", "ARDroneProtocol", "ShellSupport", "Observations", "TestSupport", nioCore, nioPosix, log],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MAVLinkLinkTests",
            dependencies: ["MAVLinkLink", "MAVLinkAdapter", "MAVLink", "DroneControl", "FollowCore", "Observations", "TestSupport", "Geometry", nioCore, log],
            swiftSettings: strict
        ),
        .testTarget(name: "ShellSupportTests", dependencies: ["ShellSupport", log], swiftSettings: strict),
        .testTarget(
            name: "FlightLogTests", dependencies: ["TextFormats", "FlightLog", "Geometry", "Observations", "TrackFiles", "ShellSupport", "FlightReport"], swiftSettings: strict
        ),
        .testTarget(
            name: "TrackFilesTests", dependencies: ["TrackFiles", "FollowBench", "Geometry", "Simulation", "ShellSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FlightServiceTests",
            dependencies: ["FlightService", "DroneControl", "DroneLink", "FlightLog", "FollowCore", "Geometry", "Observations", "ShellSupport", log],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SimulatorServerTests",
            dependencies: [
                "SimulatorServer", "DroneLink", "GPSClient", "ARDroneProtocol", "MAVLink", "Simulation", "Observations",
                "Geometry", "ShellSupport", "TestSupport", "MAVLinkLink", "MAVLinkAdapter", "DroneControl", "FollowCore", log,
            ],
            exclude: ["sim_mavlink_gcs.py"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FollowBenchTests",
            dependencies: [
                "TextFormats", "FollowBench", "FollowCore", "Simulation", "Geometry", "Observations", "Plots", "ARDroneProtocol", "MAVLinkAdapter",
                // The bench's flight against `followme run`'s FlightLoop (OneFlightLoopTests).
                "DroneControl", "FlightService", log,
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "FaultInjectionTests", dependencies: ["TestSupport", "FlightLog"], swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["FollowMeConfig", "TestSupport"], swiftSettings: strict),
    ]
)

// Every product module may use `@MemberwiseInit` (a compile-time macro; see Sources/MemberwiseInit).
for target in package.targets where [.regular, .executable].contains(target.type) && target.name != "MemberwiseInit" {
    target.dependencies.append("MemberwiseInit")
}
