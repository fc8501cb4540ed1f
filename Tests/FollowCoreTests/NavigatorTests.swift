@testable import FollowCore
import Testing

@Suite("Navigator: plane, nose heading, relative bearing")
struct NavigatorTests {
    static func report(_ receiverHeading: Double, at seconds: Double, role: ReceiverRole = .onboard) -> HeadingReport {
        HeadingReport(role: role, device: "/dev/test", headingDegrees: receiverHeading,
                      receivedAt: MonotonicTime(seconds: seconds))!
    }

    @Test("nose = receiver heading + mount offset", arguments: [
        (mount: 90.0, receiver: 0.0, nose: 90.0),     // the brief's case: receiver north → nose east
        (mount: 90.0, receiver: 300.0, nose: 30.0),
        (mount: -90.0, receiver: 45.0, nose: 315.0),
        (mount: 0.0, receiver: 359.0, nose: 359.0),
        (mount: 270.0, receiver: 180.0, nose: 90.0),
    ])
    func mountOffset(mount: Double, receiver: Double, nose: Double) {
        // Given a navigator with the receiver mounted `mount` degrees clockwise of the nose axis
        var navigator = Navigator(mountOffsetDegrees: mount)
        // When the onboard receiver reports its heading
        navigator.ingest(heading: Self.report(receiver, at: 1))
        // Then the nose heading is receiver + mount, normalised to [0, 360)
        let got = navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 1.1))
        #expect(got.map { abs(wrappedDegrees180($0 - nose)) < 1e-9 } == true)
        #expect(got.map { $0 >= 0 && $0 < 360 } == true)
    }

    @Test func aTargetReceiverHeadingIsNotTheDronesHeading() {
        var navigator = Navigator(mountOffsetDegrees: 90)
        let taken = navigator.ingest(heading: Self.report(10, at: 1, role: .target))
        #expect(!taken)
        #expect(navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 1)) == nil)
    }

    @Test("relative bearing is wrapped to [−180, 180)", arguments: [
        (nose: 350.0, targetBearing: 0.0, relative: 10.0),
        (nose: 10.0, targetBearing: 0.0, relative: -10.0),
        (nose: 0.0, targetBearing: 180.0, relative: -180.0),
        (nose: 90.0, targetBearing: 270.0, relative: -180.0),
        (nose: 315.0, targetBearing: 45.0, relative: 90.0),
        (nose: 45.0, targetBearing: 315.0, relative: -90.0),
        (nose: 179.0, targetBearing: 181.0, relative: 2.0),
        (nose: 0.0, targetBearing: 359.5, relative: -0.5),
    ])
    func relativeBearing(nose: Double, targetBearing: Double, relative: Double) {
        let drone = PlaneVector(east: 3, north: -4)
        let target = drone + PlaneVector.unit(bearingDegrees: targetBearing) * 25
        let got = Navigator.relativeBearingDegrees(from: drone, noseHeadingDegrees: nose, to: target)
        #expect(abs(got - relative) < 1e-6)
        #expect(got >= -180 && got < 180)
    }

    @Test("across the antimeridian the plane stays continuous", arguments: [
        // (drone lon, person lon, expected bearing): 0.0002° of longitude at the equator
        (drone: 179.9999, person: -179.9999, bearing: 90.0),
        (drone: -179.9999, person: 179.9999, bearing: 270.0),
    ])
    func antimeridian(drone: Double, person: Double, bearing: Double) {
        // Given a plane anchored by a fix just one side of ±180°
        var navigator = Navigator(mountOffsetDegrees: 0)
        let dronePosition = navigator.position(of: GeoCoordinate(latitudeDegrees: 0, longitudeDegrees: drone)!)
        // When the person is just the other side
        let personPosition = navigator.position(of: GeoCoordinate(latitudeDegrees: 0, longitudeDegrees: person)!)
        let offset = personPosition - dronePosition
        // Then they are 22.26 m apart (a·Δλ at the equator: 6378137 m × 0.0002° in radians), not 40 000 km
        let expected = 6_378_137.0 * radians(fromDegrees: 0.0002)
        #expect(abs(offset.length - expected) < 0.01)
        #expect(abs(wrappedDegrees180(offset.bearingDegrees - bearing)) < 1e-6)
        // And the relative bearing from a nose 10° left of that bearing is +10°
        let relative = Navigator.relativeBearingDegrees(
            from: dronePosition, noseHeadingDegrees: normalizedDegrees360(bearing - 10), to: personPosition)
        #expect(abs(relative - 10) < 1e-6)
    }

    @Test func betweenHeadingReportsTheNoseFollowsNavdataYaw() {
        // Given a receiver report (nose 90°) while navdata psi reads 20° (arbitrary zero)
        var navigator = Navigator(mountOffsetDegrees: 90)
        navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: 0.95))
        navigator.ingest(vehicleYawDegrees: 20, at: MonotonicTime(seconds: 1.0))
        navigator.ingest(heading: Self.report(0, at: 1.0))
        // When navdata says the drone yawed 30° clockwise since, with no new report
        navigator.ingest(vehicleYawDegrees: 35, at: MonotonicTime(seconds: 1.5))
        navigator.ingest(vehicleYawDegrees: 50, at: MonotonicTime(seconds: 2.0))
        // Then the nose heading has turned with it
        let nose = navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 2.0))
        #expect(nose.map { abs(wrappedDegrees180($0 - 120)) < 1e-6 } == true)
    }

    @Test func withoutNavdataYawTheLastReportStands() {
        var navigator = Navigator(mountOffsetDegrees: 90)
        navigator.ingest(heading: Self.report(10, at: 1.0))
        #expect(navigator.noseHeadingDegrees(now: MonotonicTime(seconds: 5)) == 100)
    }

    @Test func thePlaneIsAnchoredAtTheFirstFix() {
        var navigator = Navigator(mountOffsetDegrees: 90)
        #expect(navigator.plane == nil)
        let first = GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!
        let origin = navigator.position(of: first)
        #expect(origin == .zero)
        #expect(navigator.plane?.origin == first)
        // One microdegree of latitude north ≈ 0.111 m north.
        let north = navigator.position(of: GeoCoordinate(latitudeDegrees: 47.376901, longitudeDegrees: 8.5417)!)
        #expect(abs(north.north - 0.1112) < 0.001 && abs(north.east) < 1e-9)
    }
}
