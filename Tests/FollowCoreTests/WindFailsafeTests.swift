@testable import FollowCore
import ARDrone
import Testing

/// The wind failsafe (`WindMonitor`, docs/stopping-model.md §6): its clocks on their own, the state
/// machine's use of it, and closed loops against `TestPlant` (not the controller's model) in winds
/// the drone can and cannot fight.
@Suite("Wind failsafe: WindMonitor and the landing for wind")
struct WindFailsafeTests {
    static let tick = 1.0 / 30

    /// A monitor for max tilt 20° (authority 17.5·sin 20° = 5.99 m/s) and the given failsafe.
    static func monitor(_ failsafe: FailsafeParameters = FailsafeParameters()) -> WindMonitor {
        WindMonitor(failsafe: failsafe,
                    authorityMetersPerSecond: TiltVehicleModel(follow: FollowParameters(maxTiltDegrees: 20)).windAuthorityMetersPerSecond)
    }

    /// Feeds `monitor` the estimate `wind(t)` every 30 Hz tick over [from, to) seconds, the drone
    /// drifting downwind at `drift` m/s; the first cause it gave on the way (as the state machine,
    /// which asks every tick, would see it).
    @discardableResult
    static func feed(_ monitor: inout WindMonitor, from: Double, to: Double, drift: Double = 0.5,
                     wind: (Double) -> PlaneVector) -> WindCause? {
        var t = from
        var first: WindCause?
        while t < to - 1e-9 {
            let w = wind(t)
            let velocity = w.length > 0 ? w * (drift / w.length) : .zero
            monitor.observe(windEstimate: w, droneVelocity: velocity, now: MonotonicTime(seconds: t))
            first = first ?? monitor.cause(now: MonotonicTime(seconds: t))
            t += tick
        }
        return first
    }

    // MARK: WindMonitor

    @Test("the AR.Drone's authority is c2·sin(maxTilt): 5.99 m/s at 20°, 3.64 m/s at the SDK's 12°")
    func authority() {
        #expect(abs(Self.monitor().authorityMetersPerSecond - 5.985) < 0.01)
        let twelve = WindMonitor(
            failsafe: FailsafeParameters(),
            authorityMetersPerSecond: TiltVehicleModel(follow: FollowParameters(maxTiltDegrees: 12)).windAuthorityMetersPerSecond)
        #expect(abs(twelve.authorityMetersPerSecond - 3.638) < 0.01)
    }

    @Test("an estimate at the edge of the authority lands after windSaturationSeconds; just under it never does")
    func saturationClock() {
        var monitor = Self.monitor()
        let edge = Self.monitor().authorityMetersPerSecond * WindMonitor.saturationFraction
        // Given 60 s at 94 % of the authority (a strong wind the drone still fights)
        Self.feed(&monitor, from: 0, to: 60) { _ in PlaneVector(east: edge * 0.99, north: 0) }
        // Then the wind is no reason to land
        #expect(monitor.cause(now: MonotonicTime(seconds: 60)) == nil)
        // When the estimate reaches the edge, just short of windSaturationSeconds, then at it
        let seconds = FailsafeParameters().windSaturationSeconds
        Self.feed(&monitor, from: 60, to: 60 + seconds - 0.1) { _ in PlaneVector(east: 0, north: -edge) }
        #expect(monitor.cause(now: MonotonicTime(seconds: 60 + seconds - 0.1)) == nil)
        Self.feed(&monitor, from: 60 + seconds - 0.1, to: 60 + seconds + 0.05) { _ in PlaneVector(east: 0, north: -edge) }
        #expect(monitor.cause(now: MonotonicTime(seconds: 60 + seconds)) == .saturated)
    }

