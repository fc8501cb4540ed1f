import Testing
@testable import FlightService

/// `[drone] protocol` and `[mavlink]` (issue 16): defaults that leave every existing file meaning what
/// it did, FILE:LINE: KEY problems, keys the chosen link does not use, and the rendering.
@Suite("Config: [drone] protocol and [mavlink]")
struct MAVLinkConfigTests {
    /// A flyable MAVLink document: `protocol = "mavlink"` plus `overrides`.
    static func mavlinkDocument(_ overrides: [(table: String, key: String, value: String)] = []) -> TestDocument {
        TestDocument.flyable([("drone", "protocol", "\"mavlink\"")] + overrides)
    }

    /// What `followme config check etc/followme.toml` printed (after its header line) before these keys
    /// existed, captured from a build of 351a7e6 (FollowMeConfig, FollowCore and TextFormats as at 83f2c7b,
    /// the commit before them): an AR.Drone file must still print each of these lines byte for byte, in
    /// this order (keys added since only add lines), since the flight log records this text and people diff it.
    static let renderedBeforeMAVLink = """
# FollowMe effective configuration: every key, defaults filled in.

[gpsd]
host = "127.0.0.1"
port = 2947  # 1 to 65535

[target]
device = "/dev/gpstarget"  # "" = any device on its gpsd
host = "127.0.0.1"
port = 2947  # 1 to 65535
rate_hz = "max"  # "max", "device" or Hz 0.5 to 20

[onboard]
device = "/dev/gpsonboard"  # "" = any device on its gpsd
host = "127.0.0.1"
port = 2947  # 1 to 65535
mount_offset_deg = 90.0  # degrees clockwise, receiver heading → drone nose
rate_hz = "device"  # "max", "device" or Hz 0.5 to 20

[drone]
address = "192.168.1.1"
at_port = 5556  # UDP, 1 to 65535
navdata_port = 5554  # UDP, 1 to 65535
outdoor = true
altitude_max_m = 10.0  # m, 1 to 100

[follow]
standoff_m = 11.0  # m, 2 to 50
altitude_m = 3.0  # m, 1 to drone.altitude_max_m
max_tilt_deg = 20.0  # degrees, 3 to 30
max_yaw_rate_dps = 120.0  # degrees/s, 40 to 350
max_climb_mps = 0.7  # m/s, 0.2 to 2

[failsafe]
target_timeout_s = 1.5  # s, 0.2 to 10
land_after_s = 10.0  # s, 1 to 120, > target_timeout_s
onboard_timeout_s = 1.5  # s, 0.2 to 10
heading_timeout_s = 1.5  # s, 0.2 to 10
navdata_timeout_s = 0.5  # s, 0.1 to 5
min_battery_pct = 25  # %, 5 to 90
geofence_m = 1000.0  # m, 10 to 2000
max_target_distance_m = 50.0  # m, 10 to 500
min_separation_m = 3.0  # m, 1 to follow.standoff_m - 0.5 - gps_relative_error_m
gps_relative_error_m = 4.0  # m, 0 to 20
takeoff_timeout_s = 5.0  # s, 1 to 30
climb_timeout_s = 20.0  # s, 5 to 120
low_battery_confirm_s = 2.0  # s, 0 to 30
critical_battery_pct = 15  # %, 0 to 90, the lower of it and min_battery_pct applies
max_eph_m = 100.0  # m, 5 to 1000
max_fix_lag_s = 1.5  # s, 0.2 to 10

[log]
path = ""  # "" = none; a fixed file every flight appends to
directory = "out/flights"  # "" = none; one file per flight
max_flights = 50  # flights, 0 to 100000, 0 = no limit
max_total_mb = 200  # MB, 0 to 1000000, 0 = no limit

[status]
socket = "out/followme.sock"  # "" = none

"""

    @Test("defaults: an AR.Drone, and [mavlink] at 127.0.0.1:14550 as GCS 245/190, ArduPilot, the autopilot's position")
    func defaults() {
        let d = FollowMeConfiguration.defaults
        #expect(d.drone.linkProtocol == .ardrone)
        let m = d.mavlink
        #expect(m.address == "127.0.0.1" && m.port == 14550 && m.localPort == 0)
        #expect(m.systemID == 245 && m.componentID == 190 && m.targetSystem == 0)
        #expect(m.autopilot == .ardupilot && m.positionSource == .autopilot)
        #expect(d.readsOnboardReceiver)
    }

