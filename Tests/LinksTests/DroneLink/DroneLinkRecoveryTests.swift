@testable import ARDrone
@testable import Links
import Foundation
import NIOCore
import NIOPosix
@testable import FollowCore
import Testing
import TestSupport

/// Recovery from a drone that falls back to bootstrap navdata (reboot) and from a link socket that
/// a real send error closed, over real UDP against `DronePeer`.
@Suite("DroneLink recovery (loopback UDP)", .timeLimit(.minutes(1)))
struct DroneLinkRecoveryTests {
    @Test("bootstrap fallback mid-session: the link redoes navdata_demo, CTRL 5 and every config write")
    func bootstrapFallbackRedone() async throws {
        // Given a drone in bootstrap mode and a link that completed its bootstrap and config writes
        let peer = try await DronePeer.start(droneState: DronePeer.landedState.union(.navdataBootstrap))
        let harness = try await LinkHarness.start(peer: peer)
        let writes = [ConfigurationWrite.navdataDemo] + LinkHarness.testLimits.configurationWrites
        let configured = await eventually { harness.recorder.completions.count == 1 }
        #expect(configured)
        #expect(harness.recorder.completions.first == [])
        let writesBefore = peer.snapshot.receivedConfigurations.count

        // When the drone reboots into bootstrap mode (bit 11, no demo option) and forgets its config
        peer.state.withLock { s in
            s.demoMode = false
            s.droneState.insert(.navdataBootstrap)
            s.droneState.remove(.navdataDemo)
            s.appliedConfigurations.removeAll()
        }

        // Then the link reports the fallback, writes navdata_demo and every limit again, and they are
        // all acknowledged (a second completion without failures)
        let redone = await eventually { harness.recorder.completions.count == 2 }
        let demoAgain = await eventually { harness.recorder.navdata.last?.navdata.demo != nil }
        await harness.shutdown()
        #expect(redone)
        #expect(demoAgain)
        #expect(harness.recorder.fallbacks == [.bootstrapBit])
        #expect(harness.recorder.completions.last == [])
        let snapshot = peer.snapshot
        let rewritten = snapshot.receivedConfigurations[writesBefore...].map { ConfigurationWrite(key: $0.key, value: $0.value) }
        #expect(rewritten == writes, "\(rewritten)")
        #expect(snapshot.appliedConfigurations.map(\.key) == writes.map(\.key))
        // and still one write at a time, each after bit 6 was cleared with CTRL 5
        #expect(snapshot.configurationsWhileAcknowledgeBitSet == 0)
        #expect(snapshot.checker.violations.isEmpty, "\(snapshot.checker.violations)")
    }

    @Test("a config write that fails for good after a bootstrap fallback is reported with the completion")
    func fallbackWriteFailureReported() async throws {
        // Given a link that completed its bootstrap against a drone in demo mode
        let peer = try await DronePeer.start(droneState: DronePeer.landedState.union(.navdataBootstrap))
        let harness = try await LinkHarness.start(peer: peer, configAcknowledgementTimeoutSeconds: 0.2,
                                                  configMaxAttempts: 2)
        #expect(await eventually { harness.recorder.completions.count == 1 })

        // When the drone falls back to bootstrap and then never acknowledges altitude_max
        peer.state.withLock { s in
            s.demoMode = false
            s.droneState.insert(.navdataBootstrap)
            s.droneState.remove(.navdataDemo)
            s.ignoredKeys = ["control:altitude_max"]
        }

        // Then the redo ends with a completion naming the failed key, after a configurationFailed
        let completed = await eventually { harness.recorder.completions.count == 2 }
        await harness.shutdown()
        #expect(completed)
        #expect(harness.recorder.completions.last == ["control:altitude_max"])
        #expect(harness.recorder.failed.map(\.write.key) == ["control:altitude_max"])
    }

    @Test("demo navdata never triggers a redo (no fallback while the drone stays in demo mode)")
    func noSpuriousRedo() async throws {
        // Given a drone that goes from bootstrap to demo mode normally
        let peer = try await DronePeer.start(droneState: DronePeer.landedState.union(.navdataBootstrap))
        let harness = try await LinkHarness.start(peer: peer)

        // When the link runs for two seconds after its bootstrap
        #expect(await eventually { harness.recorder.completions.count == 1 })
        try await Task.sleep(for: .seconds(2))
        await harness.shutdown()

        // Then the bootstrap was done exactly once
        #expect(harness.recorder.fallbacks.isEmpty)
        #expect(peer.snapshot.receivedConfigurations.filter { $0.key == "general:navdata_demo" }.count == 1)
    }

