import Foundation  // test-only: read the generated vectors from the test bundle

/// One WGS84 geodesic from GeographicLib (`Fixtures/geodesic-vectors.csv`, written by
/// scripts/gen-geodesic-vectors.py; docs/dynamics-and-follow.md §6.3): start, end, length in metres,
/// start azimuth and the mean of start/end azimuths in degrees [0, 360).
struct GeodesicVector: Sendable, CustomStringConvertible {
    let lat1, lon1, lat2, lon2, distanceMeters, azimuth1Degrees, meanAzimuthDegrees: Double
    var description: String { "(\(lat1), \(lon1)) → (\(lat2), \(lon2)) \(distanceMeters) m" }
}

/// The vectors of `Fixtures/geodesic-vectors.csv` (empty if the file is missing: the tests that use
/// them check the count).
let geodesicReferenceVectors: [GeodesicVector] = {
    guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil),
        let text = try? String(contentsOf: directory.appendingPathComponent("geodesic-vectors.csv"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").compactMap { line in
        let values = line.split(separator: ",").compactMap { Double($0) }
        guard values.count == 7 else { return nil }  // comment, header
        return GeodesicVector(lat1: values[0], lon1: values[1], lat2: values[2], lon2: values[3],
                              distanceMeters: values[4], azimuth1Degrees: values[5], meanAzimuthDegrees: values[6])
    }
}()
