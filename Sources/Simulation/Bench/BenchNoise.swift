/// The GPS error model of a bench run, by name.
///
/// Both models share the realistic model's timing (5 Hz fixes, 0.3 s gpsd latency,
/// docs/dynamics-and-follow.md §3.2–3.3), so "clean" isolates controller quality (§4.2
/// "perfect GPS … 0.3 s") and "realistic" adds the receivers' errors (system quality). Runs with
/// the same seed see the same error realisation whichever controller flies.
public enum BenchNoise: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Perfect positions, velocities and headings; 5 Hz, 0.3 s latency.
    case clean
    /// `GPSErrorModel.realistic`: σ_b 2 m (τ 300 s, ρ 0.5 shared), σ_w 0.3 m, 5 Hz, 0.3 s latency,
    /// 0.05 m/s velocity noise, 2° heading noise.
    case realistic

    public var description: String { rawValue }

    /// The error model, with the onboard heading reported as nose − `mountOffsetDegrees`.
    public func model(mountOffsetDegrees: Double) -> GPSErrorModel {
        var model: GPSErrorModel
        switch self {
        case .clean:
            let timing = GPSReceiverModel.realistic
            model = .perfect(fixRateHertz: timing.fixRateHertz, latencySeconds: timing.latencySeconds)
        case .realistic:
            model = .realistic
        }
        model.onboard.mountOffsetDegrees = mountOffsetDegrees
        return model
    }
}
