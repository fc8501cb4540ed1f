import FollowCore

extension FollowMeConfiguration {
    /// `[mavlink]`: the UDP link to a PX4 or ArduPilot autopilot, used when `drone.protocol` is "mavlink".
    ///
    /// FollowMe is the ground station: it sends from `localPort` to `address:port` and reads the
    /// vehicle's replies on the same socket (docs/mavlink.md §3 for the ids).
    public struct MAVLink: Sendable, Equatable {
        /// The autopilot's (or its MAVLink router's) IPv4 address or host name.
        public internal(set) var address: String = ""
        /// UDP port the autopilot listens on (PX4 SITL's offboard link listens on 14580).
        public internal(set) var port: Int = 0
        /// Local UDP port FollowMe binds; 0 = any free port.
        public internal(set) var localPort: Int = 0
        /// FollowMe's own MAVLink system id.
        public internal(set) var systemID: Int = 0
        /// FollowMe's own MAVLink component id.
        public internal(set) var componentID: Int = 0
        /// The vehicle's system id; 0 = the first vehicle whose HEARTBEAT arrives.
        public internal(set) var targetSystem: Int = 0
        /// Which autopilot flies the vehicle: its take-off sequence and mode numbers differ.
        public internal(set) var autopilot: Autopilot = .ardupilot
        /// Where the drone's own position and nose heading come from.
        public internal(set) var positionSource: PositionSource = .autopilot
        /// Point the camera at the person (MAV_CMD_DO_SET_ROI_LOCATION), clearing it on landing.
        public internal(set) var pointCamera = false

        /// Every key at its default (its `ConfigKeys` row).
        public static var defaults: MAVLink { FollowMeConfiguration.defaults.mavlink }
    }

    /// `[mavlink] autopilot`: the flight stack on the vehicle (docs/mavlink.md §5.3, §5.4).
    public enum Autopilot: String, Sendable, Equatable, CaseIterable {
        /// ArduPilot Copter: GUIDED mode, arm, NAV_TAKEOFF, velocity set-points; LAND mode.
        case ardupilot
        /// PX4: set-points streamed first, arm, NAV_TAKEOFF, then OFFBOARD; AUTO.LAND.
        case px4
    }

    /// `[mavlink] position_source`: what tells FollowMe where the drone is and where its nose points.
    public enum PositionSource: String, Sendable, Equatable, CaseIterable {
        /// The autopilot's own estimate (GLOBAL_POSITION_INT: position and heading). No onboard gpsd
        /// receiver is read, `[onboard]` is unused, and `mount_offset_deg` does not apply.
        case autopilot
        /// The `[onboard]` gpsd receiver, as with the AR.Drone (for a vehicle whose estimate you do
        /// not want to trust, or a receiver mounted for FollowMe).
        case receiver
    }

    /// True when `followme run` reads the `[onboard]` gpsd receiver: always for the AR.Drone, and for
    /// MAVLink only with `position_source = "receiver"`.
    public var readsOnboardReceiver: Bool {
        drone.linkProtocol == .ardrone || mavlink.positionSource == .receiver
    }

    /// The family's model of the vehicle, as the flight core's follower and stopping model count on it
    /// (`DroneFamily.vehicleModel`): the AR.Drone's tilt model; an autopilot braking at its default
    /// acceleration limit (ArduCopter `WPNAV_ACCEL`, PX4 `MPC_ACC_HOR`: docs/stopping-model.md §7) until
    /// it reports its own.
    public var vehicleModel: VehicleModelBuilder {
        let family = DroneFamilyRegistry.shipped.family(named: drone.linkProtocol.rawValue)
        let variant = drone.linkProtocol == .mavlink ? mavlink.autopilot.rawValue : nil
        guard let model = family?.vehicleModel(variant: variant) else {
            preconditionFailure("every [drone] protocol and [mavlink] autopilot the file accepts names a registered family")
        }
        return model
    }
}
