import ARDrone
import FollowCore

/// The drone-side half of the AR.Drone 2.0 UDP protocol, for the simulator: which AT commands
/// count, and what navdata packet goes out next. A value with no sockets and no clock, so every
/// rule here is tested without a network.
///
/// Rules (docs/ardrone-protocol.md):
/// - AT datagrams are decoded strictly (`ATDecoder`); a datagram that does not decode is counted
///   and ignored whole (§2.1: a bad command line "is rejected").
/// - A command whose sequence number is not greater than the last accepted one is ignored, except
///   sequence number 1, which resets the counter (§2.1: "seq 1 resets the counter").
/// - Navdata starts in bootstrap (state bit 11, no options) and leaves it on
///   `AT*CONFIG="general:navdata_demo",…` (§1.2): `"TRUE"` → demo packets (bit 10 + demo option);
///   `"FALSE"` → "full" packets, which here carry only the demo option (this simulator models no
///   other option) with bit 10 clear.
/// - Packet sequence numbers start at 1 and increase by one per packet sent (§1.3).
public struct SimulatedDroneProtocol: Sendable {
    /// What the navdata stream currently sends.
    public enum NavdataMode: String, Sendable, Hashable {
        /// Header and checksum only, state bit 11 set.
        case bootstrap
        /// Demo option, state bit 10 set.
        case demo
        /// `general:navdata_demo` FALSE: the demo option only (see the type doc), bit 10 clear.
        case full
    }

    /// What the protocol counts:
    /// - `atDatagrams`: AT datagrams received; `malformedDatagrams`: those `ATDecoder` rejected (ignored whole);
    /// - `acceptedCommands`: commands accepted and applied; `staleCommands`: ignored for a sequence
    ///   number not greater than the last accepted one;
    /// - `navdataPackets`: navdata packets built for sending;
    /// - `configWrites`: accepted `AT*CONFIG` commands (any key); `navdataDemoWrites`: accepted
    ///   `AT*CONFIG="general:navdata_demo",…` (the bootstrap's first step); `configAcknowledgements`:
    ///   accepted `AT*CTRL=…,5,0` (config ACK resets);
    /// - `takeoffBits`: accepted `AT*REF` commands with bit 9 (take off / stay flying) set;
    /// - `bootstrapFallbacks`: times navdata fell back to bootstrap (`fallBackToBootstrap`).
    public enum Counter: CaseIterable, Sendable, Hashable {
        case atDatagrams, malformedDatagrams, acceptedCommands, staleCommands, navdataPackets
        case configWrites, navdataDemoWrites, configAcknowledgements, takeoffBits, bootstrapFallbacks
    }

    /// What happened to AT traffic and navdata so far (`counters[.acceptedCommands]`).
    public typealias Counters = Counts<Counter>

    /// State bits the real firmware reports all the time: PIC version OK (23) and the AT codec,
    /// navdata, video and acquisition threads on (24–27) — set in the real bootstrap packet
    /// 0x4F800C10 (Tests/ARDroneProtocolTests/Fixtures/navdata_bootstrap_24byte_forum.bin) and the landed
    /// fixtures.
    public static let alwaysOnStateBits: DroneState = [
        .picVersionOK, .atCodecThreadOn, .navdataThreadOn, .videoThreadOn, .acquisitionThreadOn,
    ]

    /// The configuration key that ends bootstrap (docs/ardrone-protocol.md §1.2, `config_keys.h`).
    public static let navdataDemoKey = "general:navdata_demo"

    public private(set) var counters = Counters()
    public private(set) var navdataMode: NavdataMode = .bootstrap
    /// The last accepted AT sequence number; nil before the first command.
    public private(set) var lastAcceptedSequenceNumber: UInt32?
    /// Why the most recent malformed datagram was rejected.
    public private(set) var lastDecodingError: ATDecodingError?
    /// The sequence number the next navdata packet carries.
    public private(set) var nextNavdataSequenceNumber: UInt32 = 1

    public init() {}