    @Test("one gust at the edge does not land, a train of them does (the leaky clock)")
    func gustTrain() {
        let seconds = FailsafeParameters().windSaturationSeconds
        let edge = Self.monitor().authorityMetersPerSecond
        // Given gusts at the edge lasting 0.75 of windSaturationSeconds, then calm for as long
        let on = 0.75 * seconds, period = 1.5 * seconds
        let train: (Double) -> PlaneVector = { t in
            PlaneVector(east: t.truncatingRemainder(dividingBy: period) < on ? edge : 0.5 * edge, north: 0)
        }
        var monitor = Self.monitor()
        // When one gust has passed
        let first = Self.feed(&monitor, from: 0, to: period, wind: train)
        // Then no landing
        #expect(first == nil)
        // When the gusts keep coming (each adds 0.75·windSaturationSeconds, each calm takes back half that)
        let later = Self.feed(&monitor, from: period, to: 4 * period, wind: train)
        // Then they add up to a landing
        #expect(later == .saturated)
    }

    @Test("max_wind_mps: the mean over ≈ 10 s counts, not a gust above it")
    func meanLimit() {
        var failsafe = FailsafeParameters()
        failsafe.maxWindMetersPerSecond = 3
        // Given a 2 m/s wind with a 2 s gust of 5 m/s
        var monitor = Self.monitor(failsafe)
        Self.feed(&monitor, from: 0, to: 30) { t in PlaneVector(east: (20..<22).contains(t) ? 5 : 2, north: 0) }
        // Then no landing
        #expect(monitor.cause(now: MonotonicTime(seconds: 30)) == nil)
        // When the wind settles at 3.5 m/s
        Self.feed(&monitor, from: 30, to: 60) { _ in PlaneVector(east: 0, north: 3.5) }
        // Then the mean exceeds the limit
        #expect(monitor.cause(now: MonotonicTime(seconds: 60)) == .aboveLimit)
        // And with no limit configured (0, the default) the same wind is no reason to land
        var unlimited = Self.monitor()
        Self.feed(&unlimited, from: 0, to: 60) { _ in PlaneVector(east: 0, north: 3.5) }
        #expect(unlimited.cause(now: MonotonicTime(seconds: 60)) == nil)
    }

    @Test("the drone's own wind bit counts once raised across a second of packets, and stops counting when cleared")
    func firmwareBit() {
        var monitor = Self.monitor()
        // Given the bit raised in every 15 Hz packet from 10 s
        for packet in 0...15 { monitor.observe(firmwareWarning: true, at: MonotonicTime(seconds: 10 + Double(packet) / 15)) }
        #expect(monitor.firmwareWarning)
        // Then it counts once the raised packets span a second
        #expect(monitor.cause(now: MonotonicTime(seconds: 10 + 15.0 / 15)) == .firmware)
        monitor.observe(firmwareWarning: false, at: MonotonicTime(seconds: 11.1))
        #expect(monitor.cause(now: MonotonicTime(seconds: 20)) == nil)
    }

    @Test("one packet with the wind bit and then no navdata is no reason to land (packets must span the second)")
    func firmwareBitThenSilence() {
        var monitor = Self.monitor()
        monitor.observe(firmwareWarning: true, at: MonotonicTime(seconds: 10))
        #expect(monitor.firmwareWarning)
        #expect(monitor.cause(now: MonotonicTime(seconds: 12)) == nil)
        // When packets keep the bit up across the second, it counts
        monitor.observe(firmwareWarning: true, at: MonotonicTime(seconds: 11))
        #expect(monitor.cause(now: MonotonicTime(seconds: 11)) == .firmware)
    }

    @Test("keeping pace with a person walking downwind at the edge of the authority is not losing ground")
    func driftIsMeasuredAgainstTheCommand() {
        let edge = Self.monitor().authorityMetersPerSecond * 0.97
        let wind = PlaneVector(east: edge, north: 0), walk = PlaneVector(east: 1.4, north: 0)
        // Given the estimate at 97 % of the authority and the drone moving downwind at 1.4 m/s for 10 s
        var pacing = Self.monitor(), blown = Self.monitor()
        for tick in 0..<300 {
            let now = MonotonicTime(seconds: Double(tick) * Self.tick)
            // When the follower asked for that 1.4 m/s (a person walking downwind), or asked to stand still
            pacing.observe(windEstimate: wind, droneVelocity: walk, commandedVelocity: walk, now: now)
            blown.observe(windEstimate: wind, droneVelocity: walk, commandedVelocity: .zero, now: now)
        }
        // Then only the drone that moves against its command is saturated
        #expect(pacing.cause(now: MonotonicTime(seconds: 10)) == nil)
        #expect(pacing.saturatedSeconds == 0)
        #expect(blown.cause(now: MonotonicTime(seconds: 10)) == .saturated)
    }

