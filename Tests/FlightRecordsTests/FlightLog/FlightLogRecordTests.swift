@testable import FlightRecords
import Foundation
@testable import FollowCore
@testable import Links
import Testing

/// The flight log's one record schema (FlightLogRecord.swift, FlightLinkRecord.swift): the lines on
/// disk are an interface (users' scripts, the fault suite), so each record must encode to exactly
/// the bytes the hand-written recorder wrote before the schema existed (field names, key order,
/// `1.0` not `1`, absent optionals left out), and decode back to itself.
@Suite("Flight log records: byte-compatible lines, decoded back")
struct FlightLogRecordTests {
    static func line(_ record: some Encodable) throws -> String { try JSONLineEncoder().encode(record) }

    static func roundTrip<R: Codable & Equatable>(_ record: R) throws -> R {
        try JSONDecoder().decode(R.self, from: Data(line(record).utf8))
    }

    @Test("a statistics line: link counters, dropped log lines, heading screen, both fix screens, in that order")
    func statisticsLine() throws {
        // Given a periodic statistics record with every part
        var r = FlightLinkRecord(t: 12.5, event: "statistics")
        var link = LinkStatisticsRecord()
        (link.datagramsSent, link.commandsSent, link.navdataRead, link.navdataReceived) = (1, 2, 3, 4)
        (link.droppedUnexpectedSource, link.droppedMalformed, link.droppedSequence, link.sequenceRestarts) = (5, 6, 7, 8)
        (link.navdataLosses, link.navdataRateHz, link.ticksLate, link.maxTickLatenessSeconds) = (9, 15.0, 10, 0.25)
        (link.sendFailures, link.eventsDropped, link.socketsClosed, link.socketsReopened, link.bootstrapRedos) = (11, 12, 13, 14, 15)
        r.link = link
        r.dropped = DroppedLogLinesRecord(logLines: 16, logLinesWaiting: 17, flightLogLines: 18)
        (r.headingReportsRejected, r.headingReanchored, r.targetAltitudeSpikesRejected) = (19, 20, 27)
        r.targetFixes = FixScreenRecord(counts: [21, 22, 23, 24, 25, 26])
        r.onboardFixes = FixScreenRecord(counts: [31, 32, 33, 34, 35, 36])

        // When it is encoded, then it is the line the recorder always wrote
        #expect(try Self.line(r) == """
            {"t":12.5,"kind":"link","event":"statistics","datagrams_sent":1,"commands_sent":2,"navdata_read":3,\
            "navdata_received":4,"dropped_unexpected_source":5,"dropped_malformed":6,"dropped_sequence":7,\
            "sequence_restarts":8,"navdata_losses":9,"navdata_rate_hz":15.0,"ticks_late":10,"max_tick_lateness_s":0.25,\
            "send_failures":11,"events_dropped":12,"sockets_closed":13,"sockets_reopened":14,"bootstrap_redos":15,\
            "log_lines_dropped":16,"log_lines_waiting":17,"flight_log_lines_dropped":18,"heading_reports_rejected":19,\
            "heading_reanchored":20,"target_altitude_spikes_rejected":27,"target_fixes_accepted":21,"target_fixes_outliers":22,"target_fixes_future_time":23,\
            "target_fixes_stale":24,"target_fixes_refused_eph":25,"target_clock_reanchors":26,"onboard_fixes_accepted":31,\
            "onboard_fixes_outliers":32,"onboard_fixes_future_time":33,"onboard_fixes_stale":34,\
            "onboard_fixes_refused_eph":35,"onboard_clock_reanchors":36}
            """)
        // And it decodes back to the same record
        #expect(try Self.roundTrip(r) == r)
    }

    @Test("each link event writes only its fields, in the recorder's order", arguments: [
        ("connected", #"{"t":1.0,"kind":"link","event":"connected","was_flying":false}"#),
        ("config-ack", #"{"t":1.0,"kind":"link","event":"config-ack","key":"control:outdoor","value":"TRUE","attempts":2}"#),
        ("socket-reopened",
         #"{"t":1.0,"kind":"link","event":"socket-reopened","socket":"at","local_port":5000,"same_port":true,"attempts":3,"down_s":0.5}"#),
        ("config-complete", #"{"t":1.0,"kind":"link","event":"config-complete","failed":""}"#),
        ("navdata-lost", #"{"t":1.0,"kind":"link","event":"navdata-lost"}"#),
    ])
    func linkEvents(event: String, expected: String) throws {
        // Given one link event as the flight loop fills it
        var r = FlightLinkRecord(t: 1, event: event)
        switch event {
        case "connected": r.wasFlying = false
        case "config-ack": (r.key, r.value, r.attempts) = ("control:outdoor", "TRUE", 2)
        case "socket-reopened": (r.socket, r.localPort, r.samePort, r.attempts, r.downSeconds) = ("at", 5000, true, 3, 0.5)
        case "config-complete": r.failed = ""
        default: break
        }
        // Then its line is the recorder's, and it decodes back
        #expect(try Self.line(r) == expected)
        #expect(try Self.roundTrip(r) == r)
    }

    @Test("start, navdata, transition, command, shutdown and final lines")
    func otherKinds() throws {
        let start = FlightStartRecord(t: 0.5, standoffMeters: 8, altitudeMeters: 5, minSeparationMeters: 4,
                                      mountOffsetDegrees: 90, dryRun: false)
        #expect(try Self.line(start) == #"{"t":0.5,"kind":"start","standoff_m":8.0,"altitude_m":5.0,"min_separation_m":4.0,"mount_offset_deg":90.0,"dry_run":false}"#)
        let navdata = FlightNavdataRecord(t: 2, seq: 7, flight: "hovering", battery: 80, alt: 1.5, yaw: nil, vx: 0.1,
                                          vy: -0.2, emergency: false)
        #expect(try Self.line(navdata) == #"{"t":2.0,"kind":"navdata","seq":7,"flight":"hovering","battery":80.0,"alt":1.5,"vx":0.1,"vy":-0.2,"emergency":false}"#)
        let transition = FlightTransitionRecord(t: 3, from: "climbing", to: "following", reason: "altitude-reached")
        #expect(try Self.line(transition) == #"{"t":3.0,"kind":"transition","from":"climbing","to":"following","reason":"altitude-reached"}"#)
        var command = FlightCommandRecord(t: 4, state: "following", intent: "fly", sentFlying: true)
        (command.roll, command.pitch, command.gaz, command.yaw, command.dist, command.relBearing) = (0.1, -0.2, 0, 0.05, 8.5, -3)
        #expect(try Self.line(command) == #"{"t":4.0,"kind":"command","state":"following","intent":"fly","sent_flying":true,"roll":0.1,"pitch":-0.2,"gaz":0.0,"yaw":0.05,"dist":8.5,"rel_bearing":-3.0}"#)
        var hover = FlightCommandRecord(t: 4, state: "preflight", intent: "stay-landed", sentFlying: false)
        (hover.hover, hover.dryRun, hover.wouldFly) = (true, true, false)
        #expect(try Self.line(hover) == #"{"t":4.0,"kind":"command","state":"preflight","intent":"stay-landed","sent_flying":false,"hover":true,"dry_run":true,"would_fly":false}"#)
        #expect(try Self.line(FlightShutdownRecord(t: 5)) == #"{"t":5.0,"kind":"shutdown"}"#)
        let final = FlightLogFinalRecord(t: 6, dropped: DroppedLogLinesRecord(logLines: 0, logLinesWaiting: 1, flightLogLines: 2))
        #expect(try Self.line(final) == #"{"t":6.0,"kind":"log","event":"final","log_lines_dropped":0,"log_lines_waiting":1,"flight_log_lines_dropped":2}"#)
        #expect(try Self.roundTrip(final) == final)
        #expect(try Self.roundTrip(command) == command)
    }

    @Test("a gps line: the event object of `followme gps --json`, with the verdict after it")
    func gpsLine() throws {
        // Given a fix with every field, and a loss
        let fix = try #require(GPSFix(role: .target, device: "/dev/ttyUSB0", mode: .threeD, latitudeDegrees: 47.5,
                                      longitudeDegrees: 8.25, fixTime: FixTime(seconds: 1_700_000_000, nanoseconds: 250_000_000),
                                      receivedAt: MonotonicTime(seconds: 10), altitudeHAEMeters: 400.5, trackDegrees: 90,
                                      speedMetersPerSecond: 1.5, climbMetersPerSecond: 0, ephMeters: 2, epvMeters: 3,
                                      epsMetersPerSecond: 0.5))
        let loss = GPSEvent.lost(GPSLoss(role: .onboard, device: nil, reason: .connectionLost("EOF"), at: MonotonicTime(seconds: 11)))
        // Then they are written as gpsd-like objects, fields in the documented order
        #expect(GPSEvent.fix(fix).jsonLine() == """
            {"role":"target","device":"/dev/ttyUSB0","mode":3,"lat":47.5,"lon":8.25,"time":"2023-11-14T22:13:20.250Z",\
            "alt_hae":400.5,"track":90.0,"speed":1.5,"climb":0.0,"eph":2.0,"epv":3.0,"eps":0.5,"rx":10.0}
            """)
        #expect(loss.jsonLine() == #"{"role":"onboard","event":"lost","reason":"connection-lost","detail":"EOF","rx":11.0}"#)
        // And a gps line nests the event and decodes back
        let record = FlightGPSRecord(t: 10.5, event: GPSEventRecord(.fix(fix)), verdict: "accepted")
        let line = try Self.line(record)
        #expect(line.hasPrefix(#"{"t":10.5,"kind":"gps","event":{"role":"target","#))
        #expect(line.hasSuffix(#""rx":10.0},"verdict":"accepted"}"#))
        #expect(try Self.roundTrip(record) == record)
    }

    @Test("a fix's age goes into its gps line (age_s, age_source, age_reason) before rx; none without one")
    func gpsLineAge() throws {
        // Given a fix with no age, then one its receiver's meter aged 150 ms from gpsd's TOFF
        var fix = try #require(GPSFix(role: .target, device: "/dev/gpstarget", mode: .threeD, latitudeDegrees: 47.5,
                                      longitudeDegrees: 8.25, fixTime: nil, receivedAt: MonotonicTime(seconds: 10)))
        #expect(GPSEvent.fix(fix).jsonLine() == #"{"role":"target","device":"/dev/gpstarget","mode":3,"lat":47.5,"lon":8.25,"rx":10.0}"#)
        fix.age = FixAge(seconds: 0.15, source: .clock(.toff))
        // Then the line records the age the flight dated it by, and its source
        #expect(GPSEvent.fix(fix).jsonLine() == #"{"role":"target","device":"/dev/gpstarget","mode":3,"lat":47.5,"lon":8.25,"#
            + #""age_s":0.15,"age_source":"clock","age_reason":"gpsd TOFF","rx":10.0}"#)
        fix.age = FixAge(seconds: 0.3, source: .config(.hostClockUnsynchronised))
        let record = FlightGPSRecord(t: 10.5, event: GPSEventRecord(.fix(fix)), verdict: "accepted")
        #expect(try Self.line(record).contains(#""age_s":0.3,"age_source":"config","age_reason":"host clock not synchronised""#))
        #expect(try Self.roundTrip(record) == record)
    }
}
