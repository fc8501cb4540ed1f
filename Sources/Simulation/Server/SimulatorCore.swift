import ARDrone
import FollowCore
import Logging
import NIOCore
import Links
import FlightRecords

/// The one owner of the simulated drone, its GPS receivers and the person: every input and the
/// clock tick arrive here, on the server's event loop (it is wrapped in `NIOLoopBound`).
///
/// The decisions live in the pure values it holds (`DroneSimulator`, `GPSPairSimulator`,
/// `SimulatedDroneProtocol`); this class only routes bytes and time between them and the sockets.
final class SimulatorCore {
    private let configuration: SimulatorConfiguration
    let logger: Logger
    private let plane: LocalPlane
    private let startedAt: MonotonicTime
    private let navdataPeriodNanoseconds: Int64

    private var simulator: DroneSimulator
    /// The MAVLink Copter and its socket, with `--protocol mavlink` (nil otherwise); it replaces
    /// `simulator` as the drone the GPS receivers and the person see (MAVLinkVehicleEndpoint.swift).
    var mavlink: MAVLinkVehicleEndpoint?
    var mavlinkChannel: (any Channel)?
    private var gps: GPSPairSimulator
    /// The wind at the drone (`SimulatorConfiguration.wind`), sampled every tick.
    private var wind: WindModel
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

    /// Faults injected through the control channel (`SimulatorControlCommand`).
    private(set) var faults = SimulatorFaults()
    private var lastATAt: MonotonicTime?
    private var maxCommandGapSeconds = 0.0
    /// See `SimulatorSnapshot.landedAnnouncedAt` and the two fields after it.
    private var landedAnnouncedAt: MonotonicTime?
    private var takeoffBitsAfterLandedAnnounced = 0
    private var lastTakeoffBitAfterLandedAnnouncedAt: MonotonicTime?

    /// The simulation timer; cancelled by `detach()`.
    var timer: RepeatedTask?

    init(configuration: SimulatorConfiguration, start: MonotonicTime, utcNanosecondsAtMonotonicZero: Int64, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.startedAt = start
        plane = LocalPlane(origin: configuration.home)
        simulator = DroneSimulator(
            dynamics: configuration.dynamics, start: start, positionPlane: .zero,
            noseHeadingDegrees: configuration.initialNoseHeadingDegrees)
        wind = WindModel(parameters: configuration.wind, seed: configuration.seed, start: start)
        var gpsModel = configuration.gpsNoise.model(mountOffsetDegrees: configuration.mountOffsetDegrees)
        if let hz = configuration.personFixRateHertz { gpsModel.target.fixRateHertz = hz }
        if let latency = configuration.receiverLatencySeconds {
            (gpsModel.target.latencySeconds, gpsModel.onboard.latencySeconds) = (latency, latency)
        }
        let utcSeconds = SimulatorServer.floorSeconds(utcNanosecondsAtMonotonicZero)
        gps = GPSPairSimulator(
            model: gpsModel,
            plane: plane, seed: configuration.seed, start: start,
            groundHAEMeters: configuration.groundHAEMeters, utcEpochSeconds: utcSeconds,
            utcSubsecondNanoseconds: utcNanosecondsAtMonotonicZero - utcSeconds * 1_000_000_000)
        personScenario = configuration.person == .track ? configuration.personTrack
            : configuration.person.scenario(
                startPlane: configuration.personOffsetPlane, bearingDegrees: configuration.personBearingDegrees)
        let rate = configuration.navdataRateHertz > 0 ? configuration.navdataRateHertz : 15
        navdataPeriodNanoseconds = max(1, Int64((1e9 / rate).rounded()))
        nextNavdataAt = start
        navdataBuffer.reserveCapacity(256)
        if configuration.droneProtocol == .mavlink {
            var parameters = configuration.mavlinkCopter
            parameters.homeAltitudeMSLMeters = configuration.groundHAEMeters
            mavlink = MAVLinkVehicleEndpoint(copter: MAVLinkCopter(
                parameters: parameters, dynamics: configuration.dynamics, plane: plane, start: start,
                noseHeadingDegrees: configuration.initialNoseHeadingDegrees))
        }
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
        mavlinkChannel = nil
        onboardNMEA = nil
        personNMEA = nil
    }

    // MARK: Inputs