    @Test("beyond the authority any downwind motion counts, even one the follower asked for")
    func beyondTheAuthorityTheCommandDoesNotExcuse() {
        // Given a wind at 130 % of the authority and a drone flying downwind at exactly its commanded
        // 4 m/s (catching up with a person jogging downwind: it cannot hold a point at all)
        let wind = PlaneVector(east: Self.monitor().authorityMetersPerSecond * 1.3, north: 0)
        let flown = PlaneVector(east: 4, north: 0)
        var monitor = Self.monitor()
        for tick in 0..<90 {
            monitor.observe(windEstimate: wind, droneVelocity: flown, commandedVelocity: flown,
                            now: MonotonicTime(seconds: Double(tick) * Self.tick))
        }
        // Then it lands for saturation (within the 3 s, on 1 m of drift beyond the authority)
        #expect(monitor.cause(now: MonotonicTime(seconds: 3)) == .saturated)
    }

    @Test("during our take-off and climb half a second of saturation is enough; after that, wind_saturation_s")
    func startUpClock() {
        var monitor = Self.monitor()
        let edge = Self.monitor().authorityMetersPerSecond
        Self.feed(&monitor, from: 0, to: WindMonitor.startUpSaturationSeconds + 0.05, drift: 0.5) { _ in
            PlaneVector(east: edge, north: 0)
        }
        #expect(monitor.excessDriftMeters < WindMonitor.maxExcessDriftMeters)
        #expect(monitor.cause(now: MonotonicTime(seconds: 0.6), startingUp: true) == .saturated)
        #expect(monitor.cause(now: MonotonicTime(seconds: 0.6), startingUp: false) == nil)
    }

    @Test("non-finite estimates are ignored; reset forgets the flight's wind")
    func badInputAndReset() {
        var monitor = Self.monitor()
        Self.feed(&monitor, from: 0, to: 5) { _ in PlaneVector(east: 10, north: 0) }
        #expect(monitor.cause(now: MonotonicTime(seconds: 5)) == .saturated)
        monitor.observe(windEstimate: PlaneVector(east: .nan, north: 0), droneVelocity: .zero, now: MonotonicTime(seconds: 5.1))
        #expect(monitor.lastWind.isFinite)
        monitor.reset()
        #expect(monitor.cause(now: MonotonicTime(seconds: 6)) == nil)
        #expect(monitor.meanWind == .zero)
    }

    // MARK: The state machine

    @Test("the drone's wind bit holds the take-off (prerequisite \"wind\") until it clears")
    func noTakeOffWhileTheDroneReportsWind() throws {
        // Given everything ready but navdata saying "too much wind"
        var world = try World()
        world.windWarning = true
        world.run(for: 5)
        // Then it waits on the ground for the wind, naming it
        #expect(world.state == .preflight(waitingFor: .calmWind))
        #expect(world.state.name == "preflight(waiting: wind)")
        #expect(world.command?.intent == .stayLanded)
        // When the bit clears, it takes off
        world.windWarning = false
        let tookOff = world.run(until: { $0 == .takingOff }, within: 2)
        #expect(tookOff != nil)
    }

