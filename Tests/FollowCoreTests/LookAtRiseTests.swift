@testable import FollowCore
import Testing

/// `LinkCommand.lookAtRiseMeters`: where the camera aims in height — the person's filtered 3-D altitude's
/// rise since take-off (`FlightStateMachine.personRiseMeters`), in any altitude mode (docs/mavlink.md §7.13).
@Suite("Look at the person: their rise since take-off")
struct LookAtRiseTests {
    @Test("a person 15 m up a slope: the link is told to look 15 m above home's ground, not at it")
    func riseReachesTheLink() throws {
        // Given a flight that took off with the person's receiver at 100 m and is following
        var world = try World()
        world.personAltitude = 100
        world.flyToFollowing()
        #expect(world.state == .following)
        let start = try #require(world.sentCommand.lookAt == nil ? nil : world.sentCommand)
        #expect(abs((start.lookAtRiseMeters ?? .nan) - 0) < 0.5, "\(String(describing: start.lookAtRiseMeters))")
        // When the person stands 15 m higher (a lasting step: the filter re-seeds and follows)
        world.personAltitude = 115
        world.run(for: 30)
        // Then the command that points the camera carries a 15 m rise
        let command = world.sentCommand
        #expect(command.lookAt != nil)
        #expect(abs((command.lookAtRiseMeters ?? .nan) - 15) < 0.5, "\(String(describing: command.lookAtRiseMeters))")
        #expect(abs((world.machine.personRiseMeters ?? .nan) - 15) < 0.5)
    }

    @Test("no lookAt, no rise: a command without the person carries neither")
    func riseOnlyWithLookAt() {
        #expect(LinkCommand(flying: true, lookAtRiseMeters: 3).lookAtRiseMeters == nil)
        let person = GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)!
        #expect(LinkCommand(flying: true, lookAt: person, lookAtRiseMeters: 3).lookAtRiseMeters == 3)
    }
}
