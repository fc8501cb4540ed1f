import FollowCore

/// The true state of one receiver's carrier at a fix time.
public struct GPSTruthSample: Sendable, Hashable {
    /// Position on the local plane, metres east/north.
    public var positionPlane: PlaneVector
    /// Ground velocity, m/s east/north.
    public var velocityENU: PlaneVector
    /// Height above the plane's ground, metres (reported as HAE offset by `groundHAEMeters`).
    public var altitudeMeters: Double = 0
    /// Nose heading of the carrier, compass degrees, if it reports heading (the drone); `nil`
    /// for a receiver without heading output.
    public var noseHeadingDegrees: Double? = nil
}

extension DroneSimulator {
    /// The drone's true state as its GPS receiver would sample it.
    public var gpsTruth: GPSTruthSample {
        GPSTruthSample(
            positionPlane: positionPlane, velocityENU: velocityENU,
            altitudeMeters: altitudeMeters, noseHeadingDegrees: noseHeadingDegrees
        )
    }
}

/// What the simulated receivers deliver, in arrival order.
public enum GPSSimulatorOutput: Sendable, Hashable {
    case fix(GPSFix)
    case heading(HeadingReport)

    /// When the shell would have received it.
    public var receivedAt: MonotonicTime {
        switch self {
        case .fix(let f): f.receivedAt
        case .heading(let h): h.receivedAt
        }
    }
}

/// Two simulated GPS receivers (person and drone) with the error model of `GPSErrorModel`,
/// producing `GPSFix` and `HeadingReport` values exactly as the gpsd shell would, but late by
/// each receiver's latency. Deterministic for a seed: every random component (shared bias, each
/// receiver's own noise) draws from its own SplitMix64 stream.
///
/// Use: each simulation step call `update(now:target:onboard:)` with the true states (fixes are
/// taken when due, at `now`), then drain `nextOutput(readyBy:)`. Times must not go backwards.
public struct GPSPairSimulator: Sendable {
    private struct Receiver: Sendable {
        let role: ReceiverRole
        let device: String
        let model: GPSReceiverModel
        var generator: SplitMix64
        var ownBias: GaussMarkovProcess
        /// The altitude error's own stream and bias (`VerticalErrorModel`), and the spike in progress.
        var verticalGenerator: SplitMix64
        var verticalBias: GaussMarkovProcess
        var spike: (depthMeters: Double, fixesLeft: Int) = (0, 0)
        var stepOffsetMeters: PlaneVector = .zero
        var lastFixAt: MonotonicTime?
        var nextFixAt: MonotonicTime
        let periodNanoseconds: Int64
    }

    public let model: GPSErrorModel
    public let plane: LocalPlane
    /// Height of the plane's ground above the WGS84 ellipsoid, metres.
    public let groundHAEMeters: Double
    /// UTC seconds of `MonotonicTime.zero`, for the fixes' `fixTime`, plus `utcSubsecondNanoseconds`.
    public let utcEpochSeconds: Int64
    /// The fraction of a second of UTC at `MonotonicTime.zero`, nanoseconds, 0…999 999 999.
    public let utcSubsecondNanoseconds: Int64

    private var sharedGenerator: SplitMix64
    private var sharedBias: GaussMarkovProcess
    private var target: Receiver
    private var onboard: Receiver
    private var outbox: [GPSSimulatorOutput] = []

    public init(
        model: GPSErrorModel,
        plane: LocalPlane,
        seed: UInt64,
        start: MonotonicTime = .zero,
        targetDevice: String = "sim:target",
        onboardDevice: String = "sim:onboard",
        groundHAEMeters: Double = 0,
        utcEpochSeconds: Int64 = 1_700_000_000,
        utcSubsecondNanoseconds: Int64 = 0
    ) {
        self.model = model
        self.plane = plane
        self.groundHAEMeters = groundHAEMeters
        self.utcEpochSeconds = utcEpochSeconds
        self.utcSubsecondNanoseconds = min(max(utcSubsecondNanoseconds, 0), 999_999_999)
        var shared = SplitMix64(seed: seed, stream: 1)
        self.sharedBias = GaussMarkovProcess(timeConstantSeconds: model.sharedTimeConstantSeconds, start: start, generator: &shared)
        self.sharedGenerator = shared
        self.target = Self.makeReceiver(.target, device: targetDevice, model: model.target, seed: seed, streams: (2, 4), start: start)
        self.onboard = Self.makeReceiver(.onboard, device: onboardDevice, model: model.onboard, seed: seed, streams: (3, 5), start: start)
        outbox.reserveCapacity(16)
    }