    @Test("while following, the wind bit for a second lands (wind-too-strong:firmware); a blip does not")
    func firmwareBitLands() throws {
        var world = try World.following()
        // When the bit flickers for half a second
        world.windWarning = true
        world.run(for: 0.5)
        world.windWarning = false
        world.run(for: 3)
        // Then it keeps following
        #expect(world.state == .following)
        // When it stays up
        world.windWarning = true
        let start = world.time
        let landingTime = world.run(until: { $0.kind == .landing }, within: 3)
        let landing = try #require(landingTime)
        // Then it lands about a second later, for the wind, by name
        #expect(landing - start >= WindMonitor.firmwareWarningSeconds - 0.1)
        #expect(landing - start <= WindMonitor.firmwareWarningSeconds + 0.2)
        #expect(world.state == .landing(.windTooStrong(.firmware)))
        #expect(world.state.name == "landing(wind-too-strong:firmware)")
        #expect(world.command?.intent == .land)
    }

    // MARK: Closed loop against TestPlant (not the controller's model)

    /// A wind of `speed` m/s towards the east: from behind a drone that starts west of the person,
    /// so it pushes the drone towards them.
    static func windy(_ plant: PlantModel, speed: Double, gustSigma: Double = 0) -> PlantModel {
        var p = plant
        p.windENU = PlaneVector(east: speed, north: 0)
        p.gustSigmaMetersPerSecond = gustSigma
        return p
    }

    @Test("a wind beyond the tilt (5 m/s at 12°) lands for saturation within 6 s of the follower flying, from no knowledge of it",
          arguments: PlantModel.both)
    func beyondAuthorityLands(plant: PlantModel) throws {
        // Given a standing person, the drone 11 m upwind of them (the shipped standoff), max tilt 12°
        // (3.6 m/s of authority) and a 5 m/s wind blowing it at them
        var config = ClosedLoopConfig(plant: Self.windy(plant, speed: 5), person: .straight(speed: 0), durationSeconds: 20)
        config.follow = FollowParameters(standoffMeters: 11, maxTiltDegrees: 12)
        let result = try runClosedLoop(config)
        // Then it lands for the wind
        let flown = try #require(result.samples.first { $0.pilot != nil })
        let landing = try #require(result.samples.first { $0.state.kind == .landing })
        print("[\(plant)] 5 m/s at 12°: flown from \(flown.time) s at \(flown.distanceMeters) m, landing at \(landing.time) s at \(landing.distanceMeters) m, \(landing.state.name)")
        #expect(landing.state == .landing(.windTooStrong(.saturated)))
        // within 6 s of the follower taking control of a drone whose wind it knows nothing of (adopted in
        // flight: the fast observer starts at zero), most of it windSaturationSeconds. The saturation clock
        // runs while the drone drifts, and the drift is braked at up to the braking tilt (25°), so it runs
        // slower than at the cruise tilt alone: measured 3.4 s nominal, 5.4 s off-model (3.1 / 3.8 s when
        // the braking tilt was the cruise tilt)
        #expect(landing.time - flown.time <= 6)
        // having lost little ground: measured 1.7 m nominal, 2.0 m off-model (4.4 / 3.5 m at the cruise
        // tilt alone; bound 3 m)
        #expect(flown.distanceMeters - landing.distanceMeters <= 3)
        #expect(landing.distanceMeters >= config.failsafe.minSeparationMeters)
    }

    @Test("a strong wind the drone can fight (3 m/s at 20°, off-model, and 5 m/s steady at 20°) is no reason to land",
          arguments: [(PlantModel.offModel, 3.0), (PlantModel.nominal, 5.0), (PlantModel.offModel, 5.0)])
    func withinAuthorityFollows(plant: PlantModel, speed: Double) throws {
        var config = ClosedLoopConfig(plant: Self.windy(plant, speed: speed), durationSeconds: 60)
        config.follow = FollowParameters(standoffMeters: 8, maxTiltDegrees: 20)
        let result = try runClosedLoop(config)
        let wind = result.machine.wind
        print("[\(plant)] \(speed) m/s at 20°: authority used \(wind.authorityUsed), mean \(wind.meanWind.length) m/s, peak \(wind.peakWindMetersPerSecond) m/s, landing \(result.samples.first { $0.state.kind == .landing }.map { "\($0.time) \($0.state.name)" } ?? "none")")
        #expect(!result.samples.contains { $0.state.kind == .landing })
        #expect(result.settledFollowingFraction == 1)
    }
}
