@testable import ARDrone
@testable import Simulation
@testable import Links
@testable import FollowCore
import Logging
import Synchronization
import Testing
import TestSupport

/// The simulator's NMEA read by a real gpsd (`tcp://` source) and the product's GPSClient.
@Suite("Simulator NMEA through gpsd", .timeLimit(.minutes(2)))
struct SimulatorGPSDTests {
    @Test("gpsd reports the landed drone's position within 3 cm and ATT heading = nose − mount offset")
    func stationaryFixAndHeading() async throws {
        // Given a drone south-west of Greenwich (Montevideo), nose at 30°, receiver mounted +90°.
        var configuration = SimulatorConfiguration.loopbackAnyPorts()
        configuration.home = GeoCoordinate(latitudeDegrees: -34.9062263, longitudeDegrees: -56.1645322)!
        configuration.initialNoseHeadingDegrees = 30
        configuration.mountOffsetDegrees = 90
        try await withSimulator(configuration) { server in
            // When gpsd reads the onboard NMEA stream and GPSClient watches gpsd.
            try await withOnboardGPSD(server) { gpsd, watcher in
                let enough = await watcher.waitUntil(timeoutSeconds: 20) { $0.fixes.filter(\.isComplete).count >= 5 && $0.headings.count >= 5 }
                #expect(enough, "fixes \(watcher.events.fixes.count), headings \(watcher.events.headings.count)")

                // Then every fix is at home within 3 cm, and complete fixes (time, speed: all but gpsd's
                // first, partial reports while it learns the cycle) are 3-D and standing still.
                let plane = LocalPlane(origin: configuration.home)
                let fixes = watcher.events.fixes
                try #require(!fixes.isEmpty)
                for fix in fixes {
                    #expect(fix.role == .onboard)
                    let errorMeters = plane.project(fix.coordinate).length
                    #expect(errorMeters < 0.03, "fix \(fix.coordinate) is \(errorMeters) m from home")
                }
                let complete = fixes.filter(\.isComplete)
                #expect(complete.count >= 5)
                for fix in complete {
                    #expect(fix.mode == .threeD)
                    #expect((fix.speedMetersPerSecond ?? 1) < 0.01)
                }
                // And the heading is the receiver's: nose 30° − mount 90° = 300°.
                for heading in watcher.events.headings {
                    #expect(abs(wrappedDegrees180(heading.headingDegrees - 300)) < 0.01, "heading \(heading.headingDegrees)")
                    #expect(abs(wrappedDegrees180(heading.headingDegrees + configuration.mountOffsetDegrees - 30)) < 0.01)
                }
                let first = try #require(fixes.first), firstComplete = try #require(complete.first)
                reportMeasurement("gpsd launch to first onboard fix / first complete fix at GPSClient",
                                  NMEASentence.decimal(first.receivedAt.seconds(since: gpsd.launchedAt), fractionDigits: 2) + " s / "
                                      + NMEASentence.decimal(firstComplete.receivedAt.seconds(since: gpsd.launchedAt), fractionDigits: 2) + " s")
                // Steady state: once gpsd knows the cycle, one TPV per 5 Hz cycle.
                let more = await watcher.waitUntil(timeoutSeconds: 10) { $0.fixes.count >= fixes.count + 10 }
                #expect(more)
                let later = Array(watcher.events.fixes.dropFirst(fixes.count))
                if later.count >= 2 {
                    let span = later[later.count - 1].receivedAt.seconds(since: later[0].receivedAt)
                    let rate = Double(later.count - 1) / span
                    reportMeasurement("onboard fix rate through gpsd (steady state)", NMEASentence.decimal(rate, fractionDigits: 2) + " Hz")
                    #expect(rate > 4 && rate < 6)
                    #expect(later.allSatisfy { $0.isComplete })
                }
            }
        }
    }

