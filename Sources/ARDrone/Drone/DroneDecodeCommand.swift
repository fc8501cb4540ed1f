import FlightService
import ArgumentParser
import ARDrone
import Foundation

/// `followme drone decode FILE`: print one captured navdata packet as JSON.
///
/// Modules: ARDroneProtocol (the decoder, `Navdata(bytes:)`) and ShellSupport (`JSONLine`, through
/// `NavdataJSON`: the JSON document and the person-readable decoder errors); no link, no config.
/// Exit 2 when the file is not a valid packet.
struct DroneDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print a captured navdata packet (one raw UDP payload) as JSON.",
        discussion: """
            Output: {"file":…,"bytes":…,"header":{"magic":…,"state":…,"sequence":…,"vision_flag":…},
            "state_flags":{"flying":false,…},"options":[{"tag":0,"name":"demo","size":148,…},…],
            "checksum":{"value":…,"valid":true}}. Exit 2 with the reason if the file is not a valid packet.
            """
    )

    @Argument(help: "File holding exactly one navdata packet (e.g. a capture of UDP port 5554).")
    var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("followme drone decode: cannot read \(file)")
            throw ExitCode(2)
        }
        let bytes = [UInt8](data)
        do {
            let navdata = try Navdata(bytes: bytes)
            print(NavdataJSON.document(navdata, bytes: bytes, file: file))
        } catch {
            printError("followme drone decode: \(file) is not a valid navdata packet: \(NavdataJSON.describe(error))")
            throw ExitCode(2)
        }
    }
}
