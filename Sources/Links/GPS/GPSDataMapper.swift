import CGPS
import FollowCore

/// Turns what libgps parsed into a `GPSEvent`, trusting nothing (docs/style.md habit 12).
///
/// Checks the report class, the `set` bits, the mode and `isfinite` on every double; a fix
/// with mode < 2 is never presented as a position. Pure apart from reading the struct.
public enum GPSDataMapper {
    /// Why a report produced no event (the client counts these).
    public enum Ignored: Sendable, Hashable {
        case notInteresting            // VERSION, WATCH, DEVICES, a SKY without satellites, …
        case otherDevice(String)       // a report from a device this role does not watch
        case noPosition                // mode ≥ 2 but no finite lat/lon, or LATLON_SET missing
        case badHeading                // ATT without a finite heading
        case badMode(Int)              // mode outside 0…3
        case badTime                   // TIME_SET but a time no clock has (nanoseconds outside 0…999 999 999)
    }

    public enum Outcome: Sendable, Hashable {
        case event(GPSEvent)
        case ignored(Ignored)
    }

    /// Maps the report just read into `data`.
    /// - Parameters:
    ///   - messageClass: the class of the JSON line `gps_read` returned.
    ///   - device: the exact gpsd path this role watches, or nil for any device.
    ///   - receivedAt: monotonic time the line was read.
    public static func map(
        _ data: UnsafePointer<gps_data_t>, messageClass: GPSDMessageClass,
        role: ReceiverRole, device: String?, receivedAt: MonotonicTime
    ) -> Outcome {
        let set = fm_set_mask(data)
        let path = String(cString: fm_device_path(data))
        func isSet(_ bit: UInt64) -> Bool { set & bit != 0 }
        if let device, !device.isEmpty, messageClass != .error, path != device {
            switch messageClass {
            case .tpv, .att, .device, .sky: return .ignored(.otherDevice(path))
            default: return .ignored(.notInteresting)
            }
        }
        let reportedDevice = path.isEmpty ? (device ?? "") : path

        switch messageClass {
        case .tpv:
            let fix = data.pointee.fix
            let mode = Int(fix.mode)
            guard (0...3).contains(mode) else { return .ignored(.badMode(mode)) }
            guard mode >= 2, let fixMode = FixMode(rawValue: mode) else {
                return .event(.lost(GPSLoss(role: role, device: reportedDevice, reason: .noFix(mode: mode), at: receivedAt)))
            }
            guard isSet(fm_mask_latlon), fix.latitude.isFinite, fix.longitude.isFinite else {
                return .ignored(.noPosition)
            }
            var time: FixTime?
            if isSet(fm_mask_time) && (fix.time.tv_sec != 0 || fix.time.tv_nsec != 0) {
                // libgps 3.22 turns `"time":"…:57.501e3080Z"` into tv_nsec far beyond a second (found by the
                // gpsd-json libFuzzer target, Fuzz/findings/gpsd-json/): converting that trapped, i.e. one
                // hostile line killed `followme run`. Such a fix is dropped and counted, never trusted.
                guard (0..<1_000_000_000).contains(fix.time.tv_nsec), let seconds = Int64(exactly: fix.time.tv_sec) else {
                    return .ignored(.badTime)
                }
                time = FixTime(seconds: seconds, nanoseconds: Int32(fix.time.tv_nsec))
            }
            guard let value = GPSFix(
                role: role, device: reportedDevice, mode: fixMode,
                latitudeDegrees: fix.latitude, longitudeDegrees: fix.longitude,
                fixTime: time, receivedAt: receivedAt,
                altitudeHAEMeters: isSet(fm_mask_altitude) ? fix.altHAE : nil,
                trackDegrees: isSet(fm_mask_track) ? fix.track : nil,
                speedMetersPerSecond: isSet(fm_mask_speed) ? fix.speed : nil,
                climbMetersPerSecond: isSet(fm_mask_climb) ? fix.climb : nil,
                ephMeters: fix.eph, epvMeters: fix.epv, epsMetersPerSecond: fix.eps
            ) else { return .ignored(.noPosition) }
            return .event(.fix(value))

        case .att:
            guard isSet(fm_mask_attitude),
                  let h = HeadingReport(role: role, device: reportedDevice,
                                        headingDegrees: fm_attitude_heading(data), receivedAt: receivedAt)
            else { return .ignored(.badHeading) }
            return .event(.heading(h))

        case .device:
            if fm_device_activated(data) != 0 { return .ignored(.notInteresting) }
            return .event(.lost(GPSLoss(role: role, device: reportedDevice, reason: .deviceDeactivated, at: receivedAt)))

        case .error:
            return .event(.gpsdError(role: role, message: String(cString: fm_error_message(data)), at: receivedAt))

        case .sky:
            // libgps sets SATELLITE_SET for every SKY it parsed; the counts and DOPs stay from the
            // previous SKY where this one lacks them, which is what gpsd itself reports.
            guard isSet(fm_mask_satellite) else { return .ignored(.notInteresting) }
            return .event(.sky(SkyReport(
                role: role, device: reportedDevice,
                satellitesUsed: Int(fm_satellites_used(data)), satellitesVisible: Int(fm_satellites_visible(data)),
                hdop: fm_dop_hdop(data), vdop: fm_dop_vdop(data), pdop: fm_dop_pdop(data), receivedAt: receivedAt)))

        case .devices, .version, .watch, .toff, .other:
            return .ignored(.notInteresting)
        }
    }
}
