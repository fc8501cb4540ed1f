import ARDroneProtocol
import Geometry
import Logging
import NIOCore
import Simulation
import Telemetry

/// The one owner of the simulated drone, its GPS receivers and the person: every input and the
/// clock tick arrive here, on the server's event loop (it is wrapped in `NIOLoopBound`).
///
/// The decisions live in the pure values it holds (`DroneSimulator`, `GPSPairSimulator`,
/// `SimulatedDroneProtocol`); this class only routes bytes and time between them and the sockets.
final class SimulatorCore {
    private let configuration: SimulatorConfiguration
    private let logger: Logger
    private let plane: LocalPlane
    private let startedAt: MonotonicTime
    private let navdataPeriodNanoseconds: Int64

    private var simulator: DroneSimulator
    private var gps: GPSPairSimulator
    private var droneProtocol = SimulatedDroneProtocol()

    private let personScenario: (any PersonScenario)?
    private var personStartedAt: MonotonicTime?

    private var navdataChannel: (any Channel)?
    private var navdataClient: SocketAddress?
    private var nextNavdataAt: MonotonicTime
    private var navdataBuffer: [UInt8] = []
    private var encodingFailures = 0

    private var onboardNMEA: NMEATCPServer?
    private var personNMEA: NMEATCPServer?
    private var onboardFixesSent = 0
    private var onboardHeadingsSent = 0
    private var personFixesSent = 0

    /// The simulation timer; cancelled by `detach()`.
    var timer: RepeatedTask?

    init(configuration: SimulatorConfiguration, start: MonotonicTime, utcEpochSeconds: Int64, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.startedAt = start
        plane = LocalPlane(origin: configuration.home)
        simulator = DroneSimulator(
            dynamics: configuration.dynamics, start: start, positionPlane: .zero,
            noseHeadingDegrees: configuration.initialNoseHeadingDegrees)
        gps = GPSPairSimulator(
            model: configuration.gpsNoise.model(mountOffsetDegrees: configuration.mountOffsetDegrees),
            plane: plane, seed: configuration.seed, start: start,
            groundHAEMeters: configuration.groundHAEMeters, utcEpochSeconds: utcEpochSeconds)
        personScenario = configuration.person.scenario(
            startPlane: configuration.personOffsetPlane, bearingDegrees: configuration.personBearingDegrees)
        let rate = configuration.navdataRateHertz > 0 ? configuration.navdataRateHertz : 15
        navdataPeriodNanoseconds = max(1, Int64((1e9 / rate).rounded()))
        nextNavdataAt = start
        navdataBuffer.reserveCapacity(256)
    }

    /// Connects the core to its output sockets (called once, after they are bound).
    func attach(navdataChannel: any Channel, onboardNMEA: NMEATCPServer, personNMEA: NMEATCPServer?) {
        self.navdataChannel = navdataChannel
        self.onboardNMEA = onboardNMEA
        self.personNMEA = personNMEA
    }

    /// Stops the timer and forgets the sockets; later datagrams and ticks do nothing.
    func detach() {
        timer?.cancel()
        timer = nil
        navdataChannel = nil
        onboardNMEA = nil
        personNMEA = nil
    }

    // MARK: Inputs

    /// One AT datagram from `source` arrived at `now`.
    func receiveAT(_ datagram: [UInt8], from source: SocketAddress, now: MonotonicTime) {
        let malformedBefore = droneProtocol.counters.malformedDatagrams
        let inputs = droneProtocol.receiveATDatagram(datagram)
        if droneProtocol.counters.malformedDatagrams != malformedBefore {
            logger.debug("malformed AT datagram ignored", metadata: [
                "from": "\(source)", "bytes": "\(datagram.count)",
                "error": "\(droneProtocol.lastDecodingError.map { "\($0)" } ?? "?")",
            ])
        }
        for input in inputs {
            simulator.apply(input, at: now)
        }
    }

    /// A datagram arrived on the navdata port: its source becomes the navdata client (§1.2: the
    /// drone answers the trigger's source address and port).
    func receiveNavdataTrigger(from source: SocketAddress, now: MonotonicTime) {
        if navdataClient != source {
            logger.info("navdata client registered", metadata: ["client": "\(source)"])
            navdataClient = source
            nextNavdataAt = now // first packet on the next tick
        }
    }

    // MARK: Clock

