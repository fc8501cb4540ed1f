@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// The simulated Copter answers the camera's region of interest (issue 26, `[mavlink] point_camera`):
/// DO_SET_ROI_LOCATION (195) is ACCEPTED and kept, DO_SET_ROI_NONE (197) clears it, as ArduCopter does.
@Suite("MAVLinkCopter: DO_SET_ROI_LOCATION / DO_SET_ROI_NONE")
struct MAVLinkCopterROITests {
    @Test("ROI at a location: ACCEPTED and kept; ROI_NONE: ACCEPTED and cleared; a location off the Earth: DENIED")
    func regionOfInterest() throws {
        var gcs = CopterGroundStation()
        // Given no ROI yet
        #expect(gcs.copter.regionOfInterest == nil)
        // When the ground station asks the camera to look at the person 10 m south of home, 1.5 m up
        #expect(gcs.command(.doSetROILocation, [0, 0, 0, 0, 48.85831, 2.2945, 1.5]) == .accepted)
        // Then the copter keeps the point
        let roi = try #require(gcs.copter.regionOfInterest)
        #expect(abs(roi.latitudeDegrees - 48.85831) < 1e-5 && abs(roi.longitudeDegrees - 2.2945) < 1e-5 && roi.altitudeMeters == 1.5)
        // When ROI_NONE follows, it is cleared
        #expect(gcs.command(.doSetROINone, [0]) == .accepted)
        #expect(gcs.copter.regionOfInterest == nil)
        // And a latitude beyond ±90° is refused and changes nothing
        #expect(gcs.command(.doSetROILocation, [0, 0, 0, 0, 95, 2.2945, 0]) == .denied)
        #expect(gcs.copter.regionOfInterest == nil)
    }

    @Test("ROI as COMMAND_INT (what FollowMe sends): ACCEPTED, kept exact in degE7; a local frame DENIED; a latitude off the Earth FAILED; another command UNSUPPORTED")
    func regionOfInterestAsCommandInt() throws {
        var gcs = CopterGroundStation()
        func send(_ x: Int32, _ y: Int32, frame: MAVFrame = .globalRelativeAltitudeInt, command: MAVCommand = .doSetROILocation) -> MAVResult? {
            let replies = gcs.send(CommandInt {
                $0.command = .init(command)
                $0.frame = .init(frame)
                $0.position = LatitudeLongitudeE7(latitudeE7: x, longitudeE7: y)
                $0.altitudeMeters = 1.5
                $0.target = MAVLinkTarget(system: 1, component: 1)
            })
            return replies.compactMap { $0 as? CommandAck }.first { $0.command.known == command }?.result.known
        }
        // When the ground station asks the camera to look at 48.8583101°, 2.2945003° (one degE7 step apart
        // from its neighbours: ≈ 1.1 cm, which COMMAND_LONG's float32 p5 rounds to 48.858311 or 48.858307)
        #expect(send(488_583_101, 22_945_003) == .accepted)
        // Then the copter keeps exactly that point
        let roi = try #require(gcs.copter.regionOfInterest)
        #expect(roi.latitudeDegrees == 48.8583101 && roi.longitudeDegrees == 2.2945003 && roi.altitudeMeters == 1.5, "\(roi)")
        #expect(Double(Float(48.8583101)) != 48.8583101, "float32 would not have carried it")
        // And a local frame is DENIED, an impossible latitude FAILED, both changing nothing
        #expect(send(488_000_000, 22_945_003, frame: .localNED) == .denied)
        #expect(send(950_000_000, 22_945_003) == .failed)
        #expect(send(488_583_101, 22_945_003, command: .navLand) == .unsupported)
        #expect(gcs.copter.regionOfInterest?.latitudeDegrees == 48.8583101)
    }

