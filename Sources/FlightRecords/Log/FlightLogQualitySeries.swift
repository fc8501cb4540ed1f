/// What the GPS uncertainty and link charts draw, gathered from a flight log's lines in one pass
/// (`FlightLogTimelineReader` hands it the gps and link records) and turned into the timeline's
/// `ReceiverQuality` and `LinkRates`. Times in: the log's `t` (monotonic seconds); times out:
/// seconds since `start`, the timeline's clock.
///
/// The AR.Drone's Wi-Fi link quality is not here: navdata option 26 (`wifi`, SDK `link_quality`) is
/// not decoded (`NavdataOption.raw`; docs/ardrone-protocol.md §3.9) and the flight log does not
/// carry it, so the link chart draws only what the link counts.
struct FlightLogQualitySeries {
    struct Sky {
        var t: Double
        var role: String
        var satellitesUsed: Int?
        var satellitesVisible: Int?
        var hdop: Double?
    }

    /// The receivers' SKY reports and losses (`lost` events: no-fix, device-deactivated,
    /// connection-lost), in log order.
    var skies: [Sky] = []
    var losses: [(t: Double, role: String, reason: String)] = []
    /// The link's periodic statistics (`statistics`, not the final line: its interval is whatever
    /// was left at exit), and its `navdata-lost` / `navdata-restored` events, in log order.
    var statistics: [(t: Double, counters: LinkStatisticsRecord)] = []
    var telemetryEvents: [(t: Double, lost: Bool)] = []

    /// Takes what it needs from one gps line's event (`role` is the event's).
    mutating func note(_ event: GPSEventRecord, role: String, t: Double) {
        switch event.event {
        case "sky":
            skies.append(Sky(t: t, role: role, satellitesUsed: event.satellitesUsed,
                             satellitesVisible: event.satellitesVisible, hdop: event.hdop))
        case "lost":
            losses.append((t, role, event.reason ?? "?"))
        default:
            break
        }
    }

    /// Takes what it needs from one link line.
    mutating func note(_ link: FlightLinkRecord, t: Double) {
        switch link.event {
        case "statistics":
            if let counters = link.link { statistics.append((t, counters)) }
        case "navdata-lost":
            telemetryEvents.append((t, true))
        case "navdata-restored":
            telemetryEvents.append((t, false))
        default:
            break
        }
    }

    /// One receiver's series: `fixes` are its fixes (log `t` and `eph`) in order; the gaps run
    /// from `start` to the first fix, from a loss to the next fix, between fixes more than
    /// `FlightTimeline.fixGapSeconds` apart, and from the last fix or loss to `end`. A receiver
    /// the log never mentions has no series and no gaps.
    func receiverQuality(role: String, fixes: [(t: Double, ephMeters: Double?)], start: Double, end: Double)
        -> FlightTimeline.ReceiverQuality
    {
        typealias Sample = FlightTimeline.Sample
        var quality = FlightTimeline.ReceiverQuality()
        let skies = skies.filter { $0.role == role }
        let losses = losses.filter { $0.role == role }
        for fix in fixes {
            if let eph = fix.ephMeters, eph.isFinite { quality.ephMeters.append(Sample(t: fix.t - start, value: eph)) }
        }
        for sky in skies {
            if let hdop = sky.hdop, hdop.isFinite { quality.hdop.append(Sample(t: sky.t - start, value: hdop)) }
            if let used = sky.satellitesUsed { quality.satellitesUsed.append(Sample(t: sky.t - start, value: Double(used))) }
            if let seen = sky.satellitesVisible { quality.satellitesVisible.append(Sample(t: sky.t - start, value: Double(seen))) }
        }
        guard !fixes.isEmpty || !skies.isEmpty || !losses.isEmpty else { return quality }

        // Fixes and losses in time order (a loss before a fix at the same t: the fix ends it).
        var events: [(t: Double, loss: String?)] = fixes.map { fix -> (t: Double, loss: String?) in (fix.t, nil) }
        events += losses.map { loss -> (t: Double, loss: String?) in (loss.t, loss.reason) }
        events.sort { a, b in a.t < b.t || (a.t == b.t && a.loss != nil && b.loss == nil) }
        var lastFix: Double?
        var noFixSince: (t: Double, reason: String)? = (start, "no fix yet")
        func gap(_ from: Double, _ to: Double, _ reason: String) {
            guard to > from else { return }
            quality.noFix.append(.init(startSeconds: from - start, endSeconds: to - start, reason: reason))
        }
        for event in events {
            if let reason = event.loss {
                if noFixSince == nil { noFixSince = (event.t, "no fix: \(reason)") }
                continue
            }
            if let since = noFixSince {
                gap(since.t, event.t, since.reason)
            } else if let last = lastFix, event.t - last > FlightTimeline.fixGapSeconds {
                gap(last, event.t, "no fix for \(fixed(event.t - last, decimals: 1)) s")
            }
            (lastFix, noFixSince) = (event.t, nil)
        }
        if let since = noFixSince {
            gap(since.t, end, since.reason)
        } else if let last = lastFix, end - last > FlightTimeline.fixGapSeconds {
            gap(last, end, "no fix for the last \(fixed(end - last, decimals: 1)) s")
        }
        return quality
    }

    /// The link's rates: each pair of consecutive statistics lines gives one sample per counter
    /// at the later line (a counter that went down, or is missing from either line, gives none).
    func linkRates(start: Double, end: Double) -> FlightTimeline.LinkRates {
        var rates = FlightTimeline.LinkRates()
        func dropped(_ c: LinkStatisticsRecord) -> Int? {
            guard let source = c.droppedUnexpectedSource, let malformed = c.droppedMalformed, let sequence = c.droppedSequence
            else { return nil }
            return source + malformed + sequence
        }
        for (previous, line) in zip(statistics, statistics.dropFirst()) {
            let interval = line.t - previous.t
            guard interval > 0 else { continue }
            func rate(_ counter: (LinkStatisticsRecord) -> Int?) -> FlightTimeline.Sample? {
                guard let before = counter(previous.counters), let after = counter(line.counters), after >= before else { return nil }
                return FlightTimeline.Sample(t: line.t - start, value: Double(after - before) / interval)
            }
            if let r = rate(\.navdataReceived) { rates.telemetryHertz.append(r) }
            if let r = rate(\.datagramsSent) { rates.sentHertz.append(r) }
            if let r = rate(dropped) { rates.droppedPerSecond.append(r) }
        }
        var lostSince: Double?
        for event in telemetryEvents {
            if event.lost {
                lostSince = lostSince ?? event.t
            } else if let since = lostSince {
                rates.telemetryLost.append(.init(startSeconds: since - start, endSeconds: event.t - start, reason: "navdata lost"))
                lostSince = nil
            }
        }
        if let since = lostSince, end > since {
            rates.telemetryLost.append(.init(startSeconds: since - start, endSeconds: end - start, reason: "navdata lost"))
        }
        return rates
    }
}
