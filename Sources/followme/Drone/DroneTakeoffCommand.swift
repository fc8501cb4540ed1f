import ARDrone
import FlightService
import ArgumentParser
import Links
import Foundation

/// `followme drone takeoff`: take off, hover, then land, each step confirmed by navdata (the
/// AR.Drone) or by the autopilot's telemetry (`[drone] protocol = "mavlink"`: landed state IN_AIR,
/// then ON_GROUND; refused on EMERGENCY or a battery under `[failsafe] min_battery_pct`).
///
/// Modules: FollowMeConfig (the config, through `DroneConnectionOptions`), DroneLink (the link, through
/// `DroneSession`: REF take-off/land, flat trim, the latest navdata) and ServiceLifecycle (SIGTERM/
/// SIGINT, through `ShutdownSignals`: a signal ends the take-off or the hover and lands at once; the
/// landing itself is not interrupted). The link stays up throughout, so the drone is never left
/// without a controller.
struct DroneTakeoffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "takeoff",
        abstract: "Take off, hover, then land; each step confirmed by navdata.",
        discussion: """
            Refuses if navdata shows EMERGENCY or low battery. Waits up to --timeout seconds for
            the drone to report hovering/flying, hovers for --hover-seconds (Ctrl-C or SIGTERM
            lands at once), then lands and waits for LANDED. The link stays up the whole time so
            the drone is never left without a controller. Exit 0 only if both take-off and
            landing were confirmed.
            """
    )

    @OptionGroup var options: DroneWaitOptions<DroneTakeoffCommand>

    @Option(name: .customLong("hover-seconds"), help: "Seconds to hover before landing (0–300).")
    var hoverSeconds: Double = 5

    @Flag(name: .customLong("flat-trim"), help: "Send a flat trim (FTRIM) first; the drone must sit on level ground.")
    var flatTrim = false

    func validate() throws {
        guard (0...300).contains(hoverSeconds) else { throw ValidationError("--hover-seconds must be 0–300") }
    }

    func run() async throws {
        let timeout = options.timeout, hoverSeconds = hoverSeconds, flatTrim = flatTrim
        let connectTimeout = options.connection.connectTimeout
        let bench: MAVLinkBench
        switch try options.connection.target() {
        case .mavlink(let mavlink):
            bench = mavlink
        case .ardrone(let configuration):
            try await takeOffARDrone(configuration, connectTimeout: connectTimeout, flatTrim: flatTrim)
            return
        }
        guard !flatTrim else {
            printError("followme drone takeoff: --flat-trim is an AR.Drone command; an autopilot calibrates itself")
            throw ExitCode(2)
        }
        try await MAVLinkDroneSession.run(bench, connectTimeout: connectTimeout, shutdownSignals: true) { session, _ in
            // SYS_STATUS comes at its own (slower) rate: give the battery level the connect timeout too.
            _ = await session.waitUntil(timeoutSeconds: connectTimeout) { $0.snapshot.vehicle.batteryPercent != nil }
            if let refusal = session.takeoffRefusal {
                printError("followme drone takeoff: \(refusal)")
                throw ExitCode(1)
            }
            try await takeOffHoverLand(session, timeout: timeout, hoverSeconds: hoverSeconds)
        }
    }

    /// The AR.Drone: refuse on EMERGENCY or low battery, flat trim if asked, then `takeOffHoverLand`.
    private func takeOffARDrone(_ configuration: DroneLinkConfiguration, connectTimeout: Double, flatTrim: Bool) async throws {
        let timeout = options.timeout, hoverSeconds = hoverSeconds
        try await DroneSession.run(configuration, connectTimeout: connectTimeout, shutdownSignals: true) { session, first in
            if first.state.contains(.emergency) {
                printError("followme drone takeoff: the drone reports EMERGENCY (state bit 31); inspect it, then run `followme drone emergency-reset`")
                throw ExitCode(1)
            }
            if first.state.contains(.batteryLow) {
                printError("followme drone takeoff: the drone reports low battery (state bit 15); refusing to take off")
                throw ExitCode(1)
            }
            if flatTrim, session.isLanded {
                do {
                    try await session.link.requestFlatTrim()
                    printProgress("flat trim sent")
                    try? await Task.sleep(for: .milliseconds(500))
                } catch {
                    printError("followme drone takeoff: flat trim refused: \(error)")
                }
            }
            try await takeOffHoverLand(session, timeout: timeout, hoverSeconds: hoverSeconds)
        }
    }
}

/// Takes off (a signal ends the wait and lands), hovers `hoverSeconds` (a signal lands at once),
/// lands and waits for the landed state; exit 1 unless both the take-off and the landing were
/// confirmed within `timeout` seconds each. The link stays up throughout.
private func takeOffHoverLand(_ session: some BenchSession, timeout: Double, hoverSeconds: Double) async throws {
    let started = SystemClock.now()
    printProgress(session.isAirborne ? "already airborne" : "taking off…")
    session.requestFlying(true)
    let airborne = await session.waitUntil(timeoutSeconds: timeout, interruptible: true) { $0.isAirborne }
    if !airborne {
        printError(ShutdownSignals.requested
            ? "followme drone takeoff: interrupted; landing"
            : "followme drone takeoff: not confirmed within \(timeout) s (state \(session.stateDescription)); landing")
    } else {
        printProgress(String(format: "airborne after %.1f s", SystemClock.now().seconds(since: started)) + " (\(session.stateDescription))")
        if hoverSeconds > 0 {
            printProgress("hovering for \(hoverSeconds) s (Ctrl-C lands now)…")
            _ = await session.waitUntil(timeoutSeconds: hoverSeconds, interruptible: true) { _ in false }
        }
    }

    printProgress("landing…")
    let landed = await session.land(timeoutSeconds: timeout)
    if landed { printProgress("landed (\(session.stateDescription))") }
    else { printError("followme drone takeoff: landing not confirmed within \(timeout) s (state \(session.stateDescription))") }
    guard airborne, landed else { throw ExitCode(1) }
}

extension DroneTakeoffCommand: DroneWaitHelp {
    static let timeoutHelp = "Seconds to wait for the take-off (and later the landing) to be confirmed."
    static let defaultTimeoutSeconds = 15.0
}
