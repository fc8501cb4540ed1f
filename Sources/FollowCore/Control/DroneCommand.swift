/// What the drone should be doing at the top level: the `AT*REF` take-off/land bit and whether
/// `AT*PCMD` is relevant at all (docs/ardrone-protocol.md §2.3).
public enum FlightIntent: Sendable, Hashable {
    /// Stay on the ground: REF with bit 9 clear, no PCMD.
    case stayLanded
    /// Take off: REF with bit 9 set; PCMD hover.
    case takeOff
    /// Keep flying: REF with bit 9 set, plus the PCMD the AR.Drone link makes of `DroneCommand.motion`.
    case fly
    /// Land: REF with bit 9 clear; PCMD hover.
    case land
    /// The drone reports an emergency: REF bit 9 clear; never toggle the emergency bit automatically.
    case emergency
    /// Someone else flies the vehicle (`FlightState.released`): command nothing at all. Never for the AR.Drone.
    case release

    /// Whether REF bit 9 (take off / stay flying) should be set.
    @inlinable public var wantsAirborne: Bool {
        switch self {
        case .takeOff, .fly: return true
        case .stayLanded, .land, .emergency, .release: return false
        }
    }
}

/// One progressive `AT*PCMD`, each value a fraction in [−1, 1] of the configured maximum
/// (docs/ardrone-protocol.md §2.3). Made by the AR.Drone link's `TiltLoop`, never by the core; here
/// because a link reports what it sent (`CommandedTilt.pilot`).
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

/// The command for one control tick: the intent and the motion, which each drone family translates.
public struct DroneCommand: Sendable, Hashable {
    public var intent: FlightIntent
    /// The motion (`MotionCommand`); nil = hover in the vehicle's own position hold.
    public var motion: MotionCommand?

    @inlinable public init(intent: FlightIntent, motion: MotionCommand? = nil) {
        self.intent = intent
        self.motion = motion
    }

    @inlinable init(intent: FlightIntent, _ output: ControlOutput?) {
        self.init(intent: intent, motion: output?.motion)
    }
}

/// One tick of the controller's output: the motion (with, for the AR.Drone, its `MotionContext`).
public struct ControlOutput: Sendable, Hashable {
    public var motion: MotionCommand

    @inlinable public init(motion: MotionCommand) {
        self.motion = motion
    }

    /// Every value finite.
    @inlinable public var isValid: Bool { motion.isValid }
}
