/// One AT command as the simulated drone receives it (already decoded; the wire format is
/// ARDroneProtocol's job). Semantics: docs/ardrone-protocol.md §2.3.
public enum SimulatorInput: Sendable, Hashable {
    /// `AT*REF`: `takeoff` is bit 9 (1 = take off / stay flying, 0 = land); `emergencyToggle` is
    /// bit 8. The emergency toggle acts on the *rising edge* of bit 8 (a client repeating REF every
    /// tick with bit 8 held toggles once, which is what node-ar-drone's recovery relies on).
    case ref(takeoff: Bool, emergencyToggle: Bool)
    /// `AT*PCMD`: `progressive` is flag bit 0 (false = hover on the spot, the four values are
    /// ignored). roll/pitch are fractions of `euler_angle_max` (negative pitch = nose down =
    /// forward, positive roll = right), gaz of `control_vz_max` (positive = up), yaw of
    /// `control_yaw` (positive = clockwise seen from above). Values are clamped to [−1, 1]; NaN
    /// counts as 0. Acts after the command latency.
    case pcmd(progressive: Bool, roll: Float, pitch: Float, gaz: Float, yaw: Float)
    /// `AT*CONFIG="key","value"` with the value string exactly as sent.
    case config(key: String, value: String)
    /// `AT*COMWDG`: resets the communication watchdog.
    case comwdg
    /// `AT*FTRIM`: flat trim; accepted only while landed (no effect on the model otherwise).
    case ftrim
    /// `AT*CTRL=…,5,0`: acknowledges a config write, clearing state bit 6.
    case ctrlAck

    /// A hover PCMD (flag 0).
    public static let hover = SimulatorInput.pcmd(progressive: false, roll: 0, pitch: 0, gaz: 0, yaw: 0)
}