    // MARK: AT commands

    /// Decodes one AT datagram and returns the commands the simulated drone must apply, in order
    /// (`DroneSimulator.apply(_:at:)`).
    public mutating func receiveATDatagram(_ datagram: [UInt8]) -> [ATCommand] {
        counters[.atDatagrams] += 1
        let commands: [SequencedATCommand]
        do {
            commands = try ATDecoder.decode(datagram)
        } catch {
            counters[.malformedDatagrams] += 1
            lastDecodingError = error
            return []
        }
        var accepted: [ATCommand] = []
        accepted.reserveCapacity(commands.count)
        for sequenced in commands {
            guard accepts(sequenceNumber: sequenced.sequenceNumber) else {
                counters[.staleCommands] += 1
                continue
            }
            lastAcceptedSequenceNumber = sequenced.sequenceNumber
            counters[.acceptedCommands] += 1
            observe(sequenced.command)
            accepted.append(sequenced.command)
        }
        return accepted
    }

    /// Whether a command with `sequenceNumber` would be applied now.
    public func accepts(sequenceNumber: UInt32) -> Bool {
        guard let last = lastAcceptedSequenceNumber else { return true }
        return sequenceNumber == 1 || sequenceNumber > last
    }

    private mutating func observe(_ command: ATCommand) {
        switch command {
        case .config(let key, _):
            counters[.configWrites] += 1
            if key == Self.navdataDemoKey { counters[.navdataDemoWrites] += 1 }
        case .ctrl(.acknowledgeCommand):
            counters[.configAcknowledgements] += 1
        case .ref(let input) where input.requestsFlight:
            counters[.takeoffBits] += 1
        default:
            break
        }
        guard case .config(let key, let value) = command, key == Self.navdataDemoKey else { return }
        switch value.uppercased() {
        case "TRUE": navdataMode = .demo
        case "FALSE": navdataMode = .full
        default: break // the drone would not understand it either; stay where we are
        }
    }

    // MARK: Navdata

    /// Navdata falls back to bootstrap, as when the drone's firmware restarts: header and
    /// checksum only with state bit 11, until the client writes `general:navdata_demo` again
    /// (docs/ardrone-protocol.md §1.2). `restartingSequence` also numbers packets from 1 again
    /// and forgets the last accepted AT sequence number (the next command is accepted whatever its
    /// number), as a rebooted drone does (docs/ardrone-protocol.md §1.3, `NAVDATA_SEQUENCE_DEFAULT`).
    public mutating func fallBackToBootstrap(restartingSequence: Bool) {
        navdataMode = .bootstrap
        counters[.bootstrapFallbacks] += 1
        if restartingSequence {
            nextNavdataSequenceNumber = 1
            lastAcceptedSequenceNumber = nil
        }
    }

    /// The header state word: the simulator's modelled bits (`DroneSimulator.droneState`) plus
    /// `alwaysOnStateBits`.
    public static func headerState(_ simulated: DroneState) -> DroneState {
        simulated.union(alwaysOnStateBits)
    }

    /// The next navdata packet for the simulator's current header state and demo option
    /// (`DroneSimulator.droneState`, `.demoOption`), numbered and counted.
    public mutating func nextNavdataPacket(state simulated: DroneState, demo: NavdataDemo) -> Navdata {
        let sequenceNumber = nextNavdataSequenceNumber
        nextNavdataSequenceNumber &+= 1
        counters[.navdataPackets] += 1
        let state = Self.headerState(simulated)
        switch navdataMode {
        case .bootstrap:
            return Navdata.bootstrap(state: state, sequenceNumber: sequenceNumber)
        case .demo:
            return Navdata.demoPacket(state: state, sequenceNumber: sequenceNumber, demo: demo)
        case .full:
            return Navdata {
                ($0.state, $0.sequenceNumber) = (state.subtracting([.navdataDemo, .navdataBootstrap]), sequenceNumber)
                $0.options = [.demo(demo)]
            }
        }
    }
}
