import Testing
@testable import FollowCore

@Suite struct LocalPlaneTests {
    @Test("project then unproject returns the point", arguments: [
        (0.0, 0.0, 120.0, -80.0), (45.0, 7.0, -500.0, 900.0), (70.0, 20.0, 1000.0, 1000.0),
        (-36.7, 174.7, 3.0, -4.0), (10.0, 179.9999, 200.0, 0.0),
    ])
    func roundTrip(_ c: (Double, Double, Double, Double)) throws {
        let origin = try #require(GeoCoordinate(latitudeDegrees: c.0, longitudeDegrees: c.1))
        let plane = LocalPlane(origin: origin)
        let v = PlaneVector(east: c.2, north: c.3)
        let p = try #require(plane.unproject(v))
        let back = plane.project(p)
        #expect(abs(back.east - v.east) < 1e-6)
        #expect(abs(back.north - v.north) < 1e-6)
    }

    @Test("the origin projects to zero; north and east are where they should be")
    func axes() throws {
        let plane = LocalPlane(origin: try #require(GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7)))
        #expect(plane.project(plane.origin) == .zero)
        let north = plane.project(try #require(GeoCoordinate(latitudeDegrees: 45.001, longitudeDegrees: 7)))
        #expect(abs(north.east) < 1e-9 && north.north > 111 && north.north < 112)
        let east = plane.project(try #require(GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7.001)))
        #expect(abs(east.north) < 1e-9 && east.east > 78.8 && east.east < 78.9)
    }

    @Test("coordinates reject NaN, infinities and out-of-range values", arguments: [
        (Double.nan, 0.0), (0.0, .nan), (.infinity, 0.0), (0.0, -.infinity), (90.0001, 0.0), (0.0, 180.0001),
    ])
    func rejectsBadCoordinates(_ c: (Double, Double)) {
        #expect(GeoCoordinate(latitudeDegrees: c.0, longitudeDegrees: c.1) == nil)
    }

    @Test("unproject refuses non-finite vectors")
    func unprojectNaN() throws {
        let plane = LocalPlane(origin: try #require(GeoCoordinate(latitudeDegrees: 1, longitudeDegrees: 2)))
        #expect(plane.unproject(PlaneVector(east: .nan, north: 0)) == nil)
    }
}

@Suite struct AngleTests {
    @Test("normalise to [0, 360)", arguments: [
        (-45.0, 315.0), (315.0, 315.0), (360.0, 0.0), (720.0, 0.0), (450.0, 90.0), (-720.5, 359.5), (0.0, 0.0),
        (-1e-15, 0.0),
    ])
    func normalise(_ c: (Double, Double)) {
        let r = normalizedDegrees360(c.0)
        #expect(abs(r - c.1) < 1e-9)
        #expect(r >= 0 && r < 360)
    }

    @Test("wrap to [−180, 180)", arguments: [
        (180.0, -180.0), (-180.0, -180.0), (190.0, -170.0), (-190.0, 170.0), (359.0, -1.0), (45.0, 45.0),
    ])
    func wrap(_ c: (Double, Double)) {
        #expect(abs(wrappedDegrees180(c.0) - c.1) < 1e-9)
    }

    @Test("body frame: a vector east is to the right of a north-facing nose, ahead of an east-facing one")
    func bodyFrame() {
        let east = PlaneVector(east: 1, north: 0)
        let n = east.bodyFrame(headingDegrees: 0)
        #expect(abs(n.forward) < 1e-12 && abs(n.right - 1) < 1e-12)
        let e = east.bodyFrame(headingDegrees: 90)
        #expect(abs(e.forward - 1) < 1e-12 && abs(e.right) < 1e-12)
        #expect(abs(PlaneVector(east: 1, north: 1).bearingDegrees - 45) < 1e-12)
    }
}
