import FollowCore
import MAVLink

/// One 30 Hz tick of the MAVLink link's output, from the core's motion to wire bytes, as
/// `MAVLinkSession.sendSetpoint` and `MAVLinkLink.perform` do it: the motion limited into a LOCAL_NED
/// velocity set-point (`VelocitySetpointLimits`), the SET_POSITION_TARGET_LOCAL_NED built from it,
/// then it and a HEARTBEAT (the session's ground-station heartbeat; really 1 Hz, here every tick: the
/// worst tick) encoded with the next sequence numbers into one reused datagram buffer.
///
/// The motion changes every tick (a slow sweep), so no value is a compile-time constant.
/// Not `Sendable`: one benchmark thread owns it.
final class MAVLinkTickHarness {
    private var sender = MAVLinkSender(systemID: 255, componentID: 190)
    private let limits = VelocitySetpointLimits(follow: .defaults)
    private let target = MAVLinkTarget(system: 1, component: 1)
    /// Reused for every datagram, as the link's buffer is.
    private var datagram: [UInt8] = []
    private var tick = 0
    /// The link's HEARTBEAT: type GCS, autopilot INVALID, state ACTIVE, MAVLink 2 (`MAVLinkSession`).
    private let heartbeat = MAVLinkOutgoing.heartbeat(Heartbeat {
        ($0.type, $0.autopilot, $0.systemStatus, $0.mavlinkVersion) = (.init(.gcs), .init(.invalid), .init(.active), 3)
    })

    init() {
        datagram.reserveCapacity(MAVLinkFrame.maximumLength)
    }

    /// One tick; returns the bytes encoded (to keep the work observable).
    func measuredTick() -> Int {
        tick += 1
        let phase = Double(tick % 600) / 300 - 1   // −1 … 1
        let motion = MotionCommand(velocity: PlaneVector(east: 2.5 * phase, north: -4 * phase),
                                   climbMetersPerSecond: 0.1 * phase, yawRateDegreesPerSecond: 30 * phase)
        let setpoint = limits.setpoint(for: motion)
        let message = SetPositionTargetLocalNED(setpoint, target: target,
                                                timeBootMilliseconds: UInt32(truncatingIfNeeded: tick &* 33))
        var total = encode(.setpoint(message))
        total += encode(heartbeat)
        return total
    }

    /// The wire bytes of `outgoing` in `datagram`; their count plus the last (checksum) byte.
    private func encode(_ outgoing: MAVLinkOutgoing) -> Int {
        sender.encode(outgoing, into: &datagram)
        return datagram.count + Int(datagram[datagram.count - 1])
    }
}
