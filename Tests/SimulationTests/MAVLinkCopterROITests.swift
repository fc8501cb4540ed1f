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
}
