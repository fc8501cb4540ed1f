import FollowCore
import FlightRecords

extension BenchResult {
    /// The run as a plot: person and drone tracks with the run's settings and metrics.
    public func plot() -> TrackPlot {
        let m = metrics
        return TrackPlot {
            $0.title = "\(scenario) — \(controller) — \(noise) GPS" + (link == .ardrone ? "" : " — \(link)")
            $0.notes = [
                "seed \(seed), standoff \(fixed(standoffMeters, decimals: 1)) m, \(fixed(simulatedSeconds, decimals: 0)) s simulated, "
                    + "final: drone \(finalDroneState), controller \(finalControllerState)",
                "|distance − standoff| RMS \(fixed(m.rangeErrorRMSMeters, decimals: 2)) m, p95 \(fixed(m.rangeErrorP95Meters, decimals: 2)) m; "
                    + "min separation \(fixed(m.minSeparationMeters, decimals: 2)) m; facing RMS \(fixed(m.facingErrorRMSDegrees, decimals: 1))°",
            ]
            $0.series = [
                .init(name: "person (truth)", color: TrackPlot.personColor, pointsPlane: track.map(\.personPlane)),
                .init(name: "drone (truth)", color: TrackPlot.droneColor, pointsPlane: track.map(\.dronePlane)),
            ]
        }
    }
}
