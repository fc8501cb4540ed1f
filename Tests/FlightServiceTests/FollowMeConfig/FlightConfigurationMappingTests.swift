@testable import ARDrone
@testable import FlightService
@testable import FollowCore
@testable import MAVLink
import Testing

/// `FlightConfiguration`: what `followme run` builds its link and receivers from, per `[drone] protocol`.
@Suite("FlightConfiguration: the link and the receivers per drone protocol")
struct FlightConfigurationMappingTests {
    @Test("an AR.Drone file maps to the AR.Drone link and reads both receivers, as before")
    func arDrone() throws {
        // Given the shipped defaults (no protocol key), when they are mapped
        let flight = try FlightConfiguration(try TestDocument.flyable().parse().get())
        // Then the AR.Drone link flies, both receivers are read, and the mount offset applies
        let link = try #require(flight.link as? DroneLinkConfiguration, "\(flight.link)")
        #expect(link.address == "192.168.1.1" && link.atPort == 5556 && link.navdataPort == 5554)
        #expect(flight.subscriptions.map(\.role) == [.target, .onboard])
        #expect(flight.follow.mountOffsetDegrees == 90)
    }

    @Test("a MAVLink file maps every [mavlink] key, the set-point scale and the take-off altitude onto the link")
    func mavlink() throws {
        // Given a MAVLink file for PX4 SITL with the autopilot's position and a sideways mount offset left in
        let config = try TestDocument(entries: [
            ("drone", "protocol", "\"mavlink\""), ("onboard", "mount_offset_deg", "90"),
            ("follow", "altitude_m", "4"), ("follow", "max_tilt_deg", "25"), ("follow", "standoff_m", "12"),
            ("mavlink", "address", "\"10.0.0.2\""), ("mavlink", "port", "14580"), ("mavlink", "local_port", "14540"),
            ("mavlink", "system_id", "254"), ("mavlink", "component_id", "191"), ("mavlink", "target_system", "1"),
            ("mavlink", "autopilot", "\"px4\""),
        ]).parse().get()
        // When it is mapped
        let flight = try FlightConfiguration(config)
        // Then the MAVLink link gets every key
        let link = try #require(flight.link as? MAVLinkLinkConfiguration, "\(flight.link)")
        #expect(link.address == "10.0.0.2" && link.port == 14580 && link.localPort == 14540)
        #expect(link.systemID == 254 && link.componentID == 191 && link.targetSystem == 1)
        #expect(link.autopilot == .px4 && link.positionSource == .autopilot)
        // And the set-points are bounded by the flight's own limits, taking off to the follow altitude
        #expect(link.setpoints == VelocitySetpointLimits(follow: flight.follow))
        #expect(link.takeoffAltitudeMeters == 4)
        // And the core counts on PX4's own velocity loop (its acceleration limit for braking), not the tilt model
        #expect((flight.vehicle.build(flight.follow) as? AutopilotVehicleModel)?.response == .px4Defaults)
        // And only the target receiver is read, with no mount offset on the autopilot's heading
        #expect(flight.subscriptions.map(\.role) == [.target])
        #expect(flight.follow.mountOffsetDegrees == 0)
    }

    @Test("every [drone] protocol and [mavlink] autopilot a file may name is a registered family's model")
    func everyChoiceIsRegistered() {
        for linkProtocol in FollowMeConfiguration.LinkProtocol.allCases {
            let family = DroneFamilyRegistry.shipped.family(named: linkProtocol.rawValue)
            #expect(family != nil, "\(linkProtocol)")
            let variants: [String?] = linkProtocol == .mavlink
                ? FollowMeConfiguration.Autopilot.allCases.map(\.rawValue) : [nil]
            for variant in variants {
                #expect(family?.vehicleModel(variant: variant) != nil, "\(linkProtocol) \(variant ?? "-")")
            }
        }
        #expect(DroneFamilyRegistry.shipped.family(named: "ardrone")?.vehicleModel(variant: "px4") == nil)
    }

    @Test("a MAVLink file with the onboard receiver as position source reads both receivers, mount offset applied")
    func mavlinkWithReceiver() throws {
        let config = try TestDocument.flyable([
            ("drone", "protocol", "\"mavlink\""), ("mavlink", "position_source", "\"receiver\""),
            ("onboard", "mount_offset_deg", "-45"),
        ]).parse().get()
        let flight = try FlightConfiguration(config)
        let link = try #require(flight.link as? MAVLinkLinkConfiguration, "\(flight.link)")
        #expect(link.positionSource == .receiver && link.autopilot == .ardupilot)
        #expect(link.address == "127.0.0.1" && link.port == 14550 && link.localPort == 0)
        #expect(link.systemID == 245 && link.componentID == 190 && link.targetSystem == 0)
        #expect(flight.subscriptions.map(\.role) == [.target, .onboard])
        #expect(flight.follow.mountOffsetDegrees == 315)
    }
}
