/// The GPS uncertainty and link charts: what the receivers and the drone link said of themselves.
extension FlightReportPage {
    /// The GPS uncertainty chart of each receiver, person's then drone's.
    public static let gpsChartIDs = ["chart-gps-target", "chart-gps-onboard"]
    /// The drone link's chart.
    public static let linkChartID = "chart-link"

    /// One receiver's uncertainty (after PX4 Flight Review's "GPS Uncertainty"): gpsd's eph (m) and
    /// the HDOP on the left axis, satellites used and in view on the right one, and its stretches
    /// without a fix shaded. The eph line stops at those; the SKY lines go on where SKY reports
    /// went on (`TimeChart.runs(of:)`).
    func gpsChart(role: String) -> TimeChart {
        let person = role == "target"
        let quality = person ? timeline.targetQuality : timeline.onboardQuality
        return TimeChart(
            id: person ? Self.gpsChartIDs[0] : Self.gpsChartIDs[1],
            title: person ? "GPS uncertainty: person (target)" : "GPS uncertainty: drone (onboard)", unit: "",
            lines: [
                .init(name: "eph (m)", color: person ? FlightReportStyle.person : FlightReportStyle.drone,
                      samples: quality.ephMeters),
                .init(name: "HDOP", color: FlightReportStyle.hdop, samples: quality.hdop),
            ],
            rightAxis: .init(lines: [
                .init(name: "satellites used (right axis)", color: FlightReportStyle.satellites,
                      samples: quality.satellitesUsed),
                .init(name: "in view (right axis)", color: FlightReportStyle.satellites,
                      samples: quality.satellitesVisible, dashed: true),
            ], color: FlightReportStyle.satellites),
            gaps: quality.noFix, gapLabel: "no fix")
    }

    /// The drone link: telemetry accepted and datagrams sent per second, telemetry dropped per
    /// second on the right axis, and navdata losses shaded (and marked, as on every chart).
    ///
    /// No Wi-Fi link quality: the AR.Drone sends it in navdata option 26, which FollowMe does not
    /// decode (docs/ardrone-protocol.md §3.9) and the flight log does not carry.
    func linkChart() -> TimeChart {
        let rates = timeline.linkRates
        return TimeChart(
            id: Self.linkChartID, title: "Drone link", unit: "per second",
            lines: [
                .init(name: "telemetry in (Hz)", color: FlightReportStyle.telemetry, samples: rates.telemetryHertz),
                .init(name: "datagrams sent (Hz)", color: FlightReportStyle.sent, samples: rates.sentHertz, dashed: true),
            ],
            rightAxis: .init(lines: [
                .init(name: "dropped/s (right axis)", color: FlightReportStyle.minSeparation, samples: rates.droppedPerSecond),
            ], color: FlightReportStyle.minSeparation),
            gaps: rates.telemetryLost, gapLabel: "navdata lost")
    }
}
