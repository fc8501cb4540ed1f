import Testing
@testable import FollowCore
import ARDrone
@testable import FlightService

@Suite("Cross-field rules")
struct CrossFieldTests {
    static let path = TestDocument.path

    // MARK: One written key against another key's default

    /// One key written, the other side of a cross-field rule left at its default (3 in every case):
    /// (written key, its value, the key reported, the range it is reported against).
    static let defaultConflictCases: [(written: String, value: String, reportedKey: String, range: String)] = [
        // lowering the ceiling below the default altitude reports the default, on the ceiling's line
        ("drone.altitude_max_m", "2", "follow.altitude_m", "1 to 2 (drone.altitude_max_m)"),
        // the old 6 m standoff conflicts with the default separation and GPS error, reported on the standoff's line
        // (with the standoff that keeps both: the walker rule's, so one edit fixes the file)
        ("follow.standoff_m", "6", "failsafe.min_separation_m",
         "1 to 1.5 (follow.standoff_m − 0.5 − failsafe.gps_relative_error_m); to keep it and "
            + "failsafe.gps_relative_error_m (4), set follow.standoff_m to at least 10.4"),
        // a large GPS error conflicts with the default standoff, reported on the GPS error's line
        ("failsafe.gps_relative_error_m", "8", "failsafe.min_separation_m",
         "1 to 2.5 (follow.standoff_m − 0.5 − failsafe.gps_relative_error_m); to keep it and "
            + "failsafe.gps_relative_error_m (8), set follow.standoff_m to at least 14.4"),
    ]