    @Test("a send error (ENETUNREACH) closes the AT socket: the link re-binds it on the same port and AT traffic resumes",
          .enabled(if: PrivateNetwork.isAvailable, "needs root and unshare(CLONE_NEWNET)"))
    func sendErrorClosesSocketAndLinkRebinds() async throws {
        // Given a private network namespace where the drone listens on 127.0.0.2 and the link runs
        let (network, peer, harness) = try await PrivateNetwork.connectedLink()
        let localATPort = try #require(peer.snapshot.datagrams.last?.sourcePort)

        // When the route to the drone disappears (sendmsg fails with ENETUNREACH, which SwiftNIO
        // treats as fatal for a datagram channel and closes it)
        try network.ip("rule", "add", "to", "127.0.0.2", "unreachable", "pref", "10")
        let closed = await eventually { harness.recorder.closedSockets.contains(.at) }
        #expect(closed, "events: \(harness.recorder.events.suffix(5))")
        try await Task.sleep(for: .milliseconds(1500))
        let cutAt = SystemClock.now()
        // and comes back
        try network.ip("rule", "del", "pref", "10")

        // Then the link re-binds the AT socket (the same local port) and the drone receives AT
        // datagrams again, REF and PCMD every tick
        let resumed = await eventually {
            peer.snapshot.datagrams.filter { $0.receivedAt > cutAt }.count >= 10
        }
        let reopened = harness.recorder.reopenedSockets
        let statistics = await harness.statistics()
        await harness.shutdown()
        await network.shutdown()
        #expect(resumed, "events: \(harness.recorder.events.suffix(8))")
        let at = try #require(reopened.last { $0.socket == .at })
        #expect(at.samePort)
        #expect(at.localPort == localATPort)
        #expect(peer.snapshot.datagrams.last?.sourcePort == localATPort)
        #expect(statistics.counts[.socketsClosed] >= 1)
        #expect(statistics.counts[.socketsReopened] == statistics.counts[.socketsClosed])
        // Backoff: while the route stayed down, re-binds did not spin (1.5 s at ≥ 50 ms doubling
        // to 1 s is at most ~7 closures)
        #expect(statistics.counts[.socketsClosed] <= 8, "\(statistics.counts[.socketsClosed]) closures in 1.5 s")
        // and navdata kept flowing the other way, so it was never lost
        #expect(statistics.counts[.navdataLosses] == 0)
    }
}

extension DroneLinkRecoveryTests {
    @Test("a failing navdata trigger (ENETUNREACH) closes the navdata socket: the link re-binds it, re-triggers and navdata is restored",
          .enabled(if: PrivateNetwork.isAvailable, "needs root and unshare(CLONE_NEWNET)"))
    func navdataSocketRebound() async throws {
        // Given a private network namespace with the drone on 127.0.0.2 and a connected link
        let (network, peer, harness) = try await PrivateNetwork.connectedLink()

        // When the drone goes quiet (it answers no trigger) and the route to it disappears, so the
        // link's re-sent trigger fails with ENETUNREACH
        peer.state.withLock { s in
            s.streaming = false
            s.respondToTriggers = false
        }
        try network.ip("rule", "add", "to", "127.0.0.2", "unreachable", "pref", "10")
        let closed = await eventually { harness.recorder.closedSockets.contains(.navdata) }
        #expect(closed, "events: \(harness.recorder.events.suffix(6))")
        // and the route and the drone come back
        let navdataBefore = harness.recorder.navdata.count
        try network.ip("rule", "del", "pref", "10")
        peer.state.withLock { $0.respondToTriggers = true }

        // Then the navdata socket is bound again, the trigger goes out and navdata flows again
        let restored = await eventually {
            harness.recorder.navdata.count > navdataBefore + 10
                && harness.recorder.events.contains { if case .navdataRestored = $0 { true } else { false } }
        }
        let reopened = harness.recorder.reopenedSockets
        await harness.shutdown()
        await network.shutdown()
        #expect(restored, "events: \(harness.recorder.events.suffix(8))")
        #expect(reopened.contains { $0.socket == .navdata })
        // and the drone still streams to the port it learnt from the last trigger (the same one, if re-bound on it)
        let last = try #require(reopened.last { $0.socket == .navdata })
        #expect(peer.snapshot.linkNavdataAddress?.port == last.localPort)
    }
}

