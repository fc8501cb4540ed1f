import FollowCore

/// Something the link observed, delivered in order on `DroneLink.events`.
public enum DroneLinkEvent: Sendable {
    /// A navdata packet passed every check (source, decoding, sequence).
    case navdata(ReceivedNavdata)
    /// The first navdata arrived. AT commands start only now: if the drone was already flying,
    /// the link keeps REF bit 9 set (`desiredFlying` true) instead of landing it (docs/ardrone-protocol.md §7.3).
    case connected(droneWasFlying: Bool, desiredFlying: Bool, at: MonotonicTime)
    /// No accepted navdata for `DroneLinkConfiguration.navdataSilenceSeconds`; the trigger is being
    /// re-sent and PCMD was reset to hover.
    case telemetryLost(lastReceivedAt: MonotonicTime, at: MonotonicTime)
    /// Navdata flows again after `.telemetryLost`; `silenceSeconds` is how long it was missing.
    case navdataRestored(silenceSeconds: Double, at: MonotonicTime)
    /// The drone acknowledged an `AT*CONFIG` (state bit 6) after `attempts` sends.
    case configurationAcknowledged(ConfigurationWrite, attempts: Int, at: MonotonicTime)
    /// The link gave up on an `AT*CONFIG`. Flight limits may not be what the config says.
    case configurationFailed(ConfigurationWrite, reason: ConfigurationFailure, at: MonotonicTime)
    /// The link cleared `desiredFlying` on its own (REF bit 9 now 0).
    case desiredFlyingCleared(reason: DesiredFlyingClearedReason, at: MonotonicTime)
    /// A periodic snapshot of the counters (every `statisticsIntervalSeconds`).
    case statistics(DroneLinkStatistics)
    /// A link socket closed under the link: SwiftNIO closes a UDP channel on any send error other
    /// than EMSGSIZE/EHOSTUNREACH (e.g. ENETUNREACH, ENOBUFS when Wi-Fi drops; swift-nio 2.x
    /// `NIOPosix/PendingDatagramWritesManager.swift`, `handleError`) and on read errors other than
    /// ECONNREFUSED/ENOMEM (`NIOPosix/SocketChannel.swift`, `shouldCloseOnErrnoCode`). The link re-binds it with backoff (`.socketReopened`); meanwhile no AT command goes out
    /// (the drone's 2 s com watchdog makes it hover, docs/ardrone-protocol.md §2.2) and navdata may stop (`.telemetryLost`).
    /// `error`: the error that closed it, when the link saw one.
    case socketClosed(DroneLinkSocket, error: String?, at: MonotonicTime)
    /// The socket is bound again after `attempts` binds; `samePort`: on its previous local port.
    /// For the navdata socket the trigger was re-sent at once.
    case socketReopened(DroneLinkSocket, localPort: Int, samePort: Bool, attempts: Int, downSeconds: Double,
                        at: MonotonicTime)
    /// After the bootstrap completed, navdata showed bootstrap mode again (state bit 11) or lost its
    /// demo option: the drone rebooted or fell back. The link redoes the bootstrap and every start-up
    /// config write; `.configurationComplete` follows when they are done.
    case bootstrapFallback(BootstrapFallbackReason, at: MonotonicTime)
    /// Every queued config write was handled (at start, after a bootstrap redo, after an owner's
    /// `writeConfiguration`). `failedKeys` empty: all acknowledged; otherwise the keys given up
    /// (each also reported by `.configurationFailed`): flight limits are not what the config says.
    case configurationComplete(failedKeys: [String], at: MonotonicTime)
}

/// One of the link's two UDP sockets.
public enum DroneLinkSocket: String, Sendable, Hashable {
    /// Sends AT commands to the drone's port 5556.
    case at
    /// Sends the trigger to, and receives navdata from, the drone's port 5554.
    case navdata
}

/// Why the link redoes the bootstrap.
public enum BootstrapFallbackReason: String, Sendable, Hashable {
    /// State bit 11 (NAVDATA_BOOTSTRAP) set again (docs/ardrone-protocol.md §1.2).
    case bootstrapBit = "bootstrap-bit"
    /// The demo option is missing although navdata_demo was acknowledged.
    case demoOptionMissing = "demo-option-missing"
}