    /// `rendered` (a `renderedTOML()` text, ending in a newline) split into the lines of the keys and tables
    /// ``renderedBeforeMAVLink`` had, and the `table.key` of every other line (a new table goes whole).
    static func splitByKeysBeforeMAVLink(_ rendered: String) -> (before: String, added: [String]) {
        func keys(_ block: Substring) -> (table: String, keys: [String]) {
            let lines = block.split(separator: "\n")
            let table = lines.first.map { String($0.dropFirst().dropLast()) } ?? ""
            return (table, lines.dropFirst().map { "\(table).\($0.prefix { $0 != " " })" })
        }
        let old = renderedBeforeMAVLink.split(separator: "\n\n").dropFirst().map(keys)
        let oldKeys = Set(old.flatMap(\.keys)), oldTables = Set(old.map(\.table))
        var added: [String] = []
        var kept: [String] = []
        for (index, block) in rendered.dropLast().split(separator: "\n\n", omittingEmptySubsequences: false).enumerated() {
            guard index > 0 else { kept.append(String(block)); continue }
            let (table, blockKeys) = keys(block)
            guard oldTables.contains(table) else { added += blockKeys; continue }
            var lines = [String(block.split(separator: "\n")[0])]
            for (key, line) in zip(blockKeys, block.split(separator: "\n").dropFirst()) {
                if oldKeys.contains(key) { lines.append(String(line)) } else { added.append(key) }
            }
            kept.append(lines.joined(separator: "\n"))
        }
        return (kept.joined(separator: "\n\n") + "\n", added)
    }