extension EventRecorder where Event == DroneLinkEvent {
    /// The `failedKeys` of every `.configurationComplete`, in order.
    var completions: [[String]] {
        events.compactMap { if case .configurationComplete(let keys, _) = $0 { keys } else { nil } }
    }

    var fallbacks: [BootstrapFallbackReason] {
        events.compactMap { if case .bootstrapFallback(let reason, _) = $0 { reason } else { nil } }
    }

    var closedSockets: [DroneLinkSocket] {
        events.compactMap { if case .socketClosed(let socket, _, _) = $0 { socket } else { nil } }
    }

    var reopenedSockets: [(socket: DroneLinkSocket, localPort: Int, samePort: Bool)] {
        events.compactMap {
            if case .socketReopened(let socket, let port, let same, _, _, _) = $0 { (socket, port, same) } else { nil }
        }
    }
}

/// A one-thread event loop whose thread lives in its own network namespace (loopback up, the
/// local-table rule moved to priority 100 so a test rule can come before it). Sockets created on
/// that thread belong to the namespace, so routes can be broken without touching the host.
final class PrivateNetwork: Sendable {
    let group: MultiThreadedEventLoopGroup
    let loop: any EventLoop
    private let namespacePath: String

    static var isAvailable: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter")
            && FileManager.default.isExecutableFile(atPath: ipPath)
    }

    static let ipPath = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    } ?? "/usr/sbin/ip"

    /// A private namespace with the drone listening on 127.0.0.2 and a link to it whose start-up
    /// configuration writes completed.
    static func connectedLink() async throws -> (PrivateNetwork, DronePeer, LinkHarness) {
        let network = try await PrivateNetwork.make()
        let peer = try await DronePeer.start(demoMode: true, host: "127.0.0.2", loop: network.loop)
        let harness = try await LinkHarness.start(peer: peer, address: "127.0.0.2", eventLoopGroup: network.group)
        #expect(await eventually { harness.recorder.completions.count == 1 })
        return (network, peer, harness)
    }

    static func make() async throws -> PrivateNetwork {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        // unshare(CLONE_NEWNET) moves only the calling thread (Linux namespaces are per task).
        let tid = try await loop.submit { () throws -> Int32 in
            // Glibc's Swift module hides both (_GNU_SOURCE); look them up in libc.
            typealias Unshare = @convention(c) (Int32) -> Int32
            typealias GetTID = @convention(c) () -> Int32
            guard let unshareSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unshare"),
                  let gettidSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gettid")
            else { throw POSIXError(.ENOSYS) }
            let unshare = unsafeBitCast(unshareSymbol, to: Unshare.self)
            let gettid = unsafeBitCast(gettidSymbol, to: GetTID.self)
            let cloneNewNet: Int32 = 0x4000_0000   // CLONE_NEWNET, <linux/sched.h>
            guard unshare(cloneNewNet) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
            return gettid()
        }.get()
        let network = PrivateNetwork(group: group, loop: loop, namespacePath: "/proc/\(getpid())/task/\(tid)/ns/net")
        try network.ip("link", "set", "lo", "up")
        try network.ip("rule", "add", "pref", "100", "lookup", "local")
        try network.ip("rule", "del", "pref", "0", "lookup", "local")
        return network
    }

    private init(group: MultiThreadedEventLoopGroup, loop: any EventLoop, namespacePath: String) {
        self.group = group
        self.loop = loop
        self.namespacePath = namespacePath
    }

    /// Runs `ip ARGS…` inside the namespace.
    func ip(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
        process.arguments = ["--net=\(namespacePath)", Self.ipPath] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw POSIXError(.EINVAL, userInfo: [NSLocalizedDescriptionKey: "ip \(arguments) failed"])
        }
    }

    func shutdown() async {
        try? await group.shutdownGracefully()
    }
}
