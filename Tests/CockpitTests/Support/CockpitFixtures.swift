@testable import Cockpit
import FlightRecords
@testable import FlightService
import FollowCore
import Foundation
import Logging
import Synchronization

/// Realistic statuses, as the flight publishes them (values from a simulated flight's status line):
/// a preflight still waiting, following at the standoff, and holding because the person's GPS went stale.
enum CockpitFixtures {
    static let home = (lat: 48.858_120, lon: 2.294_500)

    static func receiver(lat: Double, lon: Double, age: Double = 0.2, eph: Double = 2.4, mode: Int = 3) -> FlightStatus.ReceiverStatus {
        .init {
            ($0.mode, $0.ephMeters, $0.ageSeconds) = (mode, eph, age)
            ($0.latitudeDegrees, $0.longitudeDegrees) = (lat, lon)
            ($0.satellitesUsed, $0.satellitesVisible, $0.hdop) = (9, 14, 0.9)
        }
    }

    static func base(_ state: String) -> FlightStatus {
        var s = FlightStatus()
        (s.t, s.flightSeconds, s.state) = (1_000, 95, state)
        (s.standoffMeters, s.minSeparationMeters, s.geofenceMeters) = (11, 3, 60)
        (s.batteryPercent, s.altitudeMeters, s.headingDegrees) = (78, 3.0, 200)
        (s.navdataHertz, s.commandsPerSecond) = (15, 86)
        s.takeoff = "start"
        return s
    }

    static var preflightWaiting: FlightStatus {
        var s = base("preflight(waiting: heading,navdata,start)")
        s.waiting = ["heading", "navdata", "start"]
        s.target = receiver(lat: home.lat + 0.000_09, lon: home.lon, eph: 3.1)
        s.onboard = receiver(lat: home.lat, lon: home.lon, age: 0.4, eph: 4.8, mode: 2)
        (s.navdataHertz, s.commandsPerSecond, s.altitudeMeters, s.headingDegrees) = (nil, 0, 0, nil)
        s.person = .init { ($0.distanceMeters, $0.bearingDegrees) = (10.0, 0) }
        s.transitions = []
        return s
    }

    static var readyToStart: FlightStatus {
        var s = preflightWaiting
        (s.state, s.waiting) = ("preflight(waiting: start)", ["start"])
        (s.navdataHertz, s.commandsPerSecond, s.headingDegrees) = (15, 30, 0)
        s.onboard?.mode = 3
        s.person?.distanceMeters = 12.5
        s.target?.latitudeDegrees = home.lat + 0.000_112
        return s
    }

    static var following: FlightStatus {
        var s = base("following")
        s.reason = "altitude-reached"
        s.home = .init { ($0.latitudeDegrees, $0.longitudeDegrees) = (home.lat, home.lon) }
        s.target = receiver(lat: home.lat + 0.000_15, lon: home.lon + 0.000_10)
        s.onboard = receiver(lat: home.lat + 0.000_06, lon: home.lon + 0.000_04, age: 0.1, eph: 3.0)
        s.headingDegrees = 25
        s.person = .init { ($0.distanceMeters, $0.bearingDegrees, $0.relativeBearingDegrees) = (11.2, 24, -1) }
        s.wind = .init { ($0.windMetersPerSecond, $0.windTowardsDegrees, $0.windAuthority) = (3.1, 70, 0.42) }
        s.transitions = [
            .init { ($0.t, $0.from, $0.to, $0.reason) = (905, "preflight", "taking-off", "prerequisites-met") },
            .init { ($0.t, $0.from, $0.to, $0.reason) = (908, "taking-off", "climbing", "airborne-confirmed") },
            .init { ($0.t, $0.from, $0.to, $0.reason) = (912, "climbing", "following", "altitude-reached") },
        ]
        s.operatorCommand = .init { ($0.t, $0.command, $0.source, $0.outcome) = (904, "start", "web 192.0.2.7", "accepted") }
        s.follow = .init { ($0.mode, $0.angleDegrees, $0.orbitDirection) = ("angle", 90, "clockwise") }
        return s
    }

    static var holdingTargetStale: FlightStatus {
        var s = following
        (s.state, s.reason, s.stateSinceT) = ("holding(target-stale)", "hold:target-stale", 996)
        s.target?.ageSeconds = 4.6
        s.person?.distanceMeters = 9.4
        s.wind?.windAuthority = 0.83
        s.transitions.append(.init { ($0.t, $0.from, $0.to, $0.reason) = (996, "following", "holding(target-stale)", "hold:target-stale") })
        return s
    }

    static var landingOperator: FlightStatus {
        var s = following
        (s.state, s.reason, s.stateSinceT) = ("landing(operator)", "land:operator", 998)
        (s.altitudeMeters, s.batteryPercent) = (1.4, 21)
        s.operatorCommand = .init { ($0.t, $0.command, $0.source, $0.outcome) = (998, "land", "web 192.0.2.7", "accepted") }
        s.transitions.append(.init { ($0.t, $0.from, $0.to, $0.reason) = (998, "following", "landing(operator)", "land:operator") })
        return s
    }