    @Test("an AR.Drone file renders every line it rendered before MAVLink byte for byte, plus only keys added since")
    func arDroneRenderingUnchanged() throws {
        // Given the shipped file, and the same file without the protocol line and the [mavlink] table
        let shipped = try ShippedConfigAndRenderingTests.shippedText()
        var lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "[mavlink]"))
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("# ----") })
        lines.removeSubrange(start..<end)
        lines.removeAll { $0.hasPrefix("protocol =") }
        let withoutNewKeys = lines.joined(separator: "\n")
        let locator = TOMLLineLocator(text: withoutNewKeys)
        #expect(locator.line(of: ["mavlink"]) == nil && locator.line(table: "drone", key: "protocol") == nil)
        for text in [shipped, withoutNewKeys] {
            // When each is parsed and rendered (with the checkout's status socket, as config check shows it)
            let c = try FollowMeConfiguration.parse(toml: text, path: "etc/followme.toml")
            // Then it is an AR.Drone configuration that prints every line it printed before, unchanged and
            // in order, plus one line per key added since: neither drone.protocol nor [mavlink]
            #expect(c.drone.linkProtocol == .ardrone && c.mavlink == .defaults)
            let (before, added) = Self.splitByKeysBeforeMAVLink(c.renderedTOML())
            #expect(before == Self.renderedBeforeMAVLink)
            let printed = ConfigKeys.all.filter { !$0.printedOnlyWithMAVLink }.map(\.dotted)
            #expect(added == printed.filter { added.contains($0) } && Set(added).isSubset(of: printed))
            #expect(added.contains("failsafe.max_wind_mps") && added.contains("web.listen"))
        }
    }

    @Test("a MAVLink file reads every [mavlink] key and round-trips through the rendering")
    func mavlinkValuesRoundTrip() throws {
        // Given a MAVLink file with every [mavlink] key away from its default
        let c = try Self.mavlinkDocument([
            ("mavlink", "address", "\"px4.local\""), ("mavlink", "port", "14580"), ("mavlink", "local_port", "14540"),
            ("mavlink", "system_id", "254"), ("mavlink", "component_id", "191"), ("mavlink", "target_system", "1"),
            ("mavlink", "autopilot", "\"px4\""), ("mavlink", "position_source", "\"receiver\""),
        ]).parse().get()
        #expect(c.drone.linkProtocol == .mavlink)
        #expect(c.mavlink.address == "px4.local" && c.mavlink.port == 14580 && c.mavlink.localPort == 14540)
        #expect(c.mavlink.systemID == 254 && c.mavlink.componentID == 191 && c.mavlink.targetSystem == 1)
        #expect(c.mavlink.autopilot == .px4 && c.mavlink.positionSource == .receiver)
        // When it is rendered and parsed again
        let text = c.renderedTOML()
        #expect(text.contains("[drone]\nprotocol = \"mavlink\"  # \"ardrone\" or \"mavlink\"\naddress = "))
        #expect(text.contains("\n[mavlink]\naddress = \"px4.local\"\nport = 14580  # UDP, 1 to 65535\n"
            + "local_port = 14540  # UDP port, 0 to 65535, 0 = any free port\n"))
        #expect(text.contains("\ntarget_system = 1  # MAVLink id, 0 to 255, 0 = the first vehicle heard\n"))
        #expect(text.contains("\nposition_source = \"receiver\"  # \"autopilot\" or \"receiver\"\n"))
        // Then nothing changed
        #expect(try FollowMeConfiguration.parse(toml: text, path: "rendered") == c)
        // And the defaults of a MAVLink file round-trip too
        let plain = try Self.mavlinkDocument().parse().get()
        #expect(plain.mavlink == .defaults)
        #expect(try FollowMeConfiguration.parse(toml: plain.renderedTOML(), path: "rendered") == plain)
    }

    @Test("an unknown protocol, autopilot or position source names the key, its line and the allowed values",
          arguments: [
              ("drone.protocol", "\"parrot\"", "\"parrot\" is not one of the allowed values: \"ardrone\", \"mavlink\""),
              ("drone.protocol", "\"MAVLink\"", "\"MAVLink\" is not one of the allowed values: \"ardrone\", \"mavlink\""),
              ("mavlink.autopilot", "\"betaflight\"", "\"betaflight\" is not one of the allowed values: \"ardupilot\", \"px4\""),
              ("mavlink.position_source", "\"gps\"",
               "\"gps\" is not one of the allowed values: \"autopilot\", \"receiver\""),
          ])
    func unknownChoice(key: String, value: String, message: String) throws {
        // Given a flyable file with one unknown value, when it is parsed
        let (problem, line) = try TestDocument.soleProblem(writing: key, value)
        // Then it reads FILE:LINE: KEY: what was written and what is allowed
        let written = try #require(line)
        #expect(problem.description == "\(TestDocument.path):\(written): \(key): \(message)")
    }

    @Test("FollowMe's system id must not be the vehicle's", arguments: [
        [("mavlink", "system_id", "1"), ("mavlink", "target_system", "1")],
        [("mavlink", "target_system", "245")],
    ] as [[(table: String, key: String, value: String)]])
    func systemIDClash(_ entries: [(table: String, key: String, value: String)]) throws {
        // Given a MAVLink file whose ground-station id equals the vehicle's (written, or 245 by default)
        let doc = Self.mavlinkDocument(entries)
        // When it is parsed, then mavlink.system_id is refused on the line the user wrote
        let lineKey = entries.count == 2 ? "mavlink.system_id" : "mavlink.target_system"
        let problems = try doc.expectSoleProblem(key: "mavlink.system_id", onLineOf: lineKey)
        #expect(problems.first?.description.contains("is also mavlink.target_system") == true, "\(problems)")
        // And the same values in an AR.Drone file are only unused
        #expect(TestDocument.flyable(entries).parse().failure == nil)
    }

    @Test("system_id 255, the ground stations' id, is refused naming the key and the value to set; allowed in an AR.Drone file (unused)")
    func groundStationIDRefused() throws {
        // Given a MAVLink file with FollowMe as system 255 (QGroundControl's and Mission Planner's id)
        let entries = [("mavlink", "system_id", "255")]
        let doc = Self.mavlinkDocument(entries)
        // When it is parsed, then mavlink.system_id is refused on its line, with what to set instead
        let problems = try doc.expectSoleProblem(key: "mavlink.system_id", onLineOf: "mavlink.system_id")
        let text = problems.first?.description ?? ""
        #expect(text.contains("set mavlink.system_id to 245"), "\(text)")
        #expect(text.contains("ground stations"), "\(text)")
        // And 254 passes, and an AR.Drone file only reports the key unused
        #expect(Self.mavlinkDocument([("mavlink", "system_id", "254")]).parse().failure == nil)
        #expect(TestDocument.flyable(entries).parse().failure == nil)
    }

    @Test("[mavlink] in an AR.Drone file: checked, unused, and named when set away from its default")
    func mavlinkKeysInArDroneFile() throws {
        // Given an AR.Drone file (no protocol key) that sets two [mavlink] keys, one of them to its default
        let doc = TestDocument.flyable([("mavlink", "port", "14540"), ("mavlink", "system_id", "245")])
        // When it is checked
        let (c, unused) = try FollowMeConfiguration.check(toml: doc.text, path: TestDocument.path)
        // Then it flies the AR.Drone, its [mavlink] is the defaults, and the changed key is reported at its line
        #expect(c.drone.linkProtocol == .ardrone && c.mavlink == .defaults)
        #expect(c == .defaultsWithDevices)
        let line = try #require(doc.line(of: "mavlink.port"))
        #expect(unused.map(\.description) == [
            "\(TestDocument.path):\(line): mavlink.port: not used: drone.protocol is \"ardrone\"; set "
                + "drone.protocol = \"mavlink\" to fly over MAVLink, or remove the key",
        ])
        // And a bad value there is still an error (a typo is a typo in any file)
        #expect(try TestDocument.soleProblem(writing: "mavlink.port", "0").problem.key == "mavlink.port")
    }

    @Test("the shipped file and a MAVLink file at its defaults have no unused keys")
    func noUnusedKeys() throws {
        let shipped = try ShippedConfigAndRenderingTests.shippedText()
        #expect(try FollowMeConfiguration.check(toml: shipped, path: "etc/followme.toml").unusedKeys.isEmpty)
        let doc = Self.mavlinkDocument([("onboard", "device", "\"\""), ("target", "device", "\"\"")])
        #expect(try FollowMeConfiguration.check(toml: doc.text, path: TestDocument.path).unusedKeys.isEmpty)
    }

    @Test("a MAVLink file names the AR.Drone keys it sets, and [onboard] when the autopilot gives the position")
    func arDroneAndOnboardKeysInMAVLinkFile() throws {
        // Given a MAVLink file (the autopilot's position by default) that sets drone.address and the onboard device
        let doc = Self.mavlinkDocument([("drone", "address", "\"192.168.1.2\""), ("drone", "altitude_max_m", "20")])
        // When it is checked
        let unused = try FollowMeConfiguration.check(toml: doc.text, path: TestDocument.path).unusedKeys
        // Then the AR.Drone address and the onboard device are named (altitude_max_m still caps the altitude)
        #expect(unused.map(\.key) == ["onboard.device", "drone.address"])
        #expect(unused.map(\.line) == [doc.line(of: "onboard.device"), doc.line(of: "drone.address")])
        #expect(unused[0].message.contains("mavlink.position_source is \"autopilot\""))
        // And with the onboard receiver as the position source, [onboard] is used again
        let receiver = Self.mavlinkDocument([("mavlink", "position_source", "\"receiver\"")])
        #expect(try FollowMeConfiguration.check(toml: receiver.text, path: TestDocument.path).unusedKeys.isEmpty)
    }

    @Test("the autopilot's position: no mount offset, and no onboard device to tell apart from the target")
    func autopilotPositionSource() throws {
        // Given a MAVLink file with the shipped mount offset and neither receiver named on the one gpsd
        let entries: [(table: String, key: String, value: String)] = [
            ("drone", "protocol", "\"mavlink\""), ("onboard", "mount_offset_deg", "90"),
        ]
        // When the autopilot gives the position
        let c = try TestDocument(entries: entries).parse().get()
        // Then the core turns no receiver mount into the heading, and "any device" for the target is fine
        #expect(!c.readsOnboardReceiver)
        #expect(c.followParameters.mountOffsetDegrees == 0)
        #expect(c.target.device == nil)
        // And with the onboard receiver, the mount offset applies and both devices must be named again
        let receiver = TestDocument(entries: entries + [("mavlink", "position_source", "\"receiver\"")])
        let problems = try #require(receiver.parse().failure).problems
        #expect(Set(problems.map(\.key)) == ["target.device", "onboard.device"])
        let named = try Self.mavlinkDocument([("mavlink", "position_source", "\"receiver\"")]).parse().get()
        #expect(named.readsOnboardReceiver && named.followParameters.mountOffsetDegrees == 90)
    }
}
