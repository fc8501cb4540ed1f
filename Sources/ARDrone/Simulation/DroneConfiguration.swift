/// The simulated drone's on-board configuration, as changed by `AT*CONFIG` writes.
///
/// Every key written is stored verbatim in `values` (unknown keys are accepted, like the drone
/// keeps keys it has no use for). The keys the flight model uses are also parsed into typed,
/// unit-named properties. Defaults and the indoor/outdoor split are from ARDroneLib
/// `Soft/Common/config_keys.h` (docs/ardrone-protocol.md §4, docs/dynamics-and-follow.md §1.1).
public struct DroneConfiguration: Sendable, Hashable {
    /// One flight-limit set. The drone keeps an indoor and an outdoor set and uses the one that
    /// `control:outdoor` selects.
    public struct LimitSet: Sendable, Hashable {
        /// Tilt reached at PCMD roll/pitch ±1, radians. `control:euler_angle_max`.
        public var eulerAngleMaxRadians: Double
        /// Vertical speed reached at PCMD gaz ±1, mm/s. `control:control_vz_max`.
        public var verticalSpeedMaxMillimetersPerSecond: Double
        /// Yaw rate reached at PCMD yaw ±1, rad/s. `control:control_yaw`.
        public var yawRateMaxRadiansPerSecond: Double

        /// Indoor defaults: 12° (`MAX_EULER_ANGLES_REF` 12000 mdeg), 700 mm/s, 100 °/s (config_keys.h).
        public static let indoorDefault = LimitSet(
            eulerAngleMaxRadians: 12 * .pi / 180,
            verticalSpeedMaxMillimetersPerSecond: 700,
            yawRateMaxRadiansPerSecond: 100 * .pi / 180
        )
        /// Outdoor defaults: 20°, 1000 mm/s, 200 °/s (config_keys.h).
        public static let outdoorDefault = LimitSet(
            eulerAngleMaxRadians: 20 * .pi / 180,
            verticalSpeedMaxMillimetersPerSecond: 1000,
            yawRateMaxRadiansPerSecond: 200 * .pi / 180
        )
    }

    /// Largest accepted `euler_angle_max`, radians: "between 0 and 0.52 (ie. 30 deg)" (SDK text,
    /// docs/ardrone-protocol.md §4). Larger writes are clamped to it.
    public static let eulerAngleMaxLimitRadians = 0.52

    /// Every key ever written, with its raw string value (`"TRUE"`, `"0.350000"`, `"3000"`, …).
    public private(set) var values: [String: String] = [:]
    /// Limits used while `outdoor` is false.
    public private(set) var indoor: LimitSet = .indoorDefault
    /// Limits used while `outdoor` is true.
    public private(set) var outdoor: LimitSet = .outdoorDefault
    /// `control:outdoor`; default FALSE.
    public private(set) var isOutdoor = false
    /// `control:altitude_max`, mm; default 3000.
    public private(set) var altitudeMaxMillimeters: Double = 3000
    /// `control:altitude_min`, mm; default 50.
    public private(set) var altitudeMinMillimeters: Double = 50
    /// `general:com_watchdog`, seconds without any AT command before the drone treats the link as
    /// lost; default 2 (`COM_INPUT_LANDING_TIME`).
    public private(set) var comWatchdogSeconds: Double = 2
    /// `general:navdata_demo`; default FALSE.
    public private(set) var navdataDemo = false
    /// Keys whose value could not be parsed for the typed property they drive (the raw value is
    /// still stored in `values`; the typed property keeps its previous value).
    public private(set) var rejectedKeys: [String] = []

    public init() {}

    /// The limit set in force (`outdoor` when `control:outdoor` is TRUE, else `indoor`).
    public var active: LimitSet { isOutdoor ? outdoor : indoor }

