@testable import FlightRecords
import Foundation
import Testing

/// `followme watch`'s screen as a pure function: a status and a terminal size in, the exact lines out.
@Suite("FlightStatusScreen: the lines of followme watch")
struct FlightStatusScreenTests {
    /// A flight 42 s in, following a person 11.2 m south-west, three transitions behind it.
    static let following = FlightStatus { s in
        s.t = 1042
        s.flightSeconds = 42
        s.state = "following"
        s.reason = "altitude-reached"
        s.stateSinceT = 1029.6
        s.standoffMeters = 11
        s.person = .init(distanceMeters: 11.24, bearingDegrees: 213.4, relativeBearingDegrees: -2.6)
        s.target = .init(mode: 3, ephMeters: 2.14, ageSeconds: 0.31, latitudeDegrees: 48.858312, longitudeDegrees: 2.2945,
                         lost: nil)
        s.onboard = .init(mode: 2, ephMeters: 17.1, ageSeconds: 0.08, latitudeDegrees: -33.85, longitudeDegrees: -151.2,
                          lost: nil)
        s.headingDegrees = 359.7
        s.headingAgeSeconds = 0.12
        s.altitudeMeters = 2.95
        s.batteryPercent = 87.4
        s.droneState = "flying"
        s.emergency = false
        s.navdataAgeSeconds = 0.02
        s.navdataHertz = 15.04
        s.commandsPerSecond = 86.2
        s.transitions = [
            .init(t: 1005.2, from: "preflight(waiting: drone-configuration)", to: "taking-off", reason: "prerequisites-met"),
            .init(t: 1025.6, from: "taking-off", to: "climbing", reason: "airborne-confirmed"),
            .init(t: 1029.6, from: "climbing", to: "following", reason: "altitude-reached"),
        ]
    }

    @Test("a following flight on a 100 × 30 terminal: every value with its unit, in aligned columns")
    func liveScreen() {
        // Given a status that arrived 0.2 s ago, when it is drawn on 100 × 30
        let lines = FlightStatusScreen.lines(.live(Self.following, socketPath: "/run/followme/status.sock", receivedSecondsAgo: 0.2),
                                             columns: 100, rows: 30)
        // Then these are the exact lines
        let expected = [
            "FollowMe watch · /run/followme/status.sock                          flight 00:42 · updated 0.2 s ago",
            "",
            "STATE     following                                   for 12 s",
            "REASON    altitude-reached",
            "PERSON    distance  11.2 m       standoff  11.0 m       bearing   213° SW      off nose  -3°",
            "DRONE     heading   000° N       altitude  3.0 m        battery   87 %         navdata   flying",
            "LINK      navdata   15.0 Hz      commands  86.2 /s      navdata age  0.0 s        heading age  0.1 s",
            "",
            "RECEIVER  mode  eph       age       position",
            "target    3D    2.1 m     0.3 s     48.858312° N  2.294500° E",
            "onboard   2D    17.1 m    0.1 s     33.850000° S  151.200000° W",
            "",
            "CHANGES   flight    ago       state                           reason",
            "          00:05     36 s      taking-off                      prerequisites-met",
            "          00:25     16 s      climbing                        airborne-confirmed",
            "          00:29     12 s      following                       altitude-reached",
            "",
            "L lands · H holds · R resumes · q or Ctrl-C quits · the flight does not depend on this view",
        ]
        #expect(lines == expected, "got:\n\(lines.joined(separator: "\n"))")
    }

