@testable import FollowCore
@testable import MAVLink
@testable import Simulation
import Testing

/// `[mavlink] point_camera` closed loop against the simulated ArduPilot Copter, through the codec
/// (docs/mavlink.md §7.13): without a mount no region of interest reaches it and the set-points turn its
/// nose to the person; with a mount the region of interest is on the person's ground, and cleared when a
/// pilot takes over.
@Suite("Camera closed loop: a region of interest only where it works, at the person's height, cleared on release")
struct CameraClosedLoopTests {
    /// The angle between the Copter's nose and its bearing to the person, degrees.
    static func noseOffPerson(_ rig: OwnershipRig) -> Double {
        abs(wrappedDegrees180((rig.person - rig.copter.positionPlane).bearingDegrees - rig.copter.noseHeadingDegrees))
    }

    @Test("no mount (MNT1_TYPE 0): no region of interest ever reaches the Copter; its nose faces the person by the set-points")
    func noMount() throws {
        // Given FollowMe with point_camera on a Copter without a mount, the person 15 m east of take-off
        var rig = try OwnershipRig(takeOffOnStart: false, pointCamera: true, mountType: 0)
        rig.person = PlaneVector(east: 15, north: 0)
        rig.personAltitudeMeters = 100
        let reached = rig.run(within: 60) { $0.state == .following }
        #expect(reached, "\(rig.state.name)")
        // When it follows for 20 s
        var roiSeen = false
        for _ in 0..<20 {
            rig.run(for: 1)
            roiSeen = roiSeen || rig.copter.regionOfInterest != nil
        }
        // Then the Copter never had a region of interest (whose auto-yaw every set-point would cancel)
        #expect(!roiSeen && !rig.copter.yawsToRegionOfInterest)
        // And its nose faces the person (the core's yaw rate in the set-points)
        #expect(Self.noseOffPerson(rig) < 10, "nose off the person by \(Self.noseOffPerson(rig))°; nose \(rig.copter.noseHeadingDegrees) at \(rig.copter.positionPlane) \(rig.state.name) sp \(String(describing: rig.copter.setpoint))")
    }

    @Test("a mount: the region of interest on the person 4 m down a slope, at their ground's height; a pilot's LOITER clears it and nothing else is sent")
    func mountAtPersonsHeightClearedOnRelease() throws {
        // Given FollowMe with point_camera on a Copter with a mount, following
        var rig = try OwnershipRig(takeOffOnStart: false, pointCamera: true, mountType: 1)
        rig.personAltitudeMeters = 100
        let reached = rig.run(within: 60) { $0.state == .following }
        #expect(reached, "\(rig.state.name)")
        // When the person stands 4 m lower (down a slope; higher than the drone would hold it, person-above-drone)
        rig.personAltitudeMeters = 96
        rig.run(for: 30)
        // Then the Copter's region of interest is on them, 4 m below home (not at home's ground)
        let roi = try #require(rig.copter.regionOfInterest)
        let point = try #require(GeoCoordinate(latitudeDegrees: roi.latitudeDegrees, longitudeDegrees: roi.longitudeDegrees))
        let off = (rig.plane.project(point) - rig.person).length
        #expect(off < 2, "ROI \(off) m off the person")
        #expect(abs(roi.altitudeMeters + 4) < 0.5, "ROI altitude \(roi.altitudeMeters) m above home")
        // And its nose was left to the set-points (a mount pans)
        #expect(!rig.copter.yawsToRegionOfInterest)
        // When a pilot switches to LOITER
        let sentBefore = rig.commandsSent.count
        rig.pilotSwitches(to: .loiter)
        rig.run(for: 3)
        // Then FollowMe released it, cleared its own region of interest, and sent nothing else
        #expect(rig.state.kind == .released, "\(rig.state.name)")
        #expect(rig.copter.regionOfInterest == nil)
        let after = rig.commandsSent.dropFirst(sentBefore).map(\.id)
        #expect(after == [MAVCommand.doSetROINone.rawValue], "\(after)")
    }
}
