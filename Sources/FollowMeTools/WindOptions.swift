import FlightService
import ArgumentParser
import FollowCore
import Simulation

/// `--wind-mps`, `--wind-towards-deg` and `--gusts`: the simulated wind at the drone, as
/// `followme bench` and `followme sim` take it (one steady mean, optionally with Dryden gusts).
struct WindOptions: ParsableArguments {
    @Option(name: .long, help: "Steady wind speed, m/s, for scenarios without their own wind (default 0).")
    var windMps: Double = 0

    @Option(name: .long, help: "Direction the steady wind blows towards, compass degrees (default 90: from the west).")
    var windTowardsDeg: Double = 90

    @Flag(name: .long, help: "Add Dryden low-altitude gusts (3 m) on top of the --wind-mps mean.")
    var gusts = false

    /// Checked by ArgumentParser before the command runs (both commands: a usage error, exit 2).
    func validate() throws {
        guard windMps.isFinite, windMps >= 0 else {
            throw ValidationError("--wind-mps must be a finite speed >= 0, got \(windMps)")
        }
        guard windTowardsDeg.isFinite else { throw ValidationError("--wind-towards-deg must be finite") }
    }

    /// The wind these options describe: the mean `--wind-mps` towards `--wind-towards-deg`, with
    /// `WindModel.Parameters.dryden(meanENU:)` gusts on top under `--gusts`.
    var parameters: WindModel.Parameters {
        let mean = PlaneVector.unit(bearingDegrees: windTowardsDeg) * windMps
        return gusts ? .dryden(meanENU: mean) : WindModel.Parameters { $0.meanENU = mean }
    }
}
