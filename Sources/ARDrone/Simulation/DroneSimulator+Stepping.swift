import FollowCore

/// One fixed step of the model (docs/dynamics-and-follow.md §1.4; the equations are on
/// `DroneSimulator`): commands that waited out the latency, battery, forced landings, then the
/// phase's dynamics.
extension DroneSimulator {
    mutating func step() {
        let t = time
        let dt = physicsStep.seconds
        while let first = pending.first, first.effectiveAt <= t {
            activeCommand = first.command
            pending.removeFirst()
        }
        let silence = lastInputAt.map { t.seconds(since: $0) } ?? .infinity
        let comLost = silence > configuration.comWatchdogSeconds

        let motorsOn = flightPhase == .flying || flightPhase == .landing || flightPhase == .takingOff
        let drain = motorsOn ? dynamics.flyingDrainPercentPerSecond : dynamics.landedDrainPercentPerSecond
        batteryPercent = max(0, batteryPercent - drain * dt)

        if flightPhase == .flying || flightPhase == .takingOff {
            if batteryPercent <= dynamics.forcedLandingBatteryPercent {
                beginLanding(.lowBattery, at: t)
            } else if silence > dynamics.comLossLandingSeconds {
                beginLanding(.comLost, at: t)
            }
        }

        switch flightPhase {
        case .landed:
            break
        case .flying:
            if comLost || activeCommand.isHover {
                integrateHorizontal(tiltReference: brakingTilt())
                integrateYaw(rateReferenceDegreesPerSecond: 0)
                integrateVertical(climbReferenceMetersPerSecond: limitedClimb(0))
            } else {
                let p = activeCommand
                let roll = Double(p.rollFraction), pitch = Double(p.pitchFraction)
                let gaz = Double(p.gazFraction), yaw = Double(p.yawFraction)
                integrateHorizontal(tiltReference: commandedTilt(roll: roll, pitch: pitch))
                integrateYaw(rateReferenceDegreesPerSecond: yaw * degrees(fromRadians: configuration.active.yawRateMaxRadiansPerSecond))
                let vzMax = configuration.active.verticalSpeedMaxMillimetersPerSecond / 1000
                let asymmetry = dynamics.descentAsymmetry && gaz < 0 ? 2.0 : 1.0
                integrateVertical(climbReferenceMetersPerSecond: limitedClimb(gaz * vzMax * asymmetry))
            }
        case .takingOff:
            if t.seconds(since: phaseStartedAt) >= dynamics.takeoffSpinUpSeconds {
                integrateHorizontal(tiltReference: brakingTilt())
                integrateYaw(rateReferenceDegreesPerSecond: 0)
                truth.climbRateMetersPerSecond = dynamics.takeoffClimbMetersPerSecond
                truth.altitudeMeters += climbRateMetersPerSecond * dt
                if altitudeMeters >= dynamics.takeoffAltitudeMeters {
                    truth.altitudeMeters = dynamics.takeoffAltitudeMeters
                    truth.climbRateMetersPerSecond = 0
                    flightPhase = .flying // hovers unless a progressive PCMD is in force
                }
            }
        case .landing:
            integrateHorizontal(tiltReference: brakingTilt())
            integrateYaw(rateReferenceDegreesPerSecond: 0)
            truth.climbRateMetersPerSecond = -dynamics.landingDescentMetersPerSecond
            truth.altitudeMeters += climbRateMetersPerSecond * dt
            if altitudeMeters <= 0 {
                touchDown()
                flightPhase = .landed
            }
        case .emergency:
            if altitudeMeters > 0 {
                // Motors cut: free fall; horizontal speed decays with drag only.
                truth.velocityENU += (windENU - velocityENU) * physicsStep.velocityAlpha
                truth.positionPlane += velocityENU * dt
                truth.climbRateMetersPerSecond -= Self.gravityMetersPerSecondSquared * dt
                truth.altitudeMeters += climbRateMetersPerSecond * dt
                truth.yawRateDegreesPerSecond = 0
                if altitudeMeters <= 0 { touchDown() }
            }
        }
        time = MonotonicTime(nanoseconds: t.nanoseconds + physicsStep.nanoseconds)
    }

    private mutating func touchDown() {
        truth.settleOnGround()
        activeCommand = .hover
        pending.removeAll(keepingCapacity: true)
    }

