import FollowCore
import Foundation
import Links
import MAVLink
import Testing

/// The file the MAVLink link keeps a flight's frame in, for a restart (docs/mavlink.md §7.2).
@Suite struct FlightFrameFileTests {
    @Test("the file: written (0600), read back, removed; a missing or malformed one is no record")
    func file() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frame-\(UUID().uuidString).json").path
        defer { unlink(path) }
        let file = FlightFrameFile(path: path)
        #expect(file.read() == nil)
        let record = FlightFrameRecord(systemID: 1, bootMilliseconds: 123_456, homeMSLMeters: 412.5)
        #expect(file.write(record))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(file.read() == record)
        #expect(file.write(nil) && file.read() == nil && file.write(nil))
        try "{\"systemID\":".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(file.read() == nil)
    }

    @Test("the flight's home and the person's rise go with the frame; a record written without them reads back without them")
    func frame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frame-\(UUID().uuidString).json").path
        defer { unlink(path) }
        let file = FlightFrameFile(path: path)
        let home = try #require(GeoCoordinate(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417))
        let record = FlightFrameRecord(systemID: 1, bootMilliseconds: 5_000, homeMSLMeters: 412.5,
                                       frame: FlightFrame(home: home, personRiseMeters: 6.2))
        #expect(file.write(record))
        #expect(file.read()?.frame == FlightFrame(home: home, personRiseMeters: 6.2))
        try #"{"systemID":1,"bootMilliseconds":5000,"homeMSLMeters":412.5}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(file.read()?.homeMSLMeters == 412.5 && file.read()?.frame == nil)
    }
}