    @Test("the session's ROI, encoded, parsed and taken by the copter: the person's position to within half a degE7 (≤ 0.6 cm)")
    func roundTrip() throws {
        let person = GeoCoordinate(latitudeDegrees: 48.858312345678, longitudeDegrees: 2.294512345678)!
        var sender = MAVLinkSender(systemID: 245, componentID: 190)
        let bytes = sender.encode(.positionCommand(MAVLinkSession.roiLocation(
            person, altitudeMeters: 0, autopilot: .ardupilot, target: MAVLinkTarget(system: 1, component: 1))))
        var parser = MAVLinkParser()
        let items = parser.parse(bytes)
        guard items.count == 1, case .frame(let frame) = items[0] else {
            Issue.record("expected one frame, got \(items)")
            return
        }
        var copter = MAVLinkCopter(plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!))
        let ack = copter.receive(frame, at: copter.time).compactMap { $0 as? CommandAck }.first
        #expect(ack?.result.known == .accepted)
        let roi = try #require(copter.regionOfInterest)
        #expect(abs(roi.latitudeDegrees - person.latitudeDegrees) <= 0.5e-7 && abs(roi.longitudeDegrees - person.longitudeDegrees) <= 0.5e-7,
                "\(roi) vs \(person)")
        // As COMMAND_LONG's float32 it was off by up to half a float32 step: 2^-18° ≈ 0.4 m of latitude here
        #expect(abs(Double(Float(person.latitudeDegrees)) - person.latitudeDegrees) > 1e-7)
    }

    /// DO_SET_ROI_LOCATION at the point `eastMeters`, `northMeters` from the copter, on the ground at home.
    static func roi(_ gcs: inout CopterGroundStation, eastMeters: Double, northMeters: Double) throws -> MAVResult? {
        let point = try #require(gcs.copter.plane.unproject(gcs.copter.positionPlane + PlaneVector(east: eastMeters, north: northMeters)))
        return gcs.command(.doSetROILocation, [0, 0, 0, 0, Float(point.latitudeDegrees), Float(point.longitudeDegrees), 0])
    }

    @Test("no mount: a ROI turns the nose to it, and the next GUIDED set-point takes the yaw back whatever its yaw bits (ArduCopter set_yaw_state); with a mount the nose stays")
    func guidedYawOverridesRegionOfInterest() throws {
        // Given a copter without a mount hovering in GUIDED, nose north
        var gcs = CopterGroundStation()
        gcs.takeOff()
        #expect(abs(wrappedDegrees180(gcs.copter.noseHeadingDegrees)) < 1)
        // When a ROI 30 m east arrives and no set-point follows
        #expect(try Self.roi(&gcs, eastMeters: 30, northMeters: 0) == .accepted)
        gcs.wait(seconds: 3)
        // Then the nose turns to it (autoyaw.cpp set_roi: auto-yaw mode ROI)
        #expect(abs(wrappedDegrees180(gcs.copter.noseHeadingDegrees - 90)) < 3, "nose \(gcs.copter.noseHeadingDegrees)")
        // When a ROI due west comes with a set-point carrying a yaw rate of 0, at the same instant
        #expect(try Self.roi(&gcs, eastMeters: -30, northMeters: 0) == .accepted)
        gcs.send(CopterGroundStation.velocity(0, 0, frame: .localNED))
        gcs.stream(CopterGroundStation.velocity(0, 0, frame: .localNED), seconds: 3)
        // Then the set-point's yaw rate wins: the nose stays east
        #expect(!gcs.copter.yawsToRegionOfInterest && gcs.copter.regionOfInterest != nil)
        #expect(abs(wrappedDegrees180(gcs.copter.noseHeadingDegrees - 90)) < 3, "nose \(gcs.copter.noseHeadingDegrees)")
        // And a set-point with yaw and yaw rate both ignored ends the ROI's yaw too (the default auto-yaw mode)
        #expect(try Self.roi(&gcs, eastMeters: -30, northMeters: 0) == .accepted)
        var noYaw = CopterGroundStation.velocity(0, 0, frame: .localNED)
        noYaw.typeMask.insert(.yawRateIgnore)
        gcs.send(noYaw)
        gcs.stream(noYaw, seconds: 3)
        #expect(!gcs.copter.yawsToRegionOfInterest)
        #expect(abs(wrappedDegrees180(gcs.copter.noseHeadingDegrees - 90)) < 3, "nose \(gcs.copter.noseHeadingDegrees)")

        // Given a copter whose mount pans (MNT1_TYPE non-zero): the ROI is the mount's, the nose stays north
        var parameters = MAVLinkCopterParameters()
        parameters.mountType = 1
        var mounted = CopterGroundStation(copter: MAVLinkCopter(
            parameters: parameters, plane: LocalPlane(origin: GeoCoordinate(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945)!)))
        mounted.takeOff()
        #expect(try Self.roi(&mounted, eastMeters: 30, northMeters: 0) == .accepted)
        mounted.wait(seconds: 3)
        #expect(mounted.copter.regionOfInterest != nil && !mounted.copter.yawsToRegionOfInterest)
        #expect(abs(wrappedDegrees180(mounted.copter.noseHeadingDegrees)) < 1, "nose \(mounted.copter.noseHeadingDegrees)")
    }
}
