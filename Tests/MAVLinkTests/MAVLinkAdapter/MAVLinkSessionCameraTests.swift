@testable import FollowCore
@testable import MAVLink
import Testing

/// `[mavlink] point_camera` (issue 26): MAV_CMD_DO_SET_ROI_LOCATION (195) at the person once a second
/// while flying in our mode, MAV_CMD_DO_SET_ROI_NONE (197) when landing, re-sent until ACKed (≤ 3).
@Suite("MAVLinkSession: point the camera at the person")
struct MAVLinkSessionCameraTests {
    static let person = GeoCoordinate(latitudeDegrees: 48.85831, longitudeDegrees: 2.2945)!

    /// Following in our mode with the person at `person`, `riseMeters` above home's ground. ArduPilot's mount
    /// type (`MNT1_TYPE`) answered `mountType` (nil: not answered).
    static func following(pointCamera: Bool, autopilot: MAVLinkLinkConfiguration.Autopilot = .ardupilot,
                          mountType: Float? = 1, riseMeters: Double? = nil, motion: MotionCommand? = nil) -> SessionHarness {
        var configuration = SessionHarness.configuration(autopilot)
        configuration.pointCamera = pointCamera
        var h = SessionHarness(configuration)
        h.flyingInControl(autopilot, motion: nil)
        if let mountType, autopilot == .ardupilot { h.answerParameters(["MNT1_TYPE": mountType]) }
        h.clear()
        h.session.setDesired(LinkCommand(flying: true, motion: motion, lookAt: person, lookAtRiseMeters: riseMeters))
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

    @Test("ArduPilot without a mount (MNT1_TYPE 0, or not answered): no ROI — the set-point's yaw rate points the nose, as GUIDED's set_yaw_state would cancel a ROI's yaw on every set-point")
    func noMountNoROI() throws {
        let turn = MotionCommand(velocity: PlaneVector(east: 1, north: 0), climbMetersPerSecond: 0, yawRateDegreesPerSecond: 20)
        for mountType: Float? in [0, nil] {
            // Given a Copter without a mount following in GUIDED with point_camera on
            let h = Self.following(pointCamera: true, mountType: mountType, motion: turn)
            // Then no region of interest goes out
            #expect(Self.count(.doSetROILocation, in: h) == 0, "MNT1_TYPE \(String(describing: mountType))")
            // And the set-points carry the core's yaw rate (velocity + yaw rate: yaw ignored, yaw rate used)
            let last = try #require(h.setpoints.last)
            #expect(last.typeMask == .velocityAndYawRate && !last.typeMask.contains(.yawRateIgnore))
            #expect(abs(Double(last.yawRateRadiansPerSecond) - 20 * .pi / 180) < 1e-4, "\(last.yawRateRadiansPerSecond)")
        }
        // And MNT_TYPE (ArduPilot before 4.3) answered non-zero counts as a mount
        var configuration = SessionHarness.configuration(.ardupilot)
        configuration.pointCamera = true
        var h = SessionHarness(configuration)
        h.flyingInControl(motion: nil)
        h.answerParameters(["MNT_TYPE": 1])
        h.clear()
        h.session.setDesired(LinkCommand(flying: true, lookAt: Self.person))
        h.run(1.5)
        #expect(Self.count(.doSetROILocation, in: h) >= 1)
    }

    @Test("the ROI's altitude is the person's ground: their rise since take-off above home (ArduPilot), home's latched AMSL altitude plus it (PX4)")
    func altitudeFromThePerson() throws {
        // Given the person 15 m up a slope from home
        let ardupilot = Self.following(pointCamera: true, riseMeters: 15)
        let px4 = Self.following(pointCamera: true, autopilot: .px4, riseMeters: 15)
        // Then ArduPilot aims 15 m above home (MAV_FRAME_GLOBAL_RELATIVE_ALT_INT), not at home's ground
        let a = try #require(ardupilot.positionCommands.last { $0.command.known == .doSetROILocation })
        #expect(a.altitudeMeters == 15 && a.frame.known == .globalRelativeAltitudeInt, "\(a.altitudeMeters)")
        // And PX4 at home's AMSL altitude (480 − 3 m above home) + 15
        let p = try #require(px4.positionCommands.last { $0.command.known == .doSetROILocation })
        #expect(abs(p.altitudeMeters - 492) < 0.01 && p.frame.known == .globalInt, "\(p.altitudeMeters)")
        // And a person descended 4 m is aimed 4 m below home's ground
        let below = Self.following(pointCamera: true, riseMeters: -4)
        #expect(below.positionCommands.last { $0.command.known == .doSetROILocation }?.altitudeMeters == -4)
    }

    @Test("released (a pilot's LOITER): ROI_NONE clears FollowMe's ROI, and no ROI follows; someone else's flight never gets one")
    func clearedOnRelease() {
        // Given a Copter with a mount following in GUIDED, its camera on the person
        var h = Self.following(pointCamera: true)
        #expect(Self.count(.doSetROILocation, in: h) >= 3)
        // When a pilot switches to LOITER (released) while the flight still asks to follow
        h.clear()
        h.vehicleSays(mode: ArduCopterMode.loiter.rawValue)
        h.run(0.1)
        // Then ROI_NONE goes out at once, and no ROI at the person after it
        #expect(Self.count(.doSetROINone, in: h) == 1)
        h.receive(CommandAck { $0.command = .init(.doSetROINone); $0.result = .init(.accepted) })
        h.run(3)
        #expect(Self.count(.doSetROINone, in: h) == 1 && Self.count(.doSetROILocation, in: h) == 0)

        // Given someone else's flight in GUIDED (armed after connect, not by FollowMe) with point_camera on
        var configuration = SessionHarness.configuration(.ardupilot)
        configuration.pointCamera = true
        var other = SessionHarness(configuration)
        other.connectAndConfigure(mode: ArduCopterMode.guided.rawValue)
        other.answerParameters(["MNT1_TYPE": 1])
        other.vehicleSays(armed: true, landed: .inAir, relativeAltitudeMeters: 5)
        other.session.setDesired(LinkCommand(flying: true, lookAt: Self.person))
        other.run(3)
        // Then no ROI, and nothing to clear
        #expect(Self.count(.doSetROILocation, in: other) == 0 && Self.count(.doSetROINone, in: other) == 0)
    }
}
