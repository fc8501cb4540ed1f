import FollowCore

/// One progressive `AT*PCMD`, each value a fraction in [−1, 1] of the configured maximum
/// (docs/ardrone-protocol.md §2.3). Made by `TiltLoop`; travels to the link as the `VehicleSetpoint`
/// `TiltVehicleModel` makes.
public struct PilotCommand: Sendable, Hashable {
    /// Bank, fraction of `euler_angle_max`; positive = bank right (move right).
    public var roll: Double
    /// Pitch, fraction of `euler_angle_max`; **negative = nose down = move forward**.
    public var pitch: Double
    /// Vertical speed, fraction of `control_vz_max`; positive = up.
    public var gaz: Double
    /// Yaw rate, fraction of `control_yaw`; positive = clockwise seen from above.
    public var yaw: Double

    @inlinable public init(roll: Double, pitch: Double, gaz: Double, yaw: Double) {
        self.roll = roll
        self.pitch = pitch
        self.gaz = gaz
        self.yaw = yaw
    }

    public static let zero = PilotCommand(roll: 0, pitch: 0, gaz: 0, yaw: 0)

    /// Whether every value is finite and inside [−1, 1].
    @inlinable public var isValid: Bool {
        roll.isFinite && pitch.isFinite && gaz.isFinite && yaw.isFinite
            && abs(roll) <= 1 && abs(pitch) <= 1 && abs(gaz) <= 1 && abs(yaw) <= 1
    }
}

extension VehicleSetpoint {
    /// The AR.Drone's set-point: the PCMD's roll, pitch, gaz and yaw, in that order.
    @inlinable public init(pilot: PilotCommand) {
        self.init(SIMD4(pilot.roll, pilot.pitch, pilot.gaz, pilot.yaw))
    }

    /// The PCMD this set-point carries (one `TiltVehicleModel` made).
    @inlinable public var pilot: PilotCommand {
        PilotCommand(roll: values[0], pitch: values[1], gaz: values[2], yaw: values[3])
    }
}