    @Test("the MODE row: the follow mode in use, with the angle or the orbit's direction; none without it", arguments: [
        ("leash", "leash"), ("angle", "angle -90°"), ("orbit", "orbit counterclockwise"),
    ])
    func modeRow(mode: String, shown: String) throws {
        // Given a following status with the mode the flight reports
        var status = Self.following
        status.follow = .init { ($0.mode, $0.angleDegrees, $0.orbitDirection) = (mode, -90, "counterclockwise") }
        // When it is drawn, the MODE row follows REASON; and the JSON carries it under "follow"
        let lines = FlightStatusScreen.lines(.live(status, socketPath: "/s", receivedSecondsAgo: 0.2), columns: 100, rows: 30)
        #expect(lines[4] == "MODE      " + shown, "got:\n\(lines.joined(separator: "\n"))")
        #expect(status.jsonLine().contains(#""follow":{"angle_deg":-90,"mode":"\#(mode)","orbit_direction":"counterclockwise"}"#),
                "\(status.jsonLine())")
        #expect(FlightStatus.decode(jsonLine: status.jsonLine())?.follow == status.follow)
        #expect(!FlightStatusScreen.lines(.live(Self.following, socketPath: "/s", receivedSecondsAgo: 0.2), columns: 100, rows: 30)
            .contains { $0.hasPrefix("MODE") })
    }

    @Test("any terminal size: never more lines than rows nor wider than columns; the footer stays", arguments: [
        (100, 30), (80, 24), (60, 12), (40, 8), (20, 3), (100, 1),
    ])
    func fitsTheTerminal(columns: Int, rows: Int) {
        // Given a status with the most transitions a snapshot carries
        var status = Self.following
        for i in 0..<FlightStatus.transitionsKept {
            status.transitions.append(.init(t: 1030 + Double(i), from: "x", to: "holding(target-stale)", reason: "hold:target-stale"))
        }
        for view in [FlightStatusScreen.View.live(status, socketPath: "/s", receivedSecondsAgo: 0),
                     .waiting(socketPath: "/s", problem: "connect: No such file or directory", waitingSeconds: 3, lastSeen: status)] {
            // When it is drawn
            let lines = FlightStatusScreen.lines(view, columns: columns, rows: rows)
            // Then it fits, and (with room for more than one line) ends with how to quit
            #expect(lines.count <= rows && !lines.isEmpty)
            #expect(lines.allSatisfy { $0.count <= columns }, "\(lines)")
            if rows > 1 { #expect(lines.last?.hasPrefix(String("L lands · H holds".prefix(columns))) == true, "\(lines)") }
        }
    }

    @Test("an 80-column terminal: the value pairs wrap onto indented lines instead of being cut")
    func eightyColumns() {
        let lines = FlightStatusScreen.lines(.live(Self.following, socketPath: "/run/followme/status.sock", receivedSecondsAgo: 0.2),
                                             columns: 80, rows: 24)
        #expect(Array(lines[4...9]) == [
            "PERSON    distance  11.2 m       standoff  11.0 m       bearing   213° SW",
            "          off nose  -3°",
            "DRONE     heading   000° N       altitude  3.0 m        battery   87 %",
            "          navdata   flying",
            "LINK      navdata   15.0 Hz      commands  86.2 /s      navdata age  0.0 s",
            "          heading age  0.1 s",
        ], "got:\n\(lines.joined(separator: "\n"))")
        #expect(lines.count == 21 && lines.last?.hasPrefix("L lands · H holds") == true, "three transitions fit")
        #expect(lines.contains("          00:29     12 s      following                       altitude-reached"))
    }

    @Test("a short terminal keeps the newest transitions")
    func shortTerminalKeepsNewestTransitions() {
        // Given three transitions and a terminal with room for one of them
        let lines = FlightStatusScreen.lines(.live(Self.following, socketPath: "/s", receivedSecondsAgo: 0), columns: 100, rows: 16)
        // Then the list shows the last transition only, the footer still at the bottom
        #expect(lines.count == 16)
        #expect(lines.contains { $0.contains("following") && $0.contains("altitude-reached") && $0.hasPrefix("          00:29") })
        #expect(!lines.contains { $0.contains("prerequisites-met") })
        #expect(lines.last?.hasPrefix("L lands · H holds") == true)
    }

    @Test("a long socket path is shortened from its start; flight time and freshness stay at the right edge")
    func longPath() {
        let path = "/tmp/followme-watch-6FBC2F26-2608-4C09-89C7-1F10ECA7EF18/deeper/still/status.sock"
        let header = FlightStatusScreen.lines(.live(Self.following, socketPath: path, receivedSecondsAgo: 0.2), columns: 100, rows: 30)[0]
        #expect(header.count == 100)
        #expect(header.hasPrefix("FollowMe watch · …") && header.contains("still/status.sock"), "\(header)")
        #expect(header.hasSuffix(" flight 00:42 · updated 0.2 s ago"), "\(header)")
    }

    @Test("a status older than 2 s says so in the header")
    func staleStatus() {
        let fresh = FlightStatusScreen.lines(.live(Self.following, socketPath: "/s", receivedSecondsAgo: 1.9), columns: 100, rows: 30)
        let stale = FlightStatusScreen.lines(.live(Self.following, socketPath: "/s", receivedSecondsAgo: 3.4), columns: 100, rows: 30)
        #expect(fresh[0].hasSuffix("updated 1.9 s ago"))
        #expect(stale[0].hasSuffix("NO UPDATE for 3 s"))
    }

    @Test("waiting: where it looks, why it cannot connect, how long, and the last state of a flight that went away")
    func waitingScreen() {
        // Given no flight yet
        let waiting = FlightStatusScreen.lines(
            .waiting(socketPath: "/run/followme/status.sock", problem: "connect: No such file or directory", waitingSeconds: 75),
            columns: 100, rows: 30)
        #expect(waiting == [
            "FollowMe watch · /run/followme/status.sock",
            "",
            "WAITING   for `followme run` to publish its status on",
            "          /run/followme/status.sock",
            "          connect: No such file or directory",
            "          retrying every 0.5 s · waiting 1 min 15 s",
            "",
            "          (start the flight, or point --socket at its [status] socket)",
            "",
            "L lands · H holds · R resumes · q or Ctrl-C quits · the flight does not depend on this view",
        ], "got:\n\(waiting.joined(separator: "\n"))")
        // Given a flight that went away after landing
        var last = Self.following
        (last.state, last.reason, last.flightSeconds) = ("landed", "landed-confirmed", 125)
        let gone = FlightStatusScreen.lines(
            .waiting(socketPath: "/s", problem: "the flight went away", waitingSeconds: 2, lastSeen: last), columns: 100, rows: 30)
        #expect(gone.contains("LAST SEEN landed                          at flight time 02:05 · landed-confirmed"), "\(gone)")
    }

    @Test("values without a source show a dash, a lost receiver says why", arguments: [true, false])
    func missingValues(lost: Bool) {
        // Given a status before any navdata, the person's receiver lost or never heard
        var s = FlightStatus()
        s.state = "preflight(waiting: navdata,target-fix)"
        if lost { s.target = .init(mode: nil, ephMeters: nil, ageSeconds: nil, latitudeDegrees: nil, longitudeDegrees: nil, lost: "no fix (mode 1)") }
        let lines = FlightStatusScreen.lines(.live(s, socketPath: "/s", receivedSecondsAgo: 0), columns: 100, rows: 30)
        #expect(lines.contains("DRONE     heading   -            altitude  -            battery   -            navdata   -"))
        #expect(lines.contains(lost ? "target    -     -         -         LOST: no fix (mode 1)" : "target    no fix yet"), "\(lines)")
        #expect(lines.contains("CHANGES   none yet"))
    }

    @Test("a receiver's sky (gpsd SKY): satellites used/in view and HDOP after the position, and in the JSON")
    func skyQuality() throws {
        // Given the following flight whose target receiver reported 7 of 12 satellites used, HDOP 1.14,
        // and whose onboard receiver said nothing of its sky
        var s = Self.following
        s.target?.satellitesUsed = 7
        s.target?.satellitesVisible = 12
        s.target?.hdop = 1.14
        let lines = FlightStatusScreen.lines(.live(s, socketPath: "/s", receivedSecondsAgo: 0), columns: 100, rows: 30)
        // Then the target row ends with them, the onboard row is unchanged, and the JSON carries them
        #expect(lines.contains("target    3D    2.1 m     0.3 s     48.858312° N  2.294500° E   sats 7/12 hdop 1.1"), "\(lines)")
        #expect(lines.contains("onboard   2D    17.1 m    0.1 s     33.850000° S  151.200000° W"))
        let line = s.jsonLine()
        #expect(line.contains(#""sats_used":7"#) && line.contains(#""sats_seen":12"#) && line.contains(#""hdop":1.14"#), "\(line)")
        #expect(FlightStatus.decode(jsonLine: line) == s)
        // A receiver that sent only the DOP shows what it does not know as "?".
        #expect(FlightStatusScreen.skyText(used: nil, visible: nil, hdop: 2.26) == "sats ?/? hdop 2.3")
        #expect(FlightStatusScreen.skyText(used: nil, visible: nil, hdop: nil) == nil)
    }

    @Test("JSON line: snake_case keys with units, and it decodes to the same status")
    func jsonRoundTrip() throws {
        let line = Self.following.jsonLine()
        #expect(!line.contains("\n"))
        for key in [#""state":"following""#, #""distance_m":11.24"#, #""eph_m":2.14"#, #""battery_pct":87.4"#,
                    #""navdata_hz":15.04"#, #""commands_per_s":86.2"#, #""reason":"altitude-reached""#] {
            #expect(line.contains(key), "\(key) in \(line)")
        }
        #expect(FlightStatus.decode(jsonLine: line) == Self.following)
        #expect(FlightStatus.decode(jsonLine: "not json") == nil)
    }

    @Test("the terminal status line of followme run is built from the same status")
    func statusLine() {
        #expect(Self.following.statusLine == "following | dist 11.2m | target 0.3s | onboard 0.1s | batt 87% alt 3.0m")
        #expect(FlightStatus().statusLine == " | target - | onboard -")
    }
}
