// swift-tools-version: 6.2
// FollowMe: make a Parrot AR.Drone 2.0 or a MAVLink multicopter follow a person carrying a GPS.
// The module map, what each module may use and why: docs/architecture.md (the only copy;
// Tests/followmeTests/CLI/ArchitectureTests.swift checks this file and Sources/ against it).
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let log = Target.Dependency.product(name: "Logging", package: "swift-log")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

/// The drone families. A family is one folder, `Sources/<Family>/`: its pure module (codec, session,
/// vehicle model) at the top, and one sub-folder for each shell module it adds to, compiled into that
/// module (docs/architecture.md §4). A new family is one more name here and its registry lines.
let families = ["ARDrone", "MAVLink"]
/// A family's sub-folder → the shell module its files are compiled into.
let familyParts: KeyValuePairs<String, String> = [
    "Link": "Links", "Service": "FlightService", "Simulation": "Simulation", "Drone": "followme",
]
/// A shell module's own folder plus every family's part for it (paths under Sources/).
func sources(_ module: String) -> [String] {
    [module] + families.flatMap { family in familyParts.filter { $0.value == module }.map { "\(family)/\($0.key)" } }
}
/// Everything under Sources/ that a shell module built from `sources(module)` does not compile: the other
/// modules' folders and the families' other files (SwiftPM would warn of each as unhandled).
func excluded(_ module: String) -> [String] {
    let root = Context.packageDirectory + "/Sources"
    func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path.isEmpty ? root : root + "/" + path)) ?? []).sorted()
    }
    let own = Set(sources(module))
    return entries("").filter { $0 != module }.flatMap { top in
        families.contains(top) ? entries(top).map { "\(top)/\($0)" }.filter { !own.contains($0) } : [top]
    }
}
/// A test target: strict settings; `fixtures` is the path of its Fixtures folder, copied into the test
/// bundle as `Fixtures` (what `Bundle.module` finds).
func tests(_ name: String, _ dependencies: [Target.Dependency], fixtures: String? = nil, exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude,
                resources: fixtures.map { [.copy($0)] }, swiftSettings: strict)
}

