/// What the drone should be doing at the top level; each family's link says it in its own protocol.
public enum FlightIntent: Sendable, Hashable {
    /// Stay on the ground.
    case stayLanded
    /// Take off, hovering.
    case takeOff
    /// Keep flying `DroneCommand.motion` (nil: hover).
    case fly
    /// Land, hovering meanwhile.
    case land
    /// The drone reports an emergency: ask it to stay down; never clear the emergency automatically.
    case emergency
    /// Someone else flies the vehicle (`FlightState.released`): command nothing at all.
    case release

    /// Whether the drone should be (or get) airborne.
    @inlinable public var wantsAirborne: Bool {
        switch self {
        case .takeOff, .fly: return true
        case .stayLanded, .land, .emergency, .release: return false
        }
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

/// One tick of the controller's output: the motion (with its `MotionContext` when the vehicle model needs one).
public struct ControlOutput: Sendable, Hashable {
    public var motion: MotionCommand

    @inlinable public init(motion: MotionCommand) {
        self.motion = motion
    }

    /// Every value finite.
    @inlinable public var isValid: Bool { motion.isValid }
}