    /// World-frame tilt reference for a progressive command.
    private func commandedTilt(roll: Double, pitch: Double) -> PlaneVector {
        let forward: Double, right: Double
        switch dynamics.tiltProfile {
        case .sdk:
            let maxTilt = configuration.active.eulerAngleMaxRadians
            forward = -pitch * maxTilt
            right = roll * maxTilt
        case .tumLiteral:
            // tum c4 = 24° per unit, inputs clamped to ±0.5 (DroneKalmanFilter.cpp predictInternal).
            let perUnit = radians(fromDegrees: 24)
            forward = -min(max(pitch, -0.5), 0.5) * perUnit
            right = min(max(roll, -0.5), 0.5) * perUnit
        }
        let psi = radians(fromDegrees: noseHeadingDegrees)
        let s = _sin(psi), c = _cos(psi)
        // forward unit = (sinψ, cosψ), right unit = (cosψ, −sinψ) in (east, north).
        return PlaneVector(east: forward * s + right * c, north: forward * c - right * s)
    }

    /// The tilt that makes ground velocity decay as v̇ = −k·v (hover brake), saturated at
    /// euler_angle_max. From v̇ = c1·(c2·sinθ − (v − w)): sinθ = ((v − w) − k·v/c1)/c2.
    private func brakingTilt() -> PlaneVector {
        let c1 = dynamics.dragRatePerSecond, c2 = dynamics.speedPerSinTiltMetersPerSecond
        let k = dynamics.hoverBrakeRatePerSecond
        let wantedSine = (velocityENU - windENU - velocityENU * (k / c1)) / c2
        let sine = wantedSine.length
        guard sine > 0 else { return .zero }
        let tilt = wantedSine * (_asin(min(sine, 1)) / sine)
        return tilt.clamped(toLength: configuration.active.eulerAngleMaxRadians)
    }

    private mutating func integrateHorizontal(tiltReference: PlaneVector) {
        truth.tiltWorldRadians += (tiltReference - tiltWorldRadians) * physicsStep.tiltAlpha
        // Horizontal thrust is sin(|tilt|) along the tilt direction: isotropic, so the top speed
        // does not depend on the heading (tum applies sin per body axis, which is the same for a
        // pure pitch or roll).
        let tiltAngle = tiltWorldRadians.length
        let steady = tiltAngle > 0
            ? tiltWorldRadians * (dynamics.speedPerSinTiltMetersPerSecond * _sin(tiltAngle) / tiltAngle)
            : PlaneVector.zero
        truth.velocityENU += (steady + windENU - velocityENU) * physicsStep.velocityAlpha
        let before = positionPlane
        truth.positionPlane += velocityENU * physicsStep.seconds
        if let ground = groundAltitudeMeters, altitudeMeters > 0 {
            truth.altitudeMeters -= ground(positionPlane) - ground(before)
        }
    }

    private mutating func integrateYaw(rateReferenceDegreesPerSecond: Double) {
        truth.yawRateDegreesPerSecond += (rateReferenceDegreesPerSecond - yawRateDegreesPerSecond) * physicsStep.yawAlpha
        var heading = noseHeadingDegrees + yawRateDegreesPerSecond * physicsStep.seconds
        if heading >= 360 || heading < 0 { heading = normalizedDegrees360(heading) }
        truth.noseHeadingDegrees = heading
    }

    private mutating func integrateVertical(climbReferenceMetersPerSecond: Double) {
        truth.climbRateMetersPerSecond += (climbReferenceMetersPerSecond - climbRateMetersPerSecond) * verticalAlpha
        truth.altitudeMeters += climbRateMetersPerSecond * physicsStep.seconds
        // Hard limits behind the soft ones in `limitedClimb`: the firmware never leaves the band.
        let floor = configuration.altitudeMinMillimeters / 1000
        let ceiling = configuration.altitudeMaxMillimeters / 1000
        if altitudeMeters > ceiling {
            truth.altitudeMeters = ceiling
            truth.climbRateMetersPerSecond = min(climbRateMetersPerSecond, 0)
        }
        if altitudeMeters < floor {
            truth.altitudeMeters = floor
            truth.climbRateMetersPerSecond = max(climbRateMetersPerSecond, 0)
        }
    }

    /// Slows the climb reference near altitude_max and the descent near altitude_min.
    private func limitedClimb(_ reference: Double) -> Double {
        let gain = dynamics.altitudeLimitGainPerSecond
        let ceiling = configuration.altitudeMaxMillimeters / 1000
        let floor = configuration.altitudeMinMillimeters / 1000
        return max(min(reference, gain * (ceiling - altitudeMeters)), gain * (floor - altitudeMeters))
    }
}