    @Test("a written key that conflicts with another key's default reports the default, on the written key's line",
          arguments: defaultConflictCases)
    func writtenKeyVersusDefault(_ c: (written: String, value: String, reportedKey: String, range: String)) throws {
        // Given a flyable document with one key written, when it is parsed
        let doc = TestDocument.flyable(c.written, c.value)
        // Then the other key's default (3 in every case) is out of range, on the written key's line
        #expect(try #require(doc.parse().failure).problems == [
            .outOfRange(path: Self.path, line: doc.line(of: c.written), key: c.reportedKey,
                        value: "3 (default)", range: c.range)
        ])
    }

    // MARK: follow.altitude_m ≤ drone.altitude_max_m

    @Test("altitude above the ceiling is out of range, blamed on follow.altitude_m")
    func altitudeAboveCeiling() throws {
        let doc = TestDocument.flyable([("drone", "altitude_max_m", "10"), ("follow", "altitude_m", "12")])
        #expect(try #require(doc.parse().failure).problems == [
            .outOfRange(path: Self.path, line: doc.line(of: "follow.altitude_m"), key: "follow.altitude_m",
                        value: "12", range: "1 to 10 (drone.altitude_max_m)")
        ])
    }

    @Test("altitude equal to the ceiling is allowed")
    func altitudeAtCeiling() throws {
        let c = try TestDocument.flyable([("drone", "altitude_max_m", "5"), ("follow", "altitude_m", "5")])
            .parse().get()
        #expect(c.follow.altitudeMeters == 5 && c.drone.altitudeMaxMeters == 5)
    }

    @Test("altitude_mode \"person\" with the ceiling under the 3 m default floor: altitude_min_m's default is reported too; \"takeoff\" (floor unused): not")
    func floorUnderCeilingOnlyWherePersonMode() throws {
        let doc = TestDocument.flyable([("drone", "altitude_max_m", "2"), ("follow", "altitude_m", "2"),
                                        ("follow", "altitude_mode", "\"person\"")])
        #expect(try #require(doc.parse().failure).problems == [
            .outOfRange(path: Self.path, line: doc.line(of: "drone.altitude_max_m"), key: "follow.altitude_min_m",
                        value: "3 (default)", range: "1 to 2 (drone.altitude_max_m)")
        ])
        let takeoff = try TestDocument.flyable([("drone", "altitude_max_m", "2"), ("follow", "altitude_m", "2")]).parse().get()
        #expect(takeoff.follow.altitudeFloorMeters == 3 && takeoff.followParameters.altitudeFloorMeters == 3)
        let lowered = try TestDocument.flyable([("drone", "altitude_max_m", "2"), ("follow", "altitude_m", "2"),
                                                ("follow", "altitude_mode", "\"person\""), ("follow", "altitude_min_m", "1.5")])
            .parse().get()
        #expect(lowered.followParameters.altitudeFloorMeters == 1.5 && lowered.followParameters.altitudeMode == .person)
    }

    @Test("altitude_mode \"person\" on an autopilot needs altitude_m ≥ 8 (the puck's altitude drifts); the AR.Drone and \"takeoff\" do not")
    func personAltitudeOnAutopilot() throws {
        let mavlink = [("drone", "protocol", "\"mavlink\""), ("follow", "altitude_mode", "\"person\"")]
        // Given "person" on MAVLink at the default altitude_m (3): refused, naming altitude_m and what to set
        let doc = TestDocument.flyable(mavlink)
        let problems = try #require(doc.parse().failure).problems
        #expect(problems.count == 1)
        guard case .outOfRange(_, let line, let key, let value, let range) = try #require(problems.first) else {
            Issue.record("expected out of range, got \(problems)")
            return
        }
        #expect(key == "follow.altitude_m" && value == "3 (default)" && line == doc.line(of: "follow.altitude_mode"))
        #expect(range.contains("set follow.altitude_m to at least 8") && range.contains("altitude_mode = \"takeoff\""), "\(range)")
        // A written 7.5 is blamed on its own line
        let written = TestDocument.flyable(mavlink + [("follow", "altitude_m", "7.5")])
        #expect(try #require(written.parse().failure).problems.map(\.key) == ["follow.altitude_m"])
        // At 8 (with room above for the climb) it flies; "takeoff" on MAVLink and "person" on the AR.Drone keep 3
        let high = try TestDocument.flyable(mavlink + [("follow", "altitude_m", "8"), ("drone", "altitude_max_m", "20")]).parse().get()
        #expect(high.followParameters.altitudeMeters == 8 && high.followParameters.altitudeMode == .person)
        #expect(try TestDocument.flyable([("drone", "protocol", "\"mavlink\"")]).parse().get().follow.altitudeMeters == 3)
        #expect(try TestDocument.flyable([("follow", "altitude_mode", "\"person\"")]).parse().get().follow.altitudeMode == .person)
    }

    @Test("with the ceiling rejected, altitude_m is checked against its static range only")
    func altitudeWithRejectedCeiling() throws {
        let doc = TestDocument.flyable([("drone", "altitude_max_m", "\"ten\""), ("follow", "altitude_m", "150")])
        #expect(try #require(doc.parse().failure).problems == [
            .wrongType(path: Self.path, line: doc.line(of: "drone.altitude_max_m"), key: "drone.altitude_max_m",
                       expected: "a number", found: "string \"ten\""),
            .outOfRange(path: Self.path, line: doc.line(of: "follow.altitude_m"), key: "follow.altitude_m",
                        value: "150", range: "1 to 100"),
        ])
    }

    @Test("with the standoff rejected, min_separation_m is checked against its static range only")
    func separationWithRejectedStandoff() throws {
        let doc = TestDocument.flyable([("follow", "standoff_m", "nan"), ("failsafe", "min_separation_m", "49.5")])
        #expect(try #require(doc.parse().failure).problems.map(\.key) == ["follow.standoff_m"])
    }

    // MARK: failsafe.min_separation_m + failsafe.gps_relative_error_m ≤ follow.standoff_m − 0.5

    @Test("min_separation_m + gps_relative_error_m must stay 0.5 m inside the standoff; the error names the standoff to set",
          arguments: [("6", "5.5", "0", nil), ("6", "5.6", "0", "9"), ("6", "6", "0", "9.4"),
                      ("10", "9.5", "0", nil), ("8", "3", "4", nil), ("8", "3", "4.6", "11"),
                      ("8", "3.6", "4", "11"), ("24", "3.5", "20", nil), ("4", "3", "4", "10.4")])
    func separationInsideStandoff(standoff: String, separation: String, gpsError: String, standoffToSet: String?) throws {
        let accepted = standoffToSet == nil
        let doc = TestDocument.flyable([("follow", "standoff_m", standoff), ("failsafe", "min_separation_m", separation),
                                         ("failsafe", "gps_relative_error_m", gpsError)])
        let result = doc.parse()
        if accepted {
            // (the walker rule below may still refuse the standoff; this rule must not)
            #expect(result.failure?.problems.contains { $0.key == "failsafe.min_separation_m" } != true,
                    "\(result.failure?.description ?? "")")
        } else {
            // (3 + 4 + 0.5 + the walker's 2.84 m reserve at 20° and 1 Hz = 10.34 → 10.4)
            let max = Double(standoff)! - 0.5 - Double(gpsError)!
            let note = "follow.standoff_m − 0.5 − failsafe.gps_relative_error_m"
            let allowed = max >= 1 ? "1 to \(ConfigReader.format(max)) (\(note))"
                : "none (\(note) is \(ConfigReader.format(max)), below 1)"
            #expect(result.failure?.problems == [
                .outOfRange(path: Self.path, line: doc.line(of: "failsafe.min_separation_m"),
                            key: "failsafe.min_separation_m", value: separation,
                            range: allowed + "; to keep it and failsafe.gps_relative_error_m (\(gpsError)), "
                                + "set follow.standoff_m to at least \(standoffToSet!)")
            ])
        }
    }

    @Test("a separation no standoff can hold says so instead of naming a standoff above the longest")
    func separationNoStandoffHolds() throws {
        let doc = TestDocument.flyable("failsafe.min_separation_m", "45")
        #expect(try #require(doc.parse().failure).problems == [
            .outOfRange(path: Self.path, line: doc.line(of: "failsafe.min_separation_m"), key: "failsafe.min_separation_m",
                        value: "45", range: "1 to 6.5 (follow.standoff_m − 0.5 − failsafe.gps_relative_error_m); no "
                            + "follow.standoff_m (at most 50) keeps it and failsafe.gps_relative_error_m (4): lower them")
        ])
    }

    // MARK: follow.standoff_m ≥ the shortest standoff that defends a walker heading at the drone

    @Test("the standoff must leave room for a walker heading at the drone (same rule as the flight core)",
          arguments: [
              // (standoff, min separation, GPS error, max tilt, accepted)
              ("11", "3", "4", "20", true), ("10.3", "3", "4", "20", false), ("10.4", "3", "4", "20", true),
              ("8", "2", "1.5", "20", true), ("6.8", "2", "1.5", "20", false), ("6.9", "2", "1.5", "20", true),
              // weaker braking at a lower tilt needs more room: 12° → 3 + 4 + 0.5 + 3.1
              ("10.4", "3", "4", "12", false), ("10.7", "3", "4", "12", true),
          ])
    func walkerReserve(standoff: String, separation: String, gpsError: String, tilt: String, accepted: Bool) throws {
        let doc = TestDocument.flyable([("follow", "standoff_m", standoff), ("failsafe", "min_separation_m", separation),
                                         ("failsafe", "gps_relative_error_m", gpsError), ("follow", "max_tilt_deg", tilt)])
        let result = doc.parse()
        // The flight core refuses exactly what the config refuses
        let core = Result {
            try FlightStateMachine(
                follow: FollowParameters(standoffMeters: Double(standoff)!, maxTiltDegrees: Double(tilt)!),
                failsafe: FailsafeParameters(minSeparationMeters: Double(separation)!,
                                             gpsRelativeErrorMeters: Double(gpsError)!), vehicle: .tiltLoop)
        }
        if accepted {
            #expect(result.failure == nil, "\(result.failure?.description ?? "")")
            #expect((try? core.get()) != nil)
        } else {
            let problems = try #require(result.failure).problems
            #expect(problems.map(\.key) == ["follow.standoff_m"])
            #expect(problems.first?.description.contains("set follow.standoff_m to at least") == true)
            #expect(problems.first?.description.contains("\(Self.path):\(doc.line(of: "follow.standoff_m")!)") == true)
            #expect((try? core.get()) == nil)
        }
    }

    @Test("a numeric target.rate_hz shortens the walker reserve; \"max\" counts as 1 Hz",
          arguments: [("\"max\"", false), ("1", false), ("5", true)])
    func walkerReserveUsesTheConfiguredRate(rate: String, accepted: Bool) throws {
        // 3 + 4 + 0.5 + 1.72 (5 Hz) = 9.22 ≤ 9.3 < 10.34 (1 Hz)
        let doc = TestDocument.flyable([("follow", "standoff_m", "9.3"), ("target", "rate_hz", rate)])
        let result = doc.parse()
        #expect((result.failure == nil) == accepted, "\(result.failure?.description ?? "")")
    }

    @Test("the shipped defaults with a 5 m GPS error: the walker rule names the standoff, on the GPS error's line")
    func walkerRuleBlamesTheWrittenKey() throws {
        let doc = TestDocument.flyable("failsafe.gps_relative_error_m", "5")
        let problems = try #require(doc.parse().failure).problems
        #expect(problems.map(\.key) == ["follow.standoff_m"])
        #expect(problems.first?.description.hasPrefix("\(Self.path):\(doc.line(of: "failsafe.gps_relative_error_m")!): ") == true)
        #expect(problems.first?.description.contains("at least 11.4") == true)
    }

    @Test("with the GPS error rejected, min_separation_m is checked against the standoff alone")
    func separationWithRejectedGPSError() throws {
        let doc = TestDocument.flyable([("failsafe", "gps_relative_error_m", "nan"), ("failsafe", "min_separation_m", "7.5")])
        #expect(try #require(doc.parse().failure).problems.map(\.key) == ["failsafe.gps_relative_error_m"])
    }

    // MARK: failsafe.land_after_s > failsafe.target_timeout_s

    @Test("land_after_s must be longer than target_timeout_s",
          arguments: [("1.5", "1.5", false), ("1", "1.5", false), ("1.6", "1.5", true), ("10", "9.9", true)])
    func landAfterTimeout(landAfter: String, timeout: String, accepted: Bool) throws {
        let doc = TestDocument.flyable([("failsafe", "target_timeout_s", timeout), ("failsafe", "land_after_s", landAfter)])
        let result = doc.parse()
        if accepted {
            #expect(result.failure == nil)
        } else {
            let problems = try #require(result.failure).problems
            try #require(problems.count == 1)
            guard case .invalid(_, let line, let key, let reason) = problems[0] else {
                Issue.record("expected .invalid, got \(problems[0])")
                return
            }
            #expect(key == "failsafe.land_after_s" && line == doc.line(of: "failsafe.land_after_s"))
            #expect(reason.contains("must be longer than failsafe.target_timeout_s (\(timeout))"))
        }
    }

    @Test("raising target_timeout_s to the default land_after_s is reported on the timeout's line")
    func timeoutReachesDefaultLanding() throws {
        let doc = TestDocument.flyable("failsafe.target_timeout_s", "10")
        let problems = try doc.expectSoleProblem(key: "failsafe.land_after_s", onLineOf: "failsafe.target_timeout_s")
        #expect(problems.first?.description.contains("10 (default) must be longer") == true)
    }

    // MARK: Drone ports

    @Test("the AT and navdata ports must differ")
    func dronePortsDiffer() throws {
        let doc = TestDocument.flyable([("drone", "at_port", "5556"), ("drone", "navdata_port", "5556")])
        try doc.expectSoleProblem(key: "drone.navdata_port", onLineOf: "drone.navdata_port")
    }

    // MARK: Receiver routing

    @Test("an empty file does not fly: both receivers on one gpsd need device paths")
    func emptyFileNeedsDevices() {
        let all = problems(in: "")
        #expect(all.map(\.key) == ["target.device", "onboard.device"])
        #expect(all.allSatisfy { $0.line == nil })
        #expect(all.allSatisfy { $0.description.contains("127.0.0.1:2947") })
    }

    @Test("one missing device on a shared gpsd is reported on its table's line")
    func oneMissingDevice() throws {
        let doc = TestDocument(entries: [("target", "device", "\"/dev/gpstarget\""), ("onboard", "mount_offset_deg", "0")])
        try doc.expectSoleProblem(key: "onboard.device", onLineOf: "onboard")
    }

    @Test("the same device for both receivers on one gpsd is invalid")
    func sameDevice() throws {
        let doc = TestDocument.flyable([("target", "device", "\"/dev/gps0\""), ("onboard", "device", "\"/dev/gps0\"")])
        let problems = try doc.expectSoleProblem(key: "onboard.device", onLineOf: "onboard.device")
        #expect(problems.first?.description.contains("the drone would follow itself") == true)
    }

    @Test("loopback spellings and letter case count as the same gpsd",
          arguments: [("localhost", "127.0.0.1"), ("127.0.0.1", "127.0.1.1"), ("::1", "localhost"),
                      ("GPS.local", "gps.local")])
    func sameDaemonSpellings(targetHost: String, onboardHost: String) throws {
        let doc = TestDocument(entries: [
            ("target", "host", "\"\(targetHost)\""), ("onboard", "host", "\"\(onboardHost)\""),
        ])
        #expect(try #require(doc.parse().failure).problems.map(\.key) == ["target.device", "onboard.device"])
    }

    @Test("receivers on different gpsd daemons may leave devices empty or share a device path",
          arguments: [
              [("onboard", "port", "2948")],
              [("onboard", "host", "\"192.168.1.1\"")],
              [("onboard", "host", "\"192.168.1.1\""), ("target", "device", "\"/dev/ttyACM0\""),
               ("onboard", "device", "\"/dev/ttyACM0\"")],
          ] as [[(String, String, String)]])
    func differentDaemons(entries: [(String, String, String)]) throws {
        let doc = TestDocument(entries: entries.map { (table: $0.0, key: $0.1, value: $0.2) })
        #expect(doc.parse().failure == nil, "\(doc.parse().failure?.description ?? "")")
    }

    @Test("a rejected host suppresses the routing check (no echo problem)")
    func rejectedHostNoEcho() throws {
        let doc = TestDocument(entries: [("gpsd", "host", "\"\"")])
        #expect(try #require(doc.parse().failure).problems.map(\.key) == ["gpsd.host"])
    }
}