    @Test("while the drone flies forward, gpsd fixes match the ground truth at their own timestamps")
    func movingFixesMatchTruth() async throws {
        // Given a drone with its nose at 60°, flown by a raw protocol client, and gpsd reading its NMEA.
        var configuration = SimulatorConfiguration.loopbackAnyPorts()
        configuration.initialNoseHeadingDegrees = 60
        try await withSimulator(configuration) { server in
            try await withOnboardGPSD(server) { gpsd, watcher in
                let truth = TruthRecorder(server: server)
                defer { truth.stop() }

                let client = try RawDroneClient(ports: server.ports)
                client.sendTrigger()
                try client.send([.config(key: "general:navdata_demo", boolValue: true)])
                _ = try #require(try await client.run(timeoutSeconds: 10, sending: { [.ref(.takeoff), .pcmd(.hover)] }) {
                    $0.demo?.controlState == .hovering
                })
                // When it pitches forward for 4 s.
                let forwardFrom = SystemClock.now()
                try await client.keepSending(for: 4) { [.ref(.takeoff), .pcmd(ProgressiveCommand(pitchFraction: -0.6))] }
                let forwardUntil = SystemClock.now()
                try await client.keepSending(for: 0.5) { [.ref(.takeoff), .pcmd(.hover)] }

                // Then every fix taken while moving lies within 5 cm of the true position at the fix's
                // time (UTC from the NMEA → monotonic via the simulator's epoch), with the true speed
                // and a track along the nose.
                let samples = truth.samples
                var compared = 0
                var worstMeters = 0.0
                let plane = LocalPlane(origin: configuration.home)
                for fix in watcher.events.fixes {
                    guard let fixTime = fix.fixTime else { continue }
                    let takenAt = MonotonicTime(nanoseconds: fixTime.seconds * 1_000_000_000 + Int64(fixTime.nanoseconds)
                                                    - server.utcNanosecondsAtMonotonicZero)
                    guard takenAt > forwardFrom, takenAt < forwardUntil,
                          let state = TruthRecorder.interpolate(samples, at: takenAt), state.velocityENU.length > 0.5
                    else { continue }
                    compared += 1
                    let errorMeters = (plane.project(fix.coordinate) - state.positionPlane).length
                    worstMeters = max(worstMeters, errorMeters)
                    #expect(errorMeters < 0.05, "fix at \(takenAt) is \(errorMeters) m from the truth")
                    #expect(abs((fix.speedMetersPerSecond ?? 0) - state.velocityENU.length) < 0.05)
                    if let track = fix.trackDegrees { #expect(abs(wrappedDegrees180(track - 60)) < 3, "track \(track)") }
                }
                reportMeasurement("moving fixes compared with truth", "\(compared), worst \(NMEASentence.decimal(worstMeters * 100, fractionDigits: 1)) cm")
                let allFixes = watcher.events.fixes
                let gaps = zip(samples, samples.dropFirst()).map { $1.time.seconds(since: $0.time) }
                #expect(compared >= 8, """
                    only \(compared) fixes while moving: \(allFixes.count) fixes, \(allFixes.filter { $0.fixTime != nil }.count) with time, \
                    \(samples.count) truth samples, largest gap \(gaps.max() ?? -1) s, window \(forwardUntil.seconds(since: forwardFrom)) s
                    """)
            }
        }
    }

    @Test("the person stream walks the scenario: one gpsd, two tcp:// devices, one subscription each")
    func personStream() async throws {
        // Given a person walking straight towards 45° from 10 m south, starting at once.
        var configuration = SimulatorConfiguration.loopbackAnyPorts()
        configuration.person = .straightWalk
        configuration.personStart = .afterSeconds(0)
        configuration.personBearingDegrees = 45
        try await withSimulator(configuration) { server in
            let personPort = try #require(server.ports.personNMEAPort)
            let onboardDevice = "tcp://127.0.0.1:\(server.ports.onboardNMEAPort)"
            let personDevice = "tcp://127.0.0.1:\(personPort)"
            let gpsd = try await GPSDDaemon.start(sources: [onboardDevice, personDevice])
            defer { gpsd.stop() }
            // When GPSClient subscribes each role to its device.
            let endpoint = GPSDAddress(host: "127.0.0.1", port: gpsd.port)
            let watcher = GPSWatcher(subscriptions: [
                .init(role: .target, endpoint: endpoint, device: personDevice),
                .init(role: .onboard, endpoint: endpoint, device: onboardDevice),
            ])
            defer { watcher.stop() }
            let enough = await watcher.waitUntil(timeoutSeconds: 25) {
                $0.fixes.filter { $0.role == .target && $0.isComplete }.count >= 10 && $0.fixes.contains { $0.role == .onboard }
            }
            #expect(enough)

            // Then target fixes come from the person's device, move at 1.4 m/s towards 45°…
            let plane = LocalPlane(origin: configuration.home)
            let target = watcher.events.fixes.filter { $0.role == .target && $0.isComplete }
            try #require(target.count >= 2)
            #expect(target.allSatisfy { $0.device == personDevice })
            // (after speeding up at the bound, 4 m/s²: 0.35 s, the fixes before any at full speed)
            let cruising = Array(target.drop { abs(($0.speedMetersPerSecond ?? 0) - PersonSpeed.walkMetersPerSecond) >= 0.01 })
            try #require(cruising.count >= 2)
            let speedingUp = try #require(cruising[0].fixTime).unixSeconds - (try #require(target[0].fixTime).unixSeconds)
            #expect(speedingUp <= 1, "\(speedingUp) s of fixes below walking speed")
            for fix in cruising {
                #expect(abs((fix.speedMetersPerSecond ?? 0) - PersonSpeed.walkMetersPerSecond) < 0.01)
                #expect(abs(wrappedDegrees180((fix.trackDegrees ?? 0) - 45)) < 0.5)
            }
            let first = plane.project(target[0].coordinate)
            let from = plane.project(cruising[0].coordinate), last = plane.project(cruising[cruising.count - 1].coordinate)
            let walked = last - from
            #expect(abs(wrappedDegrees180(walked.bearingDegrees - 45)) < 1, "walked \(walked)")
            let dt = try #require(cruising[cruising.count - 1].fixTime).unixSeconds - (try #require(cruising[0].fixTime).unixSeconds)
            #expect(abs(walked.length / dt - PersonSpeed.walkMetersPerSecond) < 0.02)
            // …on the line that starts at the simulator's person offset towards 45° (within 5 cm of it)…
            let fromStart = first - SimulatorConfiguration().personOffsetPlane
            let direction = PlaneVector.unit(bearingDegrees: 45)
            #expect(abs(fromStart.east * direction.north - fromStart.north * direction.east) < 0.05, "first fix at \(first)")
            #expect(fromStart.dot(direction) > -0.05)
            // …while the onboard fixes stay at home, from the other device.
            let onboard = watcher.events.fixes.filter { $0.role == .onboard }
            #expect(onboard.allSatisfy { $0.device == onboardDevice && plane.project($0.coordinate).length < 0.03 })
            let snapshot = try await server.snapshot()
            #expect(snapshot.personStarted)
            #expect(snapshot.personFixesSent >= target.count)
        }
    }
}

/// gpsd reading the simulator's onboard NMEA stream and a `GPSWatcher` on it, both stopped after `body`.
func withOnboardGPSD<T>(
    _ server: SimulatorServer, _ body: (GPSDDaemon, GPSWatcher) async throws -> T
) async throws -> T {
    let gpsd = try await GPSDDaemon.start(sources: ["tcp://127.0.0.1:\(server.ports.onboardNMEAPort)"])
    defer { gpsd.stop() }
    let watcher = GPSWatcher(subscriptions: [.init(role: .onboard, endpoint: GPSDAddress(host: "127.0.0.1", port: gpsd.port), device: nil)])
    defer { watcher.stop() }
    return try await body(gpsd, watcher)
}

/// A started GPSClient whose events an `EventRecorder` drains; tests wait, with a bound, for a condition.
final class GPSWatcher: Sendable {
    private let client: GPSClient
    private let recorder: EventRecorder<GPSEvent>

    init(subscriptions: [ReceiverSubscription]) {
        client = GPSClient(subscriptions: subscriptions, logger: Logger(label: "SimulatorGPSDTests") { _ in SwiftLogNoOpLogHandler() })
        recorder = EventRecorder(client.events)
        client.start()
    }

    var events: [GPSEvent] { recorder.events }

    func waitUntil(timeoutSeconds: Double, _ condition: ([GPSEvent]) -> Bool) async -> Bool {
        await recorder.waitUntil(timeoutSeconds: timeoutSeconds, condition)
    }

    func stop() { client.stop() }
}

extension GPSFix {
    /// A report from a whole NMEA cycle: time (RMC date + time) and speed present. gpsd's first
    /// TPVs, sent while it learns which sentence ends the cycle, come from a lone GGA (no date,
    /// no speed).
    var isComplete: Bool { fixTime != nil && speedMetersPerSecond != nil }
}

/// Samples the simulator's ground truth every 5 ms in the background.
final class TruthRecorder: Sendable {
    struct Sample: Sendable {
        var time: MonotonicTime
        var positionPlane: PlaneVector
        var velocityENU: PlaneVector
    }

    private final class Storage: Sendable {
        let samples = Mutex<[Sample]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(server: SimulatorServer) {
        let storage = storage
        task = Task.detached {
            while !Task.isCancelled {
                if let s = try? await server.snapshot() {
                    storage.samples.withLock { $0.append(Sample(time: s.time, positionPlane: s.positionPlane, velocityENU: s.velocityENU)) }
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    var samples: [Sample] { storage.samples.withLock { $0 } }

    func stop() { task.cancel() }

    /// The state at `t`, linearly interpolated between the samples around it (nil if `t` is not
    /// bracketed by samples at most 50 ms apart).
    static func interpolate(_ samples: [Sample], at t: MonotonicTime) -> Sample? {
        guard let after = samples.firstIndex(where: { $0.time >= t }) else { return nil }
        let b = samples[after]
        if b.time == t { return b }
        guard after > 0 else { return nil }
        let a = samples[after - 1]
        let span = b.time.seconds(since: a.time)
        guard span > 0, span <= 0.05 else { return nil }
        let f = t.seconds(since: a.time) / span
        return Sample(time: t, positionPlane: a.positionPlane + (b.positionPlane - a.positionPlane) * f,
                      velocityENU: a.velocityENU + (b.velocityENU - a.velocityENU) * f)
    }
}