    /// `streams`: the receiver's own stream, and its altitude error's (a stream of its own, so a seed's
    /// horizontal errors are the same with and without a vertical model).
    private static func makeReceiver(_ role: ReceiverRole, device: String, model: GPSReceiverModel, seed: UInt64,
                                     streams: (own: UInt64, vertical: UInt64), start: MonotonicTime) -> Receiver {
        var generator = SplitMix64(seed: seed, stream: streams.own)
        let bias = GaussMarkovProcess(timeConstantSeconds: model.biasTimeConstantSeconds, start: start, generator: &generator)
        var vertical = SplitMix64(seed: seed, stream: streams.vertical)
        let verticalBias = GaussMarkovProcess(timeConstantSeconds: model.biasTimeConstantSeconds, start: start, generator: &vertical)
        let rate = model.fixRateHertz > 0 ? model.fixRateHertz : 1
        return Receiver(
            role: role, device: device, model: model, generator: generator, ownBias: bias,
            verticalGenerator: vertical, verticalBias: verticalBias,
            nextFixAt: start, periodNanoseconds: max(1, Int64((1e9 / rate).rounded()))
        )
    }

    /// When the receiver for `role` takes its next fix.
    public func nextFixTime(for role: ReceiverRole) -> MonotonicTime {
        role == .target ? target.nextFixAt : onboard.nextFixAt
    }

    /// Takes every fix that is due at `now` (≥ its scheduled time), sampling the given truths.
    public mutating func update(now: MonotonicTime, target targetTruth: GPSTruthSample, onboard onboardTruth: GPSTruthSample) {
        if now >= target.nextFixAt { takeFix(.target, truth: targetTruth, at: now) }
        if now >= onboard.nextFixAt { takeFix(.onboard, truth: onboardTruth, at: now) }
    }

    /// Takes one fix for `role` now with the given truth (and schedules the next one a period
    /// after the previous schedule, skipping missed slots). The outputs arrive after latency.
    public mutating func takeFix(_ role: ReceiverRole, truth: GPSTruthSample, at now: MonotonicTime) {
        // The shared component is evaluated first, at the same time for whichever receiver asks.
        let shared = sharedBias.value(at: now, generator: &sharedGenerator)
        let context = Context(
            plane: plane, rho: model.sharedCorrelation, groundHAEMeters: groundHAEMeters, utcEpochSeconds: utcEpochSeconds,
            utcSubsecondNanoseconds: utcSubsecondNanoseconds
        )
        if role == .target {
            Self.take(&target, shared: shared, truth: truth, at: now, context: context, into: &outbox)
        } else {
            Self.take(&onboard, shared: shared, truth: truth, at: now, context: context, into: &outbox)
        }
    }

    /// The next output that has arrived by `now`, in arrival order; `nil` if none.
    public mutating func nextOutput(readyBy now: MonotonicTime) -> GPSSimulatorOutput? {
        guard let first = outbox.first, first.receivedAt <= now else { return nil }
        return outbox.removeFirst()
    }

    /// Outputs taken but not yet arrived.
    public var pendingOutputCount: Int { outbox.count }

    /// The slow part of `role`'s position error (bias + step offset, no white noise), metres,
    /// with its own component as of its last fix and the shared one as of the latest fix of
    /// either receiver: for analysis and tests.
    public func biasMeters(for role: ReceiverRole) -> PlaneVector {
        let r = role == .target ? target : onboard
        return Self.bias(of: r, shared: sharedBias.value, rho: model.sharedCorrelation)
    }

    private static func bias(of r: Receiver, shared: PlaneVector, rho: Double) -> PlaneVector {
        let sigma = r.model.biasSigmaMeters
        guard sigma > 0 else { return r.stepOffsetMeters }
        return (shared * rho.squareRoot() + r.ownBias.value * (1 - rho).squareRoot()) * sigma + r.stepOffsetMeters
    }

