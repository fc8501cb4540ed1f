/// The 32-bit drone state word of every navdata header (offset 4).
///
/// Every bit is named after the SDK mask `def_ardrone_state_mask_t` in
/// `ARDroneLib/Soft/Common/config.h` (identical in node-ar-drone, go-ardrone `state.go`,
/// pyardrone `states.py`, paparazzi `at_com.h`). The SDK name is given for each bit.
public struct DroneState: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 0 `ARDRONE_FLY_MASK`: 1 = flying, 0 = landed.
    public static let flying = DroneState(rawValue: 1 << 0)
    /// Bit 1 `ARDRONE_VIDEO_MASK`: video enabled.
    public static let videoEnabled = DroneState(rawValue: 1 << 1)
    /// Bit 2 `ARDRONE_VISION_MASK`: vision enabled.
    public static let visionEnabled = DroneState(rawValue: 1 << 2)
    /// Bit 3 `ARDRONE_CONTROL_MASK`: control algorithm, 0 = Euler angles, 1 = angular speed.
    public static let angularSpeedControl = DroneState(rawValue: 1 << 3)
    /// Bit 4 `ARDRONE_ALTITUDE_MASK`: altitude control active.
    public static let altitudeControlActive = DroneState(rawValue: 1 << 4)
    /// Bit 5 `ARDRONE_USER_FEEDBACK_START`: start button state.
    public static let userFeedbackStart = DroneState(rawValue: 1 << 5)
    /// Bit 6 `ARDRONE_COMMAND_MASK`: control command ACK (set after a CONFIG; cleared by `AT*CTRL=…,5,0`).
    public static let commandAcknowledged = DroneState(rawValue: 1 << 6)
    /// Bit 7 `ARDRONE_CAMERA_MASK`: camera ready.
    public static let cameraReady = DroneState(rawValue: 1 << 7)
    /// Bit 8 `ARDRONE_TRAVELLING_MASK`: travelling enabled.
    public static let travellingEnabled = DroneState(rawValue: 1 << 8)
    /// Bit 9 `ARDRONE_USB_MASK`: USB key ready.
    public static let usbKeyReady = DroneState(rawValue: 1 << 9)
    /// Bit 10 `ARDRONE_NAVDATA_DEMO_MASK`: 1 = only demo navdata is sent.
    public static let navdataDemo = DroneState(rawValue: 1 << 10)
    /// Bit 11 `ARDRONE_NAVDATA_BOOTSTRAP`: 1 = bootstrap, no navdata options sent.
    public static let navdataBootstrap = DroneState(rawValue: 1 << 11)
    /// Bit 12 `ARDRONE_MOTORS_MASK`: motors problem.
    public static let motorsProblem = DroneState(rawValue: 1 << 12)
    /// Bit 13 `ARDRONE_COM_LOST_MASK`: communication lost.
    public static let communicationLost = DroneState(rawValue: 1 << 13)
    /// Bit 14 `ARDRONE_SOFTWARE_FAULT`: software fault, "user should land as quick as possible".
    public static let softwareFault = DroneState(rawValue: 1 << 14)
    /// Bit 15 `ARDRONE_VBAT_LOW`: battery too low.
    public static let batteryLow = DroneState(rawValue: 1 << 15)
    /// Bit 16 `ARDRONE_USER_EL`: user emergency landing on.
    public static let userEmergencyLanding = DroneState(rawValue: 1 << 16)
    /// Bit 17 `ARDRONE_TIMER_ELAPSED`: timer elapsed.
    public static let timerElapsed = DroneState(rawValue: 1 << 17)
    /// Bit 18 `ARDRONE_MAGNETO_NEEDS_CALIB`: magnetometer needs calibration.
    public static let magnetometerNeedsCalibration = DroneState(rawValue: 1 << 18)
    /// Bit 19 `ARDRONE_ANGLES_OUT_OF_RANGE`: angles out of range.
    public static let anglesOutOfRange = DroneState(rawValue: 1 << 19)
    /// Bit 20 `ARDRONE_WIND_MASK`: too much wind.
    public static let tooMuchWind = DroneState(rawValue: 1 << 20)
    /// Bit 21 `ARDRONE_ULTRASOUND_MASK`: ultrasonic sensor deaf.
    public static let ultrasoundDeaf = DroneState(rawValue: 1 << 21)
    /// Bit 22 `ARDRONE_CUTOUT_MASK`: cutout system detected.
    public static let cutoutDetected = DroneState(rawValue: 1 << 22)
    /// Bit 23 `ARDRONE_PIC_VERSION_MASK`: PIC version number OK.
    public static let picVersionOK = DroneState(rawValue: 1 << 23)
    /// Bit 24 `ARDRONE_ATCODEC_THREAD_ON`: AT codec thread on.
    public static let atCodecThreadOn = DroneState(rawValue: 1 << 24)
    /// Bit 25 `ARDRONE_NAVDATA_THREAD_ON`: navdata thread on.
    public static let navdataThreadOn = DroneState(rawValue: 1 << 25)
    /// Bit 26 `ARDRONE_VIDEO_THREAD_ON`: video thread on.
    public static let videoThreadOn = DroneState(rawValue: 1 << 26)
    /// Bit 27 `ARDRONE_ACQ_THREAD_ON`: acquisition thread on.
    public static let acquisitionThreadOn = DroneState(rawValue: 1 << 27)
    /// Bit 28 `ARDRONE_CTRL_WATCHDOG_MASK`: control execution delayed (> 5 ms).
    public static let controlWatchdogDelay = DroneState(rawValue: 1 << 28)
    /// Bit 29 `ARDRONE_ADC_WATCHDOG_MASK`: uart2 delayed (> 5 ms).
    public static let adcWatchdogDelay = DroneState(rawValue: 1 << 29)
    /// Bit 30 `ARDRONE_COM_WATCHDOG_MASK`: communication problem (no client traffic).
    public static let communicationWatchdog = DroneState(rawValue: 1 << 30)
    /// Bit 31 `ARDRONE_EMERGENCY_MASK`: emergency landing (motors cut).
    public static let emergency = DroneState(rawValue: 1 << 31)

    /// All 32 named bits in bit order, with their names (for logs and tests).
    public static let namedBits: [(name: String, bit: DroneState)] = [
        ("flying", .flying), ("videoEnabled", .videoEnabled), ("visionEnabled", .visionEnabled),
        ("angularSpeedControl", .angularSpeedControl), ("altitudeControlActive", .altitudeControlActive),
        ("userFeedbackStart", .userFeedbackStart), ("commandAcknowledged", .commandAcknowledged),
        ("cameraReady", .cameraReady), ("travellingEnabled", .travellingEnabled),
        ("usbKeyReady", .usbKeyReady), ("navdataDemo", .navdataDemo),
        ("navdataBootstrap", .navdataBootstrap), ("motorsProblem", .motorsProblem),
        ("communicationLost", .communicationLost), ("softwareFault", .softwareFault),
        ("batteryLow", .batteryLow), ("userEmergencyLanding", .userEmergencyLanding),
        ("timerElapsed", .timerElapsed), ("magnetometerNeedsCalibration", .magnetometerNeedsCalibration),
        ("anglesOutOfRange", .anglesOutOfRange), ("tooMuchWind", .tooMuchWind),
        ("ultrasoundDeaf", .ultrasoundDeaf), ("cutoutDetected", .cutoutDetected),
        ("picVersionOK", .picVersionOK), ("atCodecThreadOn", .atCodecThreadOn),
        ("navdataThreadOn", .navdataThreadOn), ("videoThreadOn", .videoThreadOn),
        ("acquisitionThreadOn", .acquisitionThreadOn), ("controlWatchdogDelay", .controlWatchdogDelay),
        ("adcWatchdogDelay", .adcWatchdogDelay), ("communicationWatchdog", .communicationWatchdog),
        ("emergency", .emergency),
    ]

    /// Names of the bits set, in bit order.
    public var setBitNames: [String] {
        Self.namedBits.filter { contains($0.bit) }.map(\.name)
    }
}

extension DroneState: CustomStringConvertible {
    public var description: String {
        "DroneState(0x" + String(rawValue, radix: 16, uppercase: true) + ": "
            + setBitNames.joined(separator: ", ") + ")"
    }
}
