/// SYS_STATUS (1): sensor health bitmasks and the battery.
public struct SysStatus: MAVLinkMessage {
    /// `MAV_SYS_STATUS_SENSOR` bitmasks.
    public var sensors: SensorBitmasks = SensorBitmasks()
    /// Main loop load, 0–1000 (d%).
    public var loadPermille: UInt16 = 0
    /// Battery voltage (mV); UINT16_MAX = unknown.
    public var batteryVoltageMillivolts: UInt16 = 0
    /// Battery current (cA, 10 mA); -1 = unknown.
    public var batteryCurrentCentiamperes: Int16 = 0
    /// Dropped packets on all links (c%, 0–10000).
    public var dropRateCommCentipercent: UInt16 = 0
    public var errorsComm: UInt16 = 0
    /// Autopilot-specific error counters 1–4.
    public var errorsCount: [UInt16] = [0, 0, 0, 0]
    /// Remaining battery (%); -1 = unknown.
    public var batteryRemainingPercent: Int8 = 0
    /// Extension: the `MAV_SYS_STATUS_SENSOR_EXTENDED` bitmasks.
    public var sensorsExtended: SensorBitmasks = SensorBitmasks()

    public init() {}
    public static let layout = MAVLinkLayout<Self>(id: 1, crcExtra: 124, name: "SYS_STATUS")
    public static var fields: [MAVLinkField<Self>] {
        sensorFields(\.sensors, suffix: "") + [.scalar("load", \.loadPermille),
         .scalar("voltage_battery", \.batteryVoltageMillivolts), .scalar("current_battery", \.batteryCurrentCentiamperes),
         .scalar("drop_rate_comm", \.dropRateCommCentipercent), .scalar("errors_comm", \.errorsComm)]
            + (1...4).map { MAVLinkField.element("errors_count\($0)", \.errorsCount, index: $0 - 1) }
            + [.scalar("battery_remaining", \.batteryRemainingPercent)]
    }
    public static var extensionFields: [MAVLinkField<Self>] {
        sensorFields(\.sensorsExtended, suffix: "_extended")
    }

    /// `onboard_control_sensors_{present,enabled,health}` + `suffix`.
    private static func sensorFields(_ masks: WritableKeyPath<Self, SensorBitmasks>, suffix: String) -> [MAVLinkField<Self>] {
        [.scalar("onboard_control_sensors_present" + suffix, masks.appending(path: \.present)),
         .scalar("onboard_control_sensors_enabled" + suffix, masks.appending(path: \.enabled)),
         .scalar("onboard_control_sensors_health" + suffix, masks.appending(path: \.health))]
    }
}