    private static func take(
        _ r: inout Receiver, shared: PlaneVector, truth: GPSTruthSample, at now: MonotonicTime,
        context s: Context, into outbox: inout [GPSSimulatorOutput]
    ) {
        let m = r.model
        // Schedule: next slot strictly after now, on the receiver's grid.
        while r.nextFixAt <= now {
            r.nextFixAt = MonotonicTime(nanoseconds: r.nextFixAt.nanoseconds + r.periodNanoseconds)
        }
        // Advance the own bias and the step offset to now.
        if m.biasSigmaMeters > 0 {
            _ = r.ownBias.value(at: now, generator: &r.generator)
        }
        if m.stepsPerHour > 0 {
            let dt = r.lastFixAt.map { now.seconds(since: $0) } ?? 0
            if dt > 0 {
                r.stepOffsetMeters = r.stepOffsetMeters * _exp(-dt / max(m.biasTimeConstantSeconds, 1e-9))
                let probability = 1 - _exp(-m.stepsPerHour / 3600 * dt)
                if r.generator.nextUnitInterval() <= probability {
                    let size = m.stepMinMeters + (m.stepMaxMeters - m.stepMinMeters) * r.generator.nextUnitInterval()
                    r.stepOffsetMeters += PlaneVector.unit(bearingDegrees: 360 * r.generator.nextUnitInterval()) * size
                }
            }
        }
        let altitudeError = verticalError(&r, at: now)
        r.lastFixAt = now

        let error = bias(of: r, shared: shared, rho: s.rho)
            + r.generator.nextGaussianPlaneVector(sigma: m.whiteSigmaMeters)
        let measured = truth.positionPlane + error
        let velocity = truth.velocityENU + r.generator.nextGaussianPlaneVector(sigma: m.velocitySigmaMetersPerSecond)
        let speed = velocity.length
        let receivedAt = now.adding(seconds: m.latencySeconds)

        if let coordinate = s.plane.unproject(measured),
           let fix = GPSFix(
               role: r.role, device: r.device, mode: .threeD,
               latitudeDegrees: coordinate.latitudeDegrees, longitudeDegrees: coordinate.longitudeDegrees,
               fixTime: s.fixTime(at: now), receivedAt: receivedAt,
               altitudeHAEMeters: s.groundHAEMeters + truth.altitudeMeters + altitudeError,
               trackDegrees: m.reportsVelocity && speed > 0 ? velocity.bearingDegrees : nil,
               speedMetersPerSecond: m.reportsVelocity ? speed : nil,
               ephMeters: m.horizontal95Meters
           ) {
            insert(.fix(fix), into: &outbox)
        }
        if let nose = truth.noseHeadingDegrees {
            let heading = nose - m.mountOffsetDegrees + r.generator.nextGaussian(sigma: m.headingSigmaDegrees)
            if let report = HeadingReport(role: r.role, device: r.device, headingDegrees: heading, receivedAt: receivedAt) {
                insert(.heading(report), into: &outbox)
            }
        }
    }

    /// The altitude error of the fix taken now (`VerticalErrorModel`), metres; 0 without one. Call before
    /// `lastFixAt` moves to `now`.
    private static func verticalError(_ r: inout Receiver, at now: MonotonicTime) -> Double {
        let v = r.model.vertical
        guard !v.isZero else { return 0 }
        let bias = r.verticalBias.value(at: now, generator: &r.verticalGenerator).east * v.biasSigmaMeters
        let white = r.verticalGenerator.nextGaussian(sigma: v.whiteSigmaMeters)
        // Three draws every fix whatever happens, so spikes on or off leave the bias and the white noise
        // of a seed as they are.
        let (chance, depthDraw, lengthDraw) = (r.verticalGenerator.nextUnitInterval(), r.verticalGenerator.nextUnitInterval(),
                                               r.verticalGenerator.nextUnitInterval())
        if r.spike.fixesLeft > 0 {   // a spike's second fix
            r.spike.fixesLeft -= 1
            return bias + white - r.spike.depthMeters
        }
        if v.spikesPerHour > 0, let last = r.lastFixAt, chance <= 1 - _exp(-v.spikesPerHour / 3600 * now.seconds(since: last)) {
            r.spike = (v.spikeMinMeters + (v.spikeMaxMeters - v.spikeMinMeters) * depthDraw, lengthDraw < 0.5 ? 0 : 1)
            return bias + white - r.spike.depthMeters
        }
        return bias + white
    }

    /// Inserts keeping arrival order (stable for equal times).
    private static func insert(_ output: GPSSimulatorOutput, into outbox: inout [GPSSimulatorOutput]) {
        var index = outbox.count
        while index > 0, outbox[index - 1].receivedAt > output.receivedAt { index -= 1 }
        outbox.insert(output, at: index)
    }

    /// The values `take` needs from the simulator (passed by value to avoid overlapping access).
    private struct Context {
        let plane: LocalPlane
        let rho: Double
        let groundHAEMeters: Double
        let utcEpochSeconds: Int64
        let utcSubsecondNanoseconds: Int64

        func fixTime(at t: MonotonicTime) -> FixTime {
            let ns = t.nanoseconds + utcSubsecondNanoseconds
            var seconds = ns / 1_000_000_000
            var rest = ns % 1_000_000_000
            if rest < 0 { rest += 1_000_000_000; seconds -= 1 }
            return FixTime(seconds: utcEpochSeconds + seconds, nanoseconds: Int32(rest))
        }
    }
}