    /// Advances everything to `now` and sends what is due.
    func tick(now: MonotonicTime) {
        simulator.advance(to: now)
        updatePerson(now: now)
        gps.update(now: now, target: personTruth(now: now), onboard: simulator.gpsTruth)
        while let output = gps.nextOutput(readyBy: now) {
            route(output)
        }
        if navdataClient != nil, now >= nextNavdataAt {
            sendNavdata()
            // Keep the 15 Hz grid; skip slots missed during a stall instead of bursting.
            repeat {
                nextNavdataAt = MonotonicTime(nanoseconds: nextNavdataAt.nanoseconds + navdataPeriodNanoseconds)
            } while nextNavdataAt <= now
        }
    }

    private func updatePerson(now: MonotonicTime) {
        guard personScenario != nil, personStartedAt == nil else { return }
        switch configuration.personStart {
        case .whenAirborne:
            if simulator.flightState == .flying { personStartedAt = now }
        case .afterSeconds(let seconds):
            if now.seconds(since: startedAt) >= seconds { personStartedAt = now }
        }
        if personStartedAt != nil { logger.info("person starts moving", metadata: ["scenario": "\(configuration.person.rawValue)"]) }
    }

    private func personState(now: MonotonicTime) -> PersonState? {
        guard let personScenario else { return nil }
        return personScenario.state(atSeconds: personStartedAt.map { now.seconds(since: $0) } ?? 0)
    }

    private func personTruth(now: MonotonicTime) -> GPSTruthSample {
        personState(now: now)?.gpsTruth
            ?? GPSTruthSample(positionPlane: configuration.personOffsetPlane, velocityENU: .zero)
    }

    private func route(_ output: GPSSimulatorOutput) {
        switch output {
        case .fix(let fix):
            guard let text = NMEASentence.fixSentences(fix, talker: configuration.positionTalker) else { return }
            switch fix.role {
            case .onboard:
                onboardNMEA?.broadcast(text)
                onboardFixesSent += 1
            case .target:
                guard let personNMEA else { return }
                personNMEA.broadcast(text)
                personFixesSent += 1
            }
        case .heading(let report):
            guard report.role == .onboard else { return }
            onboardNMEA?.broadcast(NMEASentence.headingSentence(report, talker: configuration.headingTalker))
            onboardHeadingsSent += 1
        }
    }

    private func sendNavdata() {
        guard let navdataChannel, let navdataClient else { return }
        let packet = droneProtocol.nextNavdataPacket(for: simulator.navdata)
        do {
            try packet.encode(into: &navdataBuffer)
        } catch {
            encodingFailures += 1
            logger.error("navdata packet did not encode", metadata: ["error": "\(error)"])
            return
        }
        var buffer = navdataChannel.allocator.buffer(capacity: navdataBuffer.count)
        buffer.writeBytes(navdataBuffer)
        navdataChannel.writeAndFlush(AddressedEnvelope(remoteAddress: navdataClient, data: buffer), promise: nil)
    }

    // MARK: Observation

    func snapshot(now: MonotonicTime) -> SimulatorSnapshot {
        simulator.advance(to: now)
        return SimulatorSnapshot(
            time: simulator.time,
            uptimeSeconds: simulator.time.seconds(since: startedAt),
            flightState: simulator.flightState,
            navdata: simulator.navdata,
            navdataMode: droneProtocol.navdataMode,
            counters: droneProtocol.counters,
            lastAcceptedSequenceNumber: droneProtocol.lastAcceptedSequenceNumber,
            navdataClient: navdataClient.map { "\($0)" },
            positionPlane: simulator.positionPlane,
            coordinate: plane.unproject(simulator.positionPlane),
            velocityENU: simulator.velocityENU,
            altitudeMeters: simulator.altitudeMeters,
            noseHeadingDegrees: simulator.noseHeadingDegrees,
            batteryPercent: simulator.batteryPercent,
            personPlane: personState(now: simulator.time)?.positionPlane,
            personStarted: personStartedAt != nil,
            onboardNMEAClients: onboardNMEA?.clientCountOnLoop ?? 0,
            personNMEAClients: personNMEA?.clientCountOnLoop ?? 0,
            onboardFixesSent: onboardFixesSent,
            onboardHeadingsSent: onboardHeadingsSent,
            personFixesSent: personFixesSent
        )
    }
}