    static var landed: FlightStatus {
        var s = landingOperator
        (s.state, s.reason, s.stateSinceT, s.altitudeMeters) = ("landed", "landed-confirmed", 999, 0)
        s.transitions.append(.init { ($0.t, $0.from, $0.to, $0.reason) = (999, "landing(operator)", "landed", "landed-confirmed") })
        (s.camera, s.cameraReason, s.cameraSinceT) = ("stopped", "video recording closed: 2790 frames", 999)
        return s
    }

    /// Following while the camera has recorded for 83.4 s.
    static var followingRecording: FlightStatus {
        var s = following
        (s.camera, s.cameraReason, s.cameraSinceT, s.cameraRecordingSeconds) = ("recording", "video recording out/video/2026-12-07T150102Z.h264", 916.6, 83.4)
        return s
    }

    /// A cockpit on an ephemeral loopback port, a board and an inbox whose flight is `delivery`.
    static func server(code: String = "123456", landWithoutCode: Bool = false, maxStreams: Int = 32,
                       board: FlightStatusBoard = FlightStatusBoard(), delivery: FakeFlight? = FakeFlight(),
                       videoDirectory: String? = nil,
                       clock: @escaping @Sendable () -> MonotonicTime = { MonotonicTime(seconds: 1) }) async throws
        -> (server: CockpitServer, board: FlightStatusBoard, flight: FakeFlight?) {
        let inbox = OperatorCommandInbox()
        if let delivery { inbox.attach(delivery.deliver) }
        var settings = CockpitSettings(host: "127.0.0.1", port: 0, code: PairingCode(code), landWithoutCode: landWithoutCode)
        settings.maxStreams = maxStreams
        settings.videoDirectory = videoDirectory
        var logger = Logger(label: "cockpit-test")
        logger.logLevel = .critical
        let server = try await CockpitServer.start(settings: settings, board: board, commands: inbox, logger: logger, clock: clock)
        return (server, board, delivery)
    }

    /// `body` with a started server (its board, its fake flight, a client), stopped afterwards even
    /// when `body` throws.
    static func withServer(code: String = "123456", landWithoutCode: Bool = false, maxStreams: Int = 32,
                           delivery: FakeFlight? = FakeFlight(), videoDirectory: String? = nil,
                           clock: @escaping @Sendable () -> MonotonicTime = { MonotonicTime(seconds: 1) },
                           _ body: (CockpitServer, FlightStatusBoard, FakeFlight?, LoopbackHTTP) async throws -> Void) async throws {
        let (server, board, flight) = try await self.server(code: code, landWithoutCode: landWithoutCode, maxStreams: maxStreams,
                                                            delivery: delivery, videoDirectory: videoDirectory, clock: clock)
        do {
            try await body(server, board, flight, LoopbackHTTP(port: server.port))
        } catch {
            await server.waitUntilStopped()
            throw error
        }
        await server.waitUntilStopped()
    }
}

/// The flight's side of the inbox in a test: records what it got and answers `accepted` (or what
/// `outcome` says), as the flight loop would, from another thread.
final class FakeFlight: Sendable {
    private let received = Mutex<[(request: OperatorRequest, source: String)]>([])
    let outcome: String

    init(outcome: String = "accepted") { self.outcome = outcome }

    /// Every request, commands and mode changes, in order.
    var requests: [(request: OperatorRequest, source: String)] { received.withLock { $0 } }

    /// The operator commands among them.
    var commands: [(command: OperatorCommand, source: String)] {
        requests.compactMap { if case .command(let command) = $0.request { (command, $0.source) } else { nil } }
    }

    var deliver: OperatorCommandInbox.Delivery {
        { [self] request, source, reply in
            received.withLock { $0.append((request, source)) }
            var answer = OperatorCommandReply()
            (answer.command, answer.source, answer.outcome) = (request.name, source, outcome)
            (answer.accepted, answer.state) = (outcome == "accepted", "holding(operator-hold)")
            let final = answer
            Thread { reply(final) }.start()
        }
    }
}

/// Two cockpits for the browser tests: `server`, whose board republishes the status every 0.25 s as the
/// flight does (`show` changes it at once), and `refusing`, which refuses every live view (its board
/// holds `following`). `stop()` ends both and the publishing.
final class LiveCockpits: Sendable {
    let server: CockpitServer
    let refusing: CockpitServer
    private let board: FlightStatusBoard
    private let status: Mutex<FlightStatus>
    private let publisher: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ initial: FlightStatus = CockpitFixtures.preflightWaiting) async throws {
        status = Mutex(initial)
        (server, board, _) = try await CockpitFixtures.server()
        let (refusing, refusingBoard, _) = try await CockpitFixtures.server(maxStreams: 0)
        self.refusing = refusing
        refusingBoard.publish(CockpitFixtures.following)
        let task = Task { [self] in
            while !Task.isCancelled {
                board.publish(status.withLock { $0 })
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        publisher.withLock { $0 = task }
    }

    /// What the flight publishes from now on.
    func show(_ next: FlightStatus) {
        status.withLock { $0 = next }
        board.publish(next)
    }

    func stop() {
        publisher.withLock { $0?.cancel() }
        server.stop()
        refusing.stop()
    }
}