    /// Applies one `AT*CONFIG="key","value"` write.
    ///
    /// `control:euler_angle_max`, `control:control_vz_max` and `control:control_yaw` write into the
    /// set selected by the *current* `control:outdoor`, as the firmware does (ardrone_autonomy
    /// `snippet_configure_drone.h`: send `outdoor` first or the limits land in the wrong set).
    public mutating func apply(key: String, value: String) {
        values[key] = value
        if let (set, limit) = Self.limitKey(key) {
            setNumber(key, value, positive: limit.positive) { c, v in
                let v = limit.transform(v)
                switch set {
                case .active: c.withActive { $0[keyPath: limit.path] = v }
                case .indoor: c.indoor[keyPath: limit.path] = v
                case .outdoor: c.outdoor[keyPath: limit.path] = v
                }
            }
            return
        }
        switch key {
        case "control:outdoor":
            setBool(key, value) { $0.isOutdoor = $1 }
        case "general:navdata_demo":
            setBool(key, value) { $0.navdataDemo = $1 }
        case "control:altitude_max":
            setNumber(key, value, positive: true) { c, v in c.altitudeMaxMillimeters = v }
        case "control:altitude_min":
            setNumber(key, value, positive: false) { c, v in c.altitudeMinMillimeters = v }
        case "general:com_watchdog":
            setNumber(key, value, positive: true) { c, v in c.comWatchdogSeconds = v }
        default:
            break // unknown keys are kept in `values` only
        }
    }

    /// Forgets `general:navdata_demo` (back to FALSE, as if never written), as a drone whose
    /// navdata restarts in bootstrap mode does.
    public mutating func forgetNavdataDemo() {
        values["general:navdata_demo"] = nil
        navdataDemo = false
    }

    /// Which limit set a `control:` limit key writes.
    private enum LimitSetChoice { case active, indoor, outdoor }

    /// One per-set limit: the key's name without `control:` / `control:indoor_` / `control:outdoor_`,
    /// the `LimitSet` field it sets, whether zero is rejected, and how the value is stored.
    private struct LimitKey {
        var name: String
        var path: WritableKeyPath<LimitSet, Double>
        var positive: Bool
        var transform: (Double) -> Double
    }

    /// `euler_angle_max` accepts 0 and is clamped to `eulerAngleMaxLimitRadians`; the others must be
    /// positive (config_keys.h, docs/ardrone-protocol.md §4).
    private static var limitKeys: [LimitKey] {
        [
            LimitKey(name: "euler_angle_max", path: \.eulerAngleMaxRadians, positive: false) {
                min($0, eulerAngleMaxLimitRadians)
            },
            LimitKey(name: "control_vz_max", path: \.verticalSpeedMaxMillimetersPerSecond, positive: true) { $0 },
            LimitKey(name: "control_yaw", path: \.yawRateMaxRadiansPerSecond, positive: true) { $0 },
        ]
    }

    /// The set and limit a key writes: `control:NAME` the active set, `control:indoor_NAME` and
    /// `control:outdoor_NAME` their own.
    private static func limitKey(_ key: String) -> (LimitSetChoice, LimitKey)? {
        guard key.hasPrefix("control:") else { return nil }
        let rest = key.dropFirst("control:".count)
        for limit in limitKeys {
            if rest == limit.name { return (.active, limit) }
            if rest == "indoor_" + limit.name { return (.indoor, limit) }
            if rest == "outdoor_" + limit.name { return (.outdoor, limit) }
        }
        return nil
    }

    private mutating func withActive(_ body: (inout LimitSet) -> Void) {
        if isOutdoor { body(&outdoor) } else { body(&indoor) }
    }

    /// Booleans travel as `"TRUE"`/`"FALSE"` (ARDroneLib `ARDRONE_CONFIG_KEY_IMM`); accept any case.
    private mutating func setBool(_ key: String, _ raw: String, _ set: (inout Self, Bool) -> Void) {
        switch raw.uppercased() {
        case "TRUE", "1": set(&self, true)
        case "FALSE", "0": set(&self, false)
        default: rejectedKeys.append(key)
        }
    }

    /// Numbers travel as `%d` or `%f` text; accept either, reject non-finite or negative values
    /// (and zero where `positive`).
    private mutating func setNumber(_ key: String, _ raw: String, positive: Bool, _ set: (inout Self, Double) -> Void) {
        guard let v = Double(raw), v.isFinite, positive ? v > 0 : v >= 0 else {
            rejectedKeys.append(key)
            return
        }
        set(&self, v)
    }
}
