/// What a drone link says of the vehicle's camera, as a status shows it (`LinkEvent.camera`;
/// the MAVLink link's rules: docs/mavlink.md §7.15). The raw values are the status's `camera` field.
public enum CameraRecordingState: String, Sendable, Hashable, CaseIterable {
    /// There is no camera the link can start and stop (none configured, or one that cannot record video).
    case none
    /// A camera that records video answered; it is not recording for this flight yet.
    case ready
    /// The camera accepted the link's start.
    case recording
    /// The camera accepted the link's stop.
    case stopped
    /// The camera refused (or never answered) a start or a stop.
    case refused
}
