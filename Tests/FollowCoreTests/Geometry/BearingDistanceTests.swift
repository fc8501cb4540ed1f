import Testing
@testable import FollowCore

/// The flat-plane navigator against GeographicLib (an independent implementation).
@Suite struct BearingDistanceTests {
    @Test("all 84 GeographicLib vectors are read from Fixtures/geodesic-vectors.csv")
    func vectorsPresent() {
        #expect(geodesicReferenceVectors.count == 84)
    }

    @Test("bearing within 0.05° and distance within 0.1 % of the WGS84 geodesic", arguments: geodesicReferenceVectors)
    func matchesGeodesic(_ v: GeodesicVector) throws {
        let a = try #require(GeoCoordinate(latitudeDegrees: v.lat1, longitudeDegrees: v.lon1))
        let b = try #require(GeoCoordinate(latitudeDegrees: v.lat2, longitudeDegrees: v.lon2))
        let bd = BearingDistance.between(a, b)
        #expect(abs(wrappedDegrees180(bd.bearingDegrees - v.meanAzimuthDegrees)) < 0.05)
        #expect(abs(bd.distanceMeters - v.distanceMeters) / v.distanceMeters < 0.001)
    }

    /// The Inverse table of docs/dynamics-and-follow.md §6.3 (GeographicLib 2.1).
    @Test("docs/dynamics-and-follow.md §6.3 inverse vectors", arguments: [
        (45.0, 7.0, 45.0005, 7.0005, 68.130467, 35.355007118, 35.355360673),
        (52.52, 13.405, 52.5201, 13.4052, 17.553642, 50.659500378, 50.659659092),
        (70.0, 20.0, 70.0, 20.01, 381.865412, 89.995301537, 90.004698463),
        (0.0, 0.0, 0.0001, 0.0001, 15.690347, 45.192423216, 45.192423216),
        (37.7749, -122.4194, 37.775, -122.4196, 20.824469, -57.792275825, -57.792398337),
    ])
    func referenceDocVectors(_ v: (Double, Double, Double, Double, Double, Double, Double)) throws {
        let a = try #require(GeoCoordinate(latitudeDegrees: v.0, longitudeDegrees: v.1))
        let b = try #require(GeoCoordinate(latitudeDegrees: v.2, longitudeDegrees: v.3))
        let bd = BearingDistance.between(a, b)
        let mean = (v.5 + v.6) / 2
        #expect(abs(wrappedDegrees180(bd.bearingDegrees - mean)) < 0.001)
        #expect(abs(bd.distanceMeters - v.4) < 1e-4)
    }

    @Test("across the antimeridian the distance is short, not half the globe")
    func antimeridian() throws {
        // Given two points 0.001° of longitude apart on either side of ±180° at 45°N
        let west = try #require(GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 179.9995))
        let east = try #require(GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: -179.9995))
        // When measured on the plane
        let bd = BearingDistance.between(west, east)
        // Then it is ~78.8 m due east (N·cos45°·Δλ), and the way back is due west
        #expect(abs(bd.distanceMeters - 78.846) < 0.01)
        #expect(abs(wrappedDegrees180(bd.bearingDegrees - 90)) < 1e-6)
        #expect(abs(wrappedDegrees180(BearingDistance.between(east, west).bearingDegrees - 270)) < 1e-6)
    }

    @Test("raw degree differences would be ~9.9° off at 45° latitude; the plane is not")
    func notNaiveAtHighLatitude() throws {
        // Given a diagonal displacement at 45°N where the naive formula's error peaks
        let a = try #require(GeoCoordinate(latitudeDegrees: 45, longitudeDegrees: 7))
        let b = try #require(GeoCoordinate(latitudeDegrees: 45.0005, longitudeDegrees: 7.0005))
        let naive = normalizedDegrees360(degrees(fromRadians: _atan2(0.0005, 0.0005)))
        let bd = BearingDistance.between(a, b)
        // Then the naive bearing (45°) is ~9.6° away from the geodesic's 35.36°, ours within 0.001°
        #expect(abs(naive - 35.355184) > 9)
        #expect(abs(bd.bearingDegrees - 35.355184) < 0.001)
    }
}
