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

extension BenchResult {
    /// A follow mode's run (not the leash) seen from the person (docs/bench.md §5): the drone's true offset from
    /// them, turned so their direction of travel points up (north-up while they stand or are slower than
    /// 0.5 m/s, the orbit's frame), with the standoff circle and, in the angle mode, the line to the asked
    /// angle. A drone that keeps its angle is a dot at the end of that line; each swing after a turn is an
    /// arc round the circle (never a chord through the middle); the line breaks where a turn turns the frame. Nil for the leash and the baseline.
    public func personFramePlot() -> TrackPlot? {
        guard let mode = metrics.followMode, mode.mode != .leash else { return nil }
        var points: [PlaneVector] = []
        var travel = PlaneVector(east: 0, north: 1)
        for (previous, sample) in zip(track, track.dropFirst()) where sample.timeSeconds > previous.timeSeconds {
            let velocity = (sample.personPlane - previous.personPlane) / (sample.timeSeconds - previous.timeSeconds)
            if velocity.length >= MetricsAccumulator.movingSpeedMetersPerSecond {
                // A turn turns the frame at once: break the line there rather than draw a chord that was never flown.
                if (velocity / velocity.length).dot(travel) < _cos(20 * .pi / 180) {
                    points.append(PlaneVector(east: .nan, north: .nan))
                }
                travel = velocity / velocity.length
            }
            let offset = sample.dronePlane - sample.personPlane
            // Rotate so `travel` becomes north: the component along it is up, across it (to its right) is east.
            points.append(PlaneVector(east: offset.east * travel.north - offset.north * travel.east,
                                      north: offset.dot(travel)))
        }
        let circle = (0...72).map { i -> PlaneVector in
            let a = Double(i) * 5 * .pi / 180
            return PlaneVector(east: standoffMeters * _sin(a), north: standoffMeters * _cos(a))
        }
        var series: [TrackPlot.Series] = [.init(name: "standoff circle", color: "#999999", pointsPlane: circle)]
        if let angle = mode.angleDegrees {
            let a = angle * .pi / 180
            series.append(.init(name: "asked angle \(fixed(angle, decimals: 0))°", color: TrackPlot.personColor,
                                pointsPlane: [.zero, PlaneVector(east: standoffMeters * _sin(a), north: standoffMeters * _cos(a))]))
        }
        series.append(.init(name: "drone from the person (travel up)", color: TrackPlot.droneColor, pointsPlane: points))
        return TrackPlot {
            $0.title = "\(scenario) — seen from the person — \(noise) GPS" + (link == .ardrone ? "" : " — \(link)")
            $0.notes = [
                "\(mode.mode.rawValue)" + (mode.angleDegrees.map { " \(fixed($0, decimals: 0))°" } ?? "")
                    + ": the drone's true offset, the person's direction of travel up (north-up while they stand)",
                "angle error RMS " + (mode.angleErrorRMSDegrees.map { fixed($0, decimals: 1) + "°" } ?? "—")
                    + ", radius RMS " + (mode.radiusErrorRMSMeters.map { fixed($0, decimals: 2) + " m" } ?? "—")
                    + ", min separation \(fixed(metrics.minSeparationMeters, decimals: 2)) m",
            ]
            $0.series = series
        }
    }
}
