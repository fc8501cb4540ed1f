import ARDrone
import FollowCore
import NIOCore

/// The owner's latest `setDesired` (`generation` counts the calls).
struct PendingDesired: Sendable {
    var generation: UInt64 = 0
    var flying = false
    var pilot = ProgressiveCommand.hover
    var heading: ControllerHeading?
}

/// The running link's mutable state; only touched on the link's event loop.
final class LinkRuntime {
    var core: ARDroneSession
    /// Replaced when a closed socket is re-bound.
    var atChannel: any Channel
    var navdataChannel: any Channel
    /// Recovery state of each socket.
    var at = SocketRecovery()
    var navdata = SocketRecovery()
    let atAddress: SocketAddress
    let navdataAddress: SocketAddress
    /// The periodic tick (`DroneLink.tick`).
    let ticks: FixedRateTimer
    /// Reused for every AT datagram.
    var atBuffer: ByteBuffer
    /// The 4 trigger bytes, written once (sending it never mutates it).
    let triggerBuffer: ByteBuffer
    /// Reused encoder output.
    var datagram: [UInt8]
    var effects = DroneLinkEffects()
    /// Fix-to-datagram latency samples (fixed size: recording never allocates).
    var fixLatency = LatencyHistogram()
    /// `PendingDesired.generation` last applied to `core`.
    var appliedDesiredGeneration: UInt64 = 0
    /// "No navdata yet" and what to check, logged while the drone stays silent after start.
    var silenceReminder: WaitingReminder

    /// One socket's closing and re-binding.
    struct SocketRecovery {
        /// Set while the socket is closed and being re-bound.
        var reopen: Reopen?
        /// The last error seen on it (reported with `.socketClosed`).
        var lastError: String?
        var nextReopenDelay = DroneLink.reopenInitialDelay

        /// A datagram went through: the next closure starts the backoff over.
        mutating func worked() {
            if nextReopenDelay != DroneLink.reopenInitialDelay { nextReopenDelay = DroneLink.reopenInitialDelay }
        }
    }

    subscript(socket: DroneLinkSocket) -> SocketRecovery {
        get { socket == .at ? at : navdata }
        set { if socket == .at { at = newValue } else { navdata = newValue } }
    }

    /// A closed socket waiting to be bound again.
    struct Reopen {
        let previousPort: Int
        let closedAt: MonotonicTime
        var attempts = 0
        var scheduled: Scheduled<Void>?
    }

    func channel(_ socket: DroneLinkSocket) -> any Channel {
        switch socket {
        case .at: atChannel
        case .navdata: navdataChannel
        }
    }

    init(core: ARDroneSession, atChannel: any Channel, navdataChannel: any Channel,
         atAddress: SocketAddress, navdataAddress: SocketAddress, allocator: ByteBufferAllocator,
         tickIntervalSeconds: Double) {
        self.core = core
        self.atChannel = atChannel
        self.navdataChannel = navdataChannel
        self.atAddress = atAddress
        self.navdataAddress = navdataAddress
        ticks = FixedRateTimer(intervalSeconds: tickIntervalSeconds)
        silenceReminder = .firstPacket(silenceSeconds: core.configuration.navdataSilenceSeconds)
        atBuffer = allocator.buffer(capacity: ATEncoder.maximumDatagramByteCount)
        triggerBuffer = allocator.buffer(bytes: DroneLink.navdataTriggerBytes)
        datagram = []
        datagram.reserveCapacity(ATEncoder.maximumDatagramByteCount)
        effects.events.reserveCapacity(8)
    }
}
