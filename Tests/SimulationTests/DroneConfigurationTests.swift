@testable import Simulation
import Testing

@Suite("DroneConfiguration")
struct DroneConfigurationTests {
    @Test("defaults are the SDK indoor set (12°, 700 mm/s, 100°/s, 3000 mm)")
    func defaults() {
        let c = DroneConfiguration()
        #expect(!c.isOutdoor)
        #expect(abs(c.active.eulerAngleMaxRadians - 0.2094) < 1e-4)
        #expect(c.active.verticalSpeedMaxMillimetersPerSecond == 700)
        #expect(abs(c.active.yawRateMaxRadiansPerSecond - 1.7453) < 1e-4)
        #expect(c.altitudeMaxMillimeters == 3000)
        #expect(c.comWatchdogSeconds == 2)
    }

    @Test("values are parsed from the strings AT*CONFIG carries", arguments: [
        ("control:euler_angle_max", "0.350000", 0.35),
        ("control:euler_angle_max", "0.35", 0.35),
        ("control:control_vz_max", "2000", 2000),
        ("control:control_yaw", "6.110000", 6.11),
        ("control:altitude_max", "20000", 20000),
    ])
    func parsing(key: String, value: String, expected: Double) {
        var c = DroneConfiguration()
        c.apply(key: key, value: value)
        let actual: Double = switch key {
        case "control:euler_angle_max": c.active.eulerAngleMaxRadians
        case "control:control_vz_max": c.active.verticalSpeedMaxMillimetersPerSecond
        case "control:control_yaw": c.active.yawRateMaxRadiansPerSecond
        default: c.altitudeMaxMillimeters
        }
        #expect(abs(actual - expected) < 1e-9)
        #expect(c.values[key] == value)
        #expect(c.rejectedKeys.isEmpty)
    }

    @Test("control:outdoor switches to the outdoor set; limits go to the set in force")
    func outdoorOrdering() {
        // Given euler_angle_max written before outdoor (the ardrone_autonomy pitfall)
        var c = DroneConfiguration()
        c.apply(key: "control:euler_angle_max", value: "0.35")
        c.apply(key: "control:outdoor", value: "TRUE")
        // Then the outdoor default (20°) is in force, not 0.35
        #expect(abs(c.active.eulerAngleMaxRadians - 20 * Double.pi / 180) < 1e-9)
        #expect(c.indoor.eulerAngleMaxRadians == 0.35)
        // When written after outdoor, it takes effect
        c.apply(key: "control:euler_angle_max", value: "0.4")
        #expect(c.active.eulerAngleMaxRadians == 0.4)
        c.apply(key: "control:outdoor", value: "FALSE")
        #expect(c.active.eulerAngleMaxRadians == 0.35)
    }

    @Test("euler_angle_max is clamped to 0.52 rad")
    func eulerClamp() {
        var c = DroneConfiguration()
        c.apply(key: "control:euler_angle_max", value: "1.0")
        #expect(c.active.eulerAngleMaxRadians == 0.52)
    }

    @Test("unknown keys are stored; unparseable values are rejected and change nothing")
    func unknownAndBad() {
        var c = DroneConfiguration()
        c.apply(key: "custom:session_id", value: "deadbeef")
        c.apply(key: "control:control_vz_max", value: "fast")
        c.apply(key: "control:outdoor", value: "MAYBE")
        c.apply(key: "control:altitude_max", value: "-5")
        #expect(c.values["custom:session_id"] == "deadbeef")
        #expect(c.rejectedKeys == ["control:control_vz_max", "control:outdoor", "control:altitude_max"])
        #expect(c.active.verticalSpeedMaxMillimetersPerSecond == 700)
        #expect(!c.isOutdoor)
        #expect(c.altitudeMaxMillimeters == 3000)
    }
}