let package = Package(
    name: "FollowMe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "followme", targets: ["followme"]),
        // `followme sim|bench|fuzz`: followme execs this program, installed beside it (docs/architecture.md §1).
        .executable(name: "followme-tools", targets: ["FollowMeTools"]),
        // For the separate Performance/ package (package-benchmark), which depends on this one by path.
        .library(name: "FollowMeKit", targets: ["FollowCore", "ARDrone", "MAVLink", "Links"]),
    ],
    // Pinned exactly to the versions CI tests (the local package mirror's); there is no lock file in git.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // The phone cockpit's HTTP server. Its default traits are off: they add swift-configuration
        // (config readers we do not use) and nothing the cockpit needs.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
    ],
    targets: [
        // MARK: Pure (values in, values out; time is an argument; no clock, socket, file or logger)
        // Geometry, observations, estimation, control, the failsafe state machine, the link seam.
        .target(name: "FollowCore", swiftSettings: strict),
        // The AR.Drone 2.0: AT and navdata codecs, and its adapter (navdata → telemetry, motion → REF/PCMD).
        .target(name: "ARDrone", dependencies: ["FollowCore"], path: "Sources/ARDrone", exclude: familyParts.map(\.key),
                swiftSettings: strict),
        // MAVLink v2: the codec and the session (the vehicle state machine, docs/mavlink.md §7).
        .target(name: "MAVLink", dependencies: ["FollowCore"], path: "Sources/MAVLink", exclude: familyParts.map(\.key),
                swiftSettings: strict),

        // MARK: Shell (clocks, sockets, files, loggers)
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // gpsd through libgps, the AR.Drone and MAVLink UDP links on swift-nio, clocks and writer threads.
        .target(
            name: "Links",
            dependencies: ["CGPS", "FollowCore", "ARDrone", "MAVLink", log, nioCore, nioPosix],
            path: "Sources", exclude: excluded("Links"), sources: sources("Links"), swiftSettings: strict
        ),
        // The flight log, GPX/NMEA track files, text formats, plots and the after-flight report.
        .target(name: "FlightRecords", dependencies: ["FollowCore", "Links"], swiftSettings: strict),
        // The configuration file and the flight: one FlightLoop, the service around it, its status.
        .target(
            name: "FlightService",
            dependencies: [
                "FollowCore", "ARDrone", "Links", "FlightRecords", "MAVLink",
                .product(name: "TOMLKit", package: "TOMLKit"), log, lifecycle, nioCore, nioPosix,
                argumentParser,  // CommandLineSupport: the two executables' shared `main`
            ],
            path: "Sources", exclude: excluded("FlightService"), sources: sources("FlightService"), swiftSettings: strict
        ),
        // The phone cockpit (`[web] listen`): the page, its status stream and its four commands, on its own event loop.
        .target(
            name: "Cockpit",
            dependencies: [
                "FollowCore", "FlightRecords", "FlightService", log, nioCore, nioPosix,
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        // Development tools, never part of a flight: the simulated drones and field, the simulator
        // server (`followme sim`), the bench (`followme bench`), the fuzzing properties.
        .target(
            name: "Simulation",
            dependencies: ["FollowCore", "ARDrone", "MAVLink", "Links", "FlightRecords", "FlightService", log, lifecycle, nioCore, nioPosix],
            path: "Sources", exclude: excluded("Simulation"), sources: sources("Simulation"), swiftSettings: strict
        ),
        .executableTarget(
            name: "followme",
            dependencies: [
                "FollowCore", "ARDrone", "MAVLink", "Links", "FlightRecords", "FlightService", "Cockpit", argumentParser, log,
                lifecycle,
            ],
            path: "Sources", exclude: excluded("followme"), sources: sources("followme"),
            swiftSettings: strict,
            // A flight carries only what flies (PERFORMANCE.md "Footprint"): lld packs the ~100 k relative
            // relocations of a --static-swift-stdlib build (DT_RELR, glibc ≥ 2.36: Debian bookworm), so the
            // loader no longer reads 2.3 MB of them at start, and the executable exports no symbols (nothing
            // dlopens it) — 5 MiB less resident, PIE and ASLR kept.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux], configuration: .release)
                ),
            ]
        ),
        // The development tools' executable (`followme-tools`): sim, bench, fuzz; never part of a flight.
        .executableTarget(
            name: "FollowMeTools",
            dependencies: [
                "FollowCore", "ARDrone", "MAVLink", "Links", "FlightRecords", "FlightService", "Simulation",
                argumentParser, log, lifecycle,
            ],
            swiftSettings: strict
        ),

        // Shared by the test targets: child processes, gpsd launchers, UDP peers, the sim field, a recording link.
        .target(name: "TestSupport", dependencies: ["FollowCore", "Links", log], path: "Tests/TestSupport", swiftSettings: strict),

        // MARK: Tests (one target per module, named after it, a sub-folder per concern: docs/architecture.md §1.1)
        tests("FollowCoreTests", ["FollowCore", "ARDrone", "MAVLink"], fixtures: "Geometry/Fixtures"),
        tests("ARDroneTests", ["ARDrone", "Simulation", "FollowCore"], fixtures: "ARDroneProtocol/Fixtures"),
        tests("MAVLinkTests", ["MAVLink", "FollowCore"], fixtures: "Fixtures", exclude: ["pymavlink_vectors.py"]),
        tests("LinksTests", ["Links", "CGPS", "FollowCore", "ARDrone", "MAVLink", "Simulation", "TestSupport", nioCore, nioPosix, log],
              fixtures: "GPSClient/Fixtures"),
        tests("FlightRecordsTests", ["FlightRecords", "FollowCore", "Links", "Simulation", "TestSupport"]),
        tests("FlightServiceTests", ["FlightService", "FollowCore", "ARDrone", "MAVLink", "Links", "FlightRecords", "TestSupport", log]),
        tests("CockpitTests", ["Cockpit", "FlightService", "FlightRecords", "FollowCore", "TestSupport", nioCore, nioPosix, log]),
        tests("SimulationTests",
              ["Simulation", "ARDrone", "MAVLink", "FollowCore", "Links", "FlightRecords", "FlightService", "TestSupport", log],
              exclude: ["SimulatorServer/sim_mavlink_gcs.py"]),
        // The executables end to end (followme, and followme-tools through it) and the repository's own checks.
        tests("followmeTests", ["FlightService", "Links", "FlightRecords", "TestSupport"],
              exclude: ["CLI/Support/cdp_driver.py", "CLI/Support/guess_pairing.py"]),
    ]
)
