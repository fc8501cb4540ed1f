@testable import FollowCore
@testable import MAVLink
import Testing

/// `[mavlink] point_camera` (issue 26): MAV_CMD_DO_SET_ROI_LOCATION (195) at the person once a second
/// while flying in our mode, MAV_CMD_DO_SET_ROI_NONE (197) when landing, re-sent until ACKed (≤ 3).
@Suite("MAVLinkSession: point the camera at the person")
struct MAVLinkSessionCameraTests {
    static let person = GeoCoordinate(latitudeDegrees: 48.85831, longitudeDegrees: 2.2945)!

    static func following(pointCamera: Bool, autopilot: MAVLinkLinkConfiguration.Autopilot = .ardupilot) -> SessionHarness {
        var configuration = SessionHarness.configuration(autopilot)
        configuration.pointCamera = pointCamera
        var h = SessionHarness(configuration)
        h.flyingInControl(motion: nil)
        h.clear()
        h.session.setDesired(LinkCommand(flying: true, lookAt: person))
        h.run(3)
        return h
    }

    /// COMMAND_LONGs and COMMAND_INTs of `command` sent.
    static func count(_ command: MAVCommand, in h: SessionHarness) -> Int {
        h.commands.filter { $0.command.rawValue == command.rawValue }.count
            + h.positionCommands.filter { $0.command.rawValue == command.rawValue }.count
    }

    @Test("point_camera: the person's position once a second while following; on landing ROI_NONE until it is ACKed")
    func pointsAndClears() throws {
        // Given a Copter following in GUIDED with point_camera on
        var h = Self.following(pointCamera: true)
        // Then DO_SET_ROI_LOCATION went out about once a second as COMMAND_INT (none as COMMAND_LONG), with the
        // person's latitude and longitude exact in degE7, above home in MAV_FRAME_GLOBAL_RELATIVE_ALT_INT
        #expect(!h.commands.contains { $0.command.rawValue == MAVCommand.doSetROILocation.rawValue })
        let rois = h.positionCommands.filter { $0.command.rawValue == MAVCommand.doSetROILocation.rawValue }
        #expect((3...4).contains(rois.count), "\(rois.count) ROI commands in 3 s")
        let last = try #require(rois.last)
        #expect(last.position == LatitudeLongitudeE7(latitudeE7: 488_583_100, longitudeE7: 22_945_000), "\(last.position)")
        #expect(last.frame.known == .globalRelativeAltitudeInt && last.altitudeMeters == 0 && last.params == [0, 0, 0, 0],
                "all gimbals; ArduPilot: altitude above home \(last)")
        #expect(Self.count(.doSetROINone, in: h) == 0)
        // When the flight lands, ROI_NONE goes out (and no more ROI at the person)
        h.clear()
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(0.1)
        #expect(Self.count(.doSetROINone, in: h) == 1)
        // And unanswered it is sent again, at most 3 times
        h.run(5)
        #expect(Self.count(.doSetROINone, in: h) == 3 && Self.count(.doSetROILocation, in: h) == 0, "\(h.commands.map(\.command.rawValue))")
    }

    @Test("PX4: the same COMMAND_INT in MAV_FRAME_GLOBAL_INT (PX4 reads param7 as above mean sea level whatever the frame)")
    func px4Frame() {
        let target = MAVLinkTarget(system: 1, component: 1)
        let px4 = MAVLinkSession.roiLocation(Self.person, altitudeMeters: 412.5, autopilot: .px4, target: target)
        let ardupilot = MAVLinkSession.roiLocation(Self.person, altitudeMeters: 0, autopilot: .ardupilot, target: target)
        #expect(px4.frame.known == .globalInt && px4.altitudeMeters == 412.5 && px4.position == ardupilot.position)
        #expect(ardupilot.frame.known == .globalRelativeAltitudeInt && px4.command.known == .doSetROILocation && px4.target == target)
    }

    @Test("ROI_NONE ACKed: not sent again")
    func clearAcknowledged() {
        var h = Self.following(pointCamera: true)
        h.clear()
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(0.1)
        h.receive(CommandAck { $0.command = .init(.doSetROINone); $0.result = .init(.accepted) })
        h.run(5)
        #expect(Self.count(.doSetROINone, in: h) == 1)
    }

    @Test("point_camera false (the default): no ROI command at all, following or landing")
    func offByDefault() {
        var h = Self.following(pointCamera: false)
        h.session.setDesired(LinkCommand(flying: false, land: true))
        h.run(3)
        #expect(Self.count(.doSetROILocation, in: h) == 0 && Self.count(.doSetROINone, in: h) == 0)
        #expect(!SessionHarness.configuration().pointCamera)
    }
}