/// A decoded navdata packet (header and demo option: `NavdataSummary`, decoded without
/// allocating) with when and where it came from.
public struct ReceivedNavdata: Sendable {
    public let navdata: NavdataSummary
    /// CLOCK_MONOTONIC when the datagram was read.
    public let receivedAt: MonotonicTime

    public init(navdata: NavdataSummary, receivedAt: MonotonicTime) {
        self.navdata = navdata
        self.receivedAt = receivedAt
    }
}

/// Why an `AT*CONFIG` was given up.
public enum ConfigurationFailure: Sendable, Equatable, CustomStringConvertible {
    /// Sent `attempts` times without state bit 6 being raised.
    case notAcknowledged(attempts: Int)
    /// State bit 6 stayed set (a previous ACK never cleared despite `AT*CTRL=…,5,0`), so an ACK for
    /// this write could not be told apart; waited `seconds`.
    case acknowledgementBitStuck(seconds: Double)

    public var description: String {
        switch self {
        case .notAcknowledged(let attempts): "not acknowledged after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        case .acknowledgementBitStuck(let seconds): "ACK bit 6 stuck set for \(seconds) s"
        }
    }
}

/// Why the link cleared the desired REF bit 9.
public enum DesiredFlyingClearedReason: Sendable, Equatable {
    /// Navdata reports EMERGENCY (bit 31): motors are cut; a later emergency reset must not take off.
    case emergency
    /// An emergency cutoff was requested.
    case emergencyCutoffRequested
}

/// Why a navdata datagram was dropped.
public enum NavdataDropReason: Sendable, Hashable {
    /// Not from the drone's address and navdata port.
    case unexpectedSource
    /// The decoder rejected it.
    case malformed(NavdataDecodingError.Kind)
    /// Its sequence number was not above the last accepted one (and not a restart).
    case sequenceNotIncreasing
}

/// Why the link refused a request.
public enum DroneLinkRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// `start()` has not completed, or `stop()` was called.
    case notRunning
    /// No navdata has been accepted yet, so the drone's state is unknown.
    case noNavdataYet
    /// Flat trim needs a landed drone (docs/ardrone-protocol.md §2.3 `AT*FTRIM`); navdata says otherwise.
    case notLanded(state: DroneState, controlState: ControlState?)
    /// An emergency reset was requested but navdata does not show EMERGENCY (bit 31): bit 8 toggles,
    /// so sending it now would cut the motors instead (docs/ardrone-protocol.md §2.3).
    case notInEmergency(state: DroneState)
    /// A cutoff was requested but the drone already reports EMERGENCY.
    case alreadyInEmergency
    /// A configuration string the AT encoder cannot send.
    case unencodableConfiguration(ConfigurationWrite)

    public var description: String {
        switch self {
        case .notRunning: "the drone link is not running"
        case .noNavdataYet: "no navdata received yet; the drone's state is unknown"
        case .notLanded(let state, let control):
            "the drone is not landed (state bits: \(state.setBitNames.joined(separator: ", ")); control state \(control.map { "\($0)" } ?? "unknown"))"
        case .notInEmergency(let state):
            "the drone is not in emergency (bit 31 clear; state bits: \(state.setBitNames.joined(separator: ", "))); an emergency toggle now would cut the motors"
        case .alreadyInEmergency: "the drone already reports emergency"
        case .unencodableConfiguration(let write): "cannot send configuration \(write): only printable ASCII without '\"'"
        }
    }
}

/// Why `DroneLink.start()` failed.
public enum DroneLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `start()` was already called on this link (a link runs once).
    case alreadyStarted
    /// The drone address could not be resolved.
    case addressResolution(address: String, port: Int, reason: String)
    /// A local UDP socket could not be bound.
    case bind(socket: String, reason: String)

    public var description: String {
        switch self {
        case .alreadyStarted: "the drone link was already started"
        case .addressResolution(let address, let port, let reason): "cannot resolve \(address):\(port): \(reason)"
        case .bind(let socket, let reason): "cannot open the \(socket) UDP socket: \(reason)"
        }
    }
}
