@testable import ARDrone
@testable import FollowCore
@testable import Simulation

/// A client that keeps the link alive like the appliance: REF + one command every 30 ms.
extension DroneSimulator {
    /// Sends REF (bit 9 = `takeoff`) and `input` every `periodSeconds` for `seconds`, starting one
    /// period after the current time, then advances to the end.
    mutating func pilot(
        _ input: ATCommand?, seconds: Double, takeoff: Bool = true, emergencyBit: Bool = false,
        periodSeconds: Double = 0.03
    ) {
        let end = time.adding(seconds: seconds)
        var t = time.adding(seconds: periodSeconds)
        while t <= end {
            apply(.ref(REFInput(flying: takeoff, emergencyToggle: emergencyBit)), at: t)
            if let input { apply(input, at: t) }
            t = t.adding(seconds: periodSeconds)
        }
        advance(to: end)
    }

    /// Asks for a fresh take-off the way a client must after a forced landing: a land REF (bit 9
    /// clear) for 0.1 s, then take-off REFs for `holdSeconds`.
    mutating func retryTakeoff(holdSeconds: Double) {
        pilot(nil, seconds: 0.1, takeoff: false)
        pilot(nil, seconds: holdSeconds)
    }

    /// Advances `seconds` without sending anything.
    mutating func wait(seconds: Double) {
        advance(to: time.adding(seconds: seconds))
    }

    /// A drone that took off normally and is hovering at about 1 m.
    static func hoveringAfterTakeoff(dynamics: DroneDynamics = .standard, noseHeadingDegrees: Double = 0) -> DroneSimulator {
        var sim = DroneSimulator(dynamics: dynamics, noseHeadingDegrees: noseHeadingDegrees)
        sim.pilot(nil, seconds: 6)
        return sim
    }
}

/// Forward PCMD at `fraction` of euler_angle_max (SDK: negative pitch = forward).
func forward(_ fraction: Float = 1) -> ATCommand {
    .pcmd(ProgressiveCommand(pitchFraction: -fraction))
}

/// Mean and population standard deviation.
func meanAndStd(_ xs: [Double]) -> (mean: Double, std: Double) {
    let mean = xs.reduce(0, +) / Double(xs.count)
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    return (mean, variance.squareRoot())
}

/// Steady speed of the tum model at tilt θ: c2·sin θ (docs/dynamics-and-follow.md §1.2).
func steadySpeed(tiltRadians: Double, dynamics: DroneDynamics = .standard) -> Double {
    dynamics.speedPerSinTiltMetersPerSecond * _sin(tiltRadians)
}