    /// One AT datagram from `source` arrived at `now`.
    func receiveAT(_ datagram: [UInt8], from source: SocketAddress, now: MonotonicTime) {
        if let lastATAt { maxCommandGapSeconds = max(maxCommandGapSeconds, now.seconds(since: lastATAt)) }
        lastATAt = now
        let malformedBefore = droneProtocol.counters[.malformedDatagrams]
        let commands = droneProtocol.receiveATDatagram(datagram)
        if droneProtocol.counters[.malformedDatagrams] != malformedBefore {
            logger.debug("malformed AT datagram ignored", metadata: [
                "from": "\(source)", "bytes": "\(datagram.count)",
                "error": "\(droneProtocol.lastDecodingError.map { "\($0)" } ?? "?")",
            ])
        }
        for command in commands {
            if case .ref(let input) = command, input.requestsFlight {
                simulator.advance(to: now)
                if simulator.flightPhase == .landed, landedAnnouncedAt != nil {
                    takeoffBitsAfterLandedAnnounced += 1
                    lastTakeoffBitAfterLandedAnnouncedAt = now
                }
            }
            simulator.apply(command, at: now)
        }
    }

    /// A datagram arrived on the navdata port: its source becomes the navdata client (docs/ardrone-protocol.md §1.2: the
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
        let windENU = configuration.dynamics.windENU + wind.windENU(at: now)
        simulator.windENU = windENU
        if mavlink != nil { sendMAVLink { $0.windENU = windENU; return [] } }
        simulator.advance(to: now)
        if simulator.flightPhase != .landed { landedAnnouncedAt = nil }
        tickMAVLink(now: now)
        updatePerson(now: now)
        gps.update(now: now, target: personTruth(now: now), onboard: mavlink?.copter.gpsTruth ?? simulator.gpsTruth)
        while let output = gps.nextOutput(readyBy: now) {
            route(output)
        }
        if navdataClient != nil, now >= nextNavdataAt {
            if faults.navdataSilent {
                faults.counts[.navdataPacketsSuppressed] += 1
            } else {
                sendNavdata(now: now)
            }
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
            if (mavlink?.flightPhase ?? simulator.flightPhase) == .flying { personStartedAt = now }
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
        case .fix(var fix):
            switch fix.role {
            case .onboard:
                guard !faults.onboardSilent else {
                    faults.counts[.onboardFixesSuppressed] += 1
                    return
                }
                guard let text = NMEASentence.fixSentences(fix, talker: configuration.positionTalker) else { return }
                onboardNMEA?.broadcast(text)
                onboardFixesSent += 1
            case .target:
                guard let personNMEA else { return }
                guard !faults.personSilent else {
                    faults.counts[.personFixesSuppressed] += 1
                    return
                }
                fix = applyPersonFixFaults(fix)
                guard let text = NMEASentence.fixSentences(fix, talker: configuration.positionTalker) else { return }
                personNMEA.broadcast(text)
                personFixesSent += 1
            }
        case .heading(let report):
            guard report.role == .onboard else { return }
            guard !faults.onboardSilent, !faults.headingSilent else {
                faults.counts[.headingsSuppressed] += 1
                return
            }
            let headingDegrees = faults.takeHeading(trueDegrees: report.headingDegrees)
            let sent = headingDegrees == report.headingDegrees ? report
                : HeadingReport(role: report.role, device: report.device,
                                headingDegrees: headingDegrees, receivedAt: report.receivedAt) ?? report
            onboardNMEA?.broadcast(NMEASentence.headingSentence(sent, talker: configuration.headingTalker))
            onboardHeadingsSent += 1
        }
    }

    /// The person fix as sent: a pending jump moves it, a pending time shift makes its UTC time
    /// earlier (each for this one fix only).
    private func applyPersonFixFaults(_ fix: GPSFix) -> GPSFix {
        guard faults.pendingPersonJump != nil || faults.pendingPersonTimeBackSeconds != nil else { return fix }
        var coordinate = fix.coordinate
        if let jump = faults.pendingPersonJump, let moved = plane.unproject(plane.project(coordinate) + jump) {
            coordinate = moved
            faults.counts[.personJumpsSent] += 1
            logger.info("person fix jumped", metadata: ["east": "\(jump.east)", "north": "\(jump.north)"])
        }
        faults.pendingPersonJump = nil
        var fixTime = fix.fixTime
        if let back = faults.pendingPersonTimeBackSeconds, let time = fixTime {
            let shiftNanoseconds = Int64((back * 1e9).rounded())
            let total = time.seconds * 1_000_000_000 + Int64(time.nanoseconds) - shiftNanoseconds
            let seconds = total >= 0 ? total / 1_000_000_000 : (total - 999_999_999) / 1_000_000_000
            fixTime = FixTime(seconds: seconds, nanoseconds: Int32(total - seconds * 1_000_000_000))
            faults.counts[.personTimeShiftsSent] += 1
            logger.info("person fix time moved back", metadata: ["seconds": "\(back)"])
        }
        faults.pendingPersonTimeBackSeconds = nil
        return GPSFix(
            role: fix.role, device: fix.device, mode: fix.mode,
            latitudeDegrees: coordinate.latitudeDegrees, longitudeDegrees: coordinate.longitudeDegrees,
            fixTime: fixTime, receivedAt: fix.receivedAt, altitudeHAEMeters: fix.altitudeHAEMeters,
            trackDegrees: fix.trackDegrees, speedMetersPerSecond: fix.speedMetersPerSecond,
            climbMetersPerSecond: fix.climbMetersPerSecond, ephMeters: fix.ephMeters, epvMeters: fix.epvMeters,
            epsMetersPerSecond: fix.epsMetersPerSecond
        ) ?? fix
    }

    private func sendNavdata(now: MonotonicTime) {
        guard let navdataChannel, let navdataClient else { return }
        if simulator.flightPhase == .landed, landedAnnouncedAt == nil { landedAnnouncedAt = now }
        let packet = droneProtocol.nextNavdataPacket(state: simulator.droneState, demo: simulator.demoOption)
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

    // MARK: Fault injection

    /// Carries out one control command at `now` and returns the JSON reply.
    func control(_ command: SimulatorControlCommand, from source: SocketAddress, now: MonotonicTime) -> String {
        simulator.advance(to: now)
        logger.info("control command", metadata: ["command": "\(command)", "from": "\(source)"])
        switch command {
        case .status:
            return snapshot(now: now).controlStatusJSON
        case .silence(let stream, let on):
            faults.set(stream, silent: on)
        case .personJump(let meters, let bearingDegrees):
            faults.pendingPersonJump = PlaneVector.unit(bearingDegrees: bearingDegrees) * meters
        case .personTimeBack(let seconds):
            faults.pendingPersonTimeBackSeconds = seconds
        case .setBattery(let percent):
            simulator.setBatteryPercent(percent, at: now)
            sendMAVLink { $0.setBatteryPercent(percent, at: now) }
        case .injectNavdata(let kind, let count):
            if let refusal = injectNavdata(kind, count: count) {
                return Self.reply(ok: false, command: command.name, now: now, error: refusal)
            }
        case .headingGlitch(let degrees, let count):
            faults.headingGlitch = PendingHeadingChange(remaining: count, degrees: degrees)
        case .headingValue(let degrees, let count):
            faults.headingValue = PendingHeadingChange(remaining: count, degrees: degrees)
        case .headingOffset(let degrees):
            faults.headingOffsetDegrees = degrees
        case .land where mavlink != nil:
            guard landMAVLinkCopter(now: now) else {
                return Self.reply(ok: false, command: command.name, now: now, error: "the copter is not airborne")
            }
            faults.counts[.automaticLandings] += 1
        case .land:
            guard simulator.beginAutomaticLanding(at: now) else {
                return Self.reply(ok: false, command: command.name, now: now,
                                  error: "the drone is \(simulator.flightPhase.name), not airborne")
            }
            faults.counts[.automaticLandings] += 1
        case .pilotMode(let mode):
            guard mavlink != nil else {
                return Self.reply(ok: false, command: command.name, now: now,
                                  error: "no MAVLink Copter to fly (followme sim --protocol mavlink)")
            }
            var refusal: String?
            sendMAVLink { copter in
                let result = copter.pilotModeSwitch(to: mode, at: now)
                refusal = result.refusal
                return result.messages
            }
            if let refusal {
                return Self.reply(ok: false, command: command.name, now: now,
                                  error: "mode \(mavlink?.copter.modeName(of: mode) ?? MAVLinkCopter.name(of: mode)) refused: \(refusal)")
            }
        case .pilotTakeoff, .pilotLand:
            guard mavlink != nil else {
                return Self.reply(ok: false, command: command.name, now: now,
                                  error: "no MAVLink Copter to fly (followme sim --protocol mavlink)")
            }
            if let refusal = pilotMAVLinkCopter(command, now: now) {
                return Self.reply(ok: false, command: command.name, now: now, error: refusal)
            }
        case .navdataBootstrap(let forget, let restartSequence):
            droneProtocol.fallBackToBootstrap(restartingSequence: restartSequence)
            simulator.forgetConfiguration(forget, at: now)
            faults.counts[.bootstrapFallbacks] += 1
        }
        return Self.reply(ok: true, command: command.name, now: now, error: nil)
    }

    private static func reply(ok: Bool, command: String, now: MonotonicTime, error: String?) -> String {
        var j = JSONLine()
        j.add("ok", ok)
        j.add("command", command)
        j.add("t", now.seconds)
        j.add("error", error)
        return j.string
    }

    /// Sends `count` bad packets (see `InjectedNavdata`) to the navdata client from the navdata
    /// port; returns why not, if it cannot.
    private func injectNavdata(_ kind: InjectedNavdata, count: Int) -> String? {
        guard let navdataChannel, let navdataClient else { return "no navdata client registered yet" }
        // What a client must never believe from a bad packet: emergency, landed, empty battery.
        var claimedState = simulator.droneState
        claimedState.insert(.emergency)
        claimedState.remove(.flying)
        var claimedDemo = simulator.demoOption
        claimedDemo.controlStateWord = UInt32(ControlState.landed.rawValue) << 16 | UInt32(ControlMinorState.ok)
        claimedDemo.batteryPercent = 1
        let lastSent = droneProtocol.nextNavdataSequenceNumber &- 1
        let sequenceNumber: UInt32
        switch kind {
        case .corrupt:
            sequenceNumber = droneProtocol.nextNavdataSequenceNumber
        case .staleSequence:
            guard lastSent > 5 else { return "fewer than 6 navdata packets sent so far" }
            sequenceNumber = lastSent - 5
        }
        let state = SimulatedDroneProtocol.headerState(claimedState)
        let packet = droneProtocol.navdataMode == .bootstrap
            ? Navdata.bootstrap(state: state, sequenceNumber: sequenceNumber)
            : Navdata.demoPacket(state: state, sequenceNumber: sequenceNumber, demo: claimedDemo)
        var bytes: [UInt8] = []
        do {
            try packet.encode(into: &bytes)
        } catch {
            return "the packet did not encode: \(error)"
        }
        if kind == .corrupt {
            // The checksum is the packet's last 4 bytes (docs/ardrone-protocol.md §3.5); one flipped byte breaks it.
            bytes[bytes.count - 1] ^= 0x5A
        }
        for _ in 0..<count {
            var buffer = navdataChannel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            navdataChannel.writeAndFlush(AddressedEnvelope(remoteAddress: navdataClient, data: buffer), promise: nil)
            faults.counts[.navdataInjected] += 1
        }
        return nil
    }

    // MARK: Observation

    func snapshot(now: MonotonicTime) -> SimulatorSnapshot {
        simulator.advance(to: now)
        let snapshot = SimulatorSnapshot(
            time: simulator.time,
            uptimeSeconds: simulator.time.seconds(since: startedAt),
            flightPhase: simulator.flightPhase,
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
            personFixesSent: personFixesSent,
            landingReason: simulator.landingReason,
            secondsSinceLastCommand: lastATAt.map { now.seconds(since: $0) } ?? .infinity,
            maxCommandGapSeconds: maxCommandGapSeconds,
            faults: faults,
            configurationKeyCount: simulator.configuration.values.count,
            landedAnnouncedAt: landedAnnouncedAt,
            takeoffBitsAfterLandedAnnounced: takeoffBitsAfterLandedAnnounced,
            lastTakeoffBitAfterLandedAnnouncedAt: lastTakeoffBitAfterLandedAnnouncedAt
        )
        return withMAVLinkCopter(snapshot, now: now)
    }
}
