@testable import ARDrone
@testable import FollowCore
@testable import Simulation
import Testing

@Suite("DroneSimulator physics")
struct DroneSimulatorPhysicsTests {
    @Test("pitch −1 at the default 12° approaches c2·sin(12°) ≈ 3.64 m/s along the nose", arguments: [0.0, 90.0, 225.0])
    func fullForwardTopSpeed(noseHeadingDegrees: Double) {
        // Given a hovering drone with default config (euler_angle_max 12°)
        var sim = DroneSimulator.hoveringAfterTakeoff(noseHeadingDegrees: noseHeadingDegrees)
        // When it is commanded full forward for 15 s (≈ 9 drag time constants)
        sim.pilot(forward(1), seconds: 15)
        // Then it flies at the model's top speed, along its nose
        let speed = sim.velocityENU.length
        #expect(abs(speed - 3.6) / 3.6 < 0.05)
        #expect(abs(speed - steadySpeed(tiltRadians: 12 * .pi / 180)) < 0.01)
        #expect(abs(wrappedDegrees180(sim.velocityENU.bearingDegrees - noseHeadingDegrees)) < 0.5)
        // And navdata reports it in the body frame: vx forward, theta negative (nose down)
        let nav = sim.demoOption
        #expect(abs(Double(nav.bodyVelocityMillimetersPerSecond.x) - speed * 1000) < 1)
        #expect(abs(nav.bodyVelocityMillimetersPerSecond.y) < 5)
        #expect(abs(nav.thetaMillidegrees + 12000) < 50)
        #expect(nav.controlState == .flying)
    }

    @Test("positive roll moves the drone to its right (nose + 90°)")
    func rollRight() {
        var sim = DroneSimulator.hoveringAfterTakeoff(noseHeadingDegrees: 30)
        sim.pilot(.pcmd(ProgressiveCommand(rollFraction: 0.5)), seconds: 10)
        #expect(abs(wrappedDegrees180(sim.velocityENU.bearingDegrees - 120)) < 0.5)
        #expect(sim.demoOption.bodyVelocityMillimetersPerSecond.y > 1000)
        #expect(sim.demoOption.phiMillidegrees > 5000)
    }

    @Test("yaw 1.0 at control_yaw 100°/s turns clockwise at ≈100°/s")
    func yawRate() {
        // Given a hovering drone
        var sim = DroneSimulator.hoveringAfterTakeoff()
        // When full right yaw is commanded and the rate has settled (c5 = 25 s⁻¹)
        sim.pilot(.pcmd(ProgressiveCommand(yawFraction: 1)), seconds: 1)
        let before = sim.noseHeadingDegrees
        sim.pilot(.pcmd(ProgressiveCommand(yawFraction: 1)), seconds: 1.5)
        // Then the heading advanced by ≈150° in 1.5 s
        let turned = normalizedDegrees360(sim.noseHeadingDegrees - before)
        #expect(abs(turned / 1.5 - 100) < 1)
        #expect(abs(sim.yawRateDegreesPerSecond - 100) < 0.5)
    }

    @Test("negative yaw turns counter-clockwise; psi reports ±180000 compass-like")
    func yawLeftAndPsi() {
        var sim = DroneSimulator.hoveringAfterTakeoff(noseHeadingDegrees: 10)
        sim.pilot(.pcmd(ProgressiveCommand(yawFraction: -0.5)), seconds: 2)
        // 50°/s for ~2 s (minus the 0.1 s latency and the 40 ms lag) ≈ −93°
        #expect(sim.yawRateDegreesPerSecond < -49)
        #expect(sim.noseHeadingDegrees > 270 && sim.noseHeadingDegrees < 285)
        #expect(sim.demoOption.psiMillidegrees < -75000 && sim.demoOption.psiMillidegrees > -90000)
    }

    @Test("hover (PCMD flag 0) brakes to zero faster than coasting with zero progressive commands")
    func hoverBrakes() {
        // Given two drones flying forward at ≈3.6 m/s
        var hovering = DroneSimulator.hoveringAfterTakeoff()
        hovering.pilot(forward(1), seconds: 12)
        var coasting = hovering
        let initial = hovering.velocityENU.length
        // When one is told to hover and the other gets progressive zeros for 3 s
        hovering.pilot(.pcmd(.hover), seconds: 3)
        coasting.pilot(.pcmd(ProgressiveCommand(flags: .progressive)), seconds: 3)
        // Then the hovering one has nearly stopped, reports HOVERING, and the coasting one is faster
        #expect(hovering.velocityENU.length < 0.1 * initial)
        #expect(coasting.velocityENU.length > 2 * hovering.velocityENU.length)
        #expect(hovering.demoOption.controlState == .hovering)
        #expect(coasting.demoOption.controlState == .flying)
        // And a hovering drone stays put
        let parked = hovering.positionPlane
        hovering.pilot(.pcmd(.hover), seconds: 10)
        #expect((hovering.positionPlane - parked).length < 0.2)
        #expect(hovering.velocityENU.length < 0.01)
    }

    @Test("a PCMD acts after the command latency", arguments: [0.05, 0.1, 0.2])
    func commandLatency(latencySeconds: Double) {
        var dynamics = DroneDynamics.standard
        dynamics.commandLatencySeconds = latencySeconds
        var sim = DroneSimulator(dynamics: dynamics, startAirborne: true)
        sim.apply(forward(1), at: MonotonicTime(seconds: 1))
        sim.advance(to: MonotonicTime(seconds: 1 + latencySeconds - 0.01))
        #expect(sim.tiltWorldRadians.length == 0)
        sim.advance(to: MonotonicTime(seconds: 1 + latencySeconds + 0.02))
        #expect(sim.tiltWorldRadians.length > 0)
    }

    @Test("euler_angle_max written with AT*CONFIG changes the top speed", arguments: [0.1, 0.35, 0.52])
    func configChangesTilt(eulerRadians: Double) {
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.apply(.config(key: "control:euler_angle_max", value: "\(eulerRadians)"), at: sim.time)
        sim.pilot(forward(1), seconds: 20)
        let expected = steadySpeed(tiltRadians: eulerRadians)
        #expect(abs(sim.velocityENU.length - expected) / expected < 0.01)
    }

    @Test("tum-literal profile: 24° per unit clamped at ±0.5 ignores euler_angle_max")
    func tumLiteralProfile() {
        var dynamics = DroneDynamics.standard
        dynamics.tiltProfile = .tumLiteral
        var sim = DroneSimulator(dynamics: dynamics, startAirborne: true)
        sim.apply(.config(key: "control:euler_angle_max", value: "0.35"), at: .zero)
        sim.pilot(forward(1), seconds: 20)
        #expect(abs(sim.velocityENU.length - steadySpeed(tiltRadians: 12 * .pi / 180)) < 0.02)
    }

    @Test("gaz climbs at control_vz_max; descent is doubled only with the tum asymmetry", arguments: [true, false])
    func vertical(asymmetry: Bool) {
        var dynamics = DroneDynamics.standard
        dynamics.descentAsymmetry = asymmetry
        var sim = DroneSimulator(dynamics: dynamics, startAirborne: true)
        sim.apply(.config(key: "control:altitude_max", value: "10000"), at: .zero)
        sim.pilot(.pcmd(ProgressiveCommand(gazFraction: 0.5)), seconds: 1.5)
        // c7 = 0.8 s⁻¹: after 1.5 s (minus latency) the climb rate is ≈ 0.35·(1 − e^{−1.1}) m/s
        #expect(sim.climbRateMetersPerSecond > 0.2 && sim.climbRateMetersPerSecond < 0.35)
        sim.pilot(.pcmd(ProgressiveCommand(gazFraction: 1)), seconds: 4)
        sim.pilot(.pcmd(ProgressiveCommand(gazFraction: -0.25)), seconds: 7)
        #expect(sim.altitudeMeters > 1)
        let expected = -0.25 * 0.7 * (asymmetry ? 2 : 1)
        #expect(abs(sim.climbRateMetersPerSecond - expected) < 0.01)
        #expect(abs(Double(sim.demoOption.bodyVelocityMillimetersPerSecond.z) + expected * 1000) < 10) // z down
    }

    @Test("altitude_max stops the climb")
    func ceiling() {
        var sim = DroneSimulator(startAirborne: true)
        sim.apply(.config(key: "control:altitude_max", value: "2000"), at: .zero)
        sim.pilot(.pcmd(ProgressiveCommand(gazFraction: 1)), seconds: 30)
        #expect(sim.altitudeMeters > 1.8 && sim.altitudeMeters < 2.05)
        #expect(abs(Double(sim.demoOption.altitudeMillimeters) - sim.altitudeMeters * 1000) < 1)
    }

    @Test("wind pushes a coasting drone; hover holds it still")
    func wind() {
        var dynamics = DroneDynamics.standard
        dynamics.windENU = PlaneVector(east: 2, north: 0)
        var sim = DroneSimulator(dynamics: dynamics, startAirborne: true)
        var coasting = sim
        coasting.pilot(.pcmd(ProgressiveCommand(flags: .progressive)), seconds: 15)
        #expect(abs(coasting.velocityENU.east - 2) < 0.05)
        sim.pilot(.pcmd(.hover), seconds: 15)
        #expect(sim.velocityENU.length < 0.01)
    }

    @Test("the result does not depend on how time is advanced")
    func stepGridIndependence() {
        var a = DroneSimulator.hoveringAfterTakeoff()
        a.apply(forward(0.7), at: a.time)
        var b = a
        a.advance(to: a.time.adding(seconds: 5))
        let end = b.time.adding(seconds: 5)
        var t = b.time
        while t < end {
            t = t.adding(seconds: 0.0123)
            b.advance(to: min(t, end))
        }
        #expect(a.time == b.time)
        #expect(a.positionPlane == b.positionPlane)
        #expect(a.velocityENU == b.velocityENU)
    }
}

@Suite("DroneSimulator flight states")
struct DroneSimulatorStateTests {
    @Test("starts landed with the com watchdog bit set (no client yet)")
    func initialState() {
        let sim = DroneSimulator()
        let nav = sim.demoOption, state = sim.droneState
        #expect(sim.flightPhase == .landed)
        #expect(nav.controlState == .landed)
        #expect(nav.controlStateWord == 2 << 16)
        #expect(state.contains(.communicationWatchdog))
        #expect(!state.contains(.flying))
        #expect(nav.batteryPercent == 100)
        #expect(nav.altitudeMillimeters == 0)
    }

    @Test("REF bit 9 while landed takes off: TRANS_TAKEOFF, then hovering at ≈1 m")
    func takeoff() {
        // Given a landed drone
        var sim = DroneSimulator()
        // When the client sends REF with bit 9 for a second
        sim.pilot(nil, seconds: 1)
        // Then it is taking off with the FLY bit set
        #expect(sim.flightPhase == .takingOff)
        #expect(sim.demoOption.controlState == .transitionTakeoff)
        #expect(sim.navdata.state.contains(.flying))
        #expect(!sim.navdata.state.contains(.communicationWatchdog))
        // And within a few seconds it hovers at about 1 m
        sim.pilot(nil, seconds: 4)
        #expect(sim.flightPhase == .flying)
        #expect(sim.demoOption.controlState == .hovering)
        #expect(abs(sim.altitudeMeters - 1) < 0.05)
    }

    @Test("REF bit 9 cleared while flying lands: TRANS_LANDING, then LANDED")
    func land() {
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.pilot(forward(0.5), seconds: 3)
        sim.pilot(nil, seconds: 0.5, takeoff: false)
        #expect(sim.flightPhase == .landing)
        #expect(sim.landingReason == .commanded)
        #expect(sim.demoOption.controlState == .transitionLanding)
        sim.pilot(nil, seconds: 5, takeoff: false)
        #expect(sim.flightPhase == .landed)
        #expect(sim.altitudeMeters == 0)
        #expect(sim.velocityENU == .zero)
        #expect(!sim.navdata.state.contains(.flying))
        #expect(sim.demoOption.controlState == .landed)
    }

    @Test("com watchdog: hover after 2 s of silence, land after 5 s; any command clears the bit")
    func comWatchdog() {
        // Given a drone flying forward under 30 ms commands
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.pilot(forward(1), seconds: 10)
        let speed = sim.velocityENU.length
        // When the client goes silent for 1.9 s
        sim.wait(seconds: 1.9)
        // Then it still obeys the last command
        #expect(sim.demoOption.controlState == .flying)
        #expect(!sim.navdata.state.contains(.communicationWatchdog))
        // When silence passes 2 s
        sim.wait(seconds: 0.2)
        // Then it hovers on lost com and sets bit 30
        #expect(sim.navdata.state.contains(.communicationWatchdog))
        #expect(sim.demoOption.controlState == .hovering)
        #expect(sim.demoOption.controlStateMinor == ControlMinorState.hoveringLostCom)
        sim.wait(seconds: 2.5)
        #expect(sim.velocityENU.length < 0.2 * speed)
        #expect(sim.flightPhase == .flying)
        // When silence passes 5 s it lands by itself
        sim.wait(seconds: 0.5)
        #expect(sim.flightPhase == .landing)
        #expect(sim.landingReason == .comLost)
        sim.wait(seconds: 5)
        #expect(sim.flightPhase == .landed)
        // And a returning client clears bit 30 but cannot take off with bit 9 still held
        sim.pilot(nil, seconds: 1)
        #expect(!sim.navdata.state.contains(.communicationWatchdog))
        #expect(sim.flightPhase == .landed)
        // until it sends a land REF first
        sim.retryTakeoff(holdSeconds: 0.5)
        #expect(sim.flightPhase == .takingOff)
    }

    @Test("commands resuming within the landing timeout end the lost-com hover")
    func comWatchdogRecovers() {
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.wait(seconds: 3)
        #expect(sim.demoOption.controlStateMinor == ControlMinorState.hoveringLostCom)
        sim.pilot(forward(1), seconds: 1)
        #expect(sim.demoOption.controlState == .flying)
        #expect(!sim.navdata.state.contains(.communicationWatchdog))
    }

    @Test("general:com_watchdog changes the first timeout")
    func comWatchdogConfig() {
        var sim = DroneSimulator.hoveringAfterTakeoff()
        sim.apply(.config(key: "general:com_watchdog", value: "1"), at: sim.time)
        sim.wait(seconds: 1.1)
        #expect(sim.navdata.state.contains(.communicationWatchdog))
    }

    @Test("emergency: bit 8 rising edge cuts the motors; toggling again on the ground clears it")
    func emergency() {
        // Given a drone hovering at 1 m
        var sim = DroneSimulator.hoveringAfterTakeoff()
        // When the client holds REF bit 8 for 0.2 s
        sim.pilot(nil, seconds: 0.2, emergencyBit: true)
        // Then the motors are cut (one toggle, not one per REF) and it falls
        #expect(sim.flightPhase == .emergency)
        #expect(sim.navdata.state.contains(.emergency))
        #expect(!sim.navdata.state.contains(.flying))
        #expect(sim.demoOption.controlState == .defaultState)
        #expect(sim.altitudeMeters < 1)
        sim.pilot(nil, seconds: 1)
        #expect(sim.altitudeMeters == 0)
        #expect(sim.flightPhase == .emergency)
        // When bit 8 rises again on the ground
        sim.pilot(nil, seconds: 0.2, emergencyBit: true)
        // Then the emergency clears, and bit 9 held does not relaunch it
        #expect(sim.flightPhase == .landed)
        #expect(!sim.navdata.state.contains(.emergency))
        sim.pilot(nil, seconds: 1)
        #expect(sim.flightPhase == .landed)
    }

    @Test("an emergency toggle during the fall does not clear the emergency")
    func emergencyToggleWhileFalling() {
        var dynamics = DroneDynamics.standard
        dynamics.takeoffAltitudeMeters = 3 // a longer fall (≈0.8 s)
        var sim = DroneSimulator.hoveringAfterTakeoff(dynamics: dynamics)
        sim.pilot(nil, seconds: 8)
        sim.apply(.ref(REFInput(flying: true, emergencyToggle: true)), at: sim.time.adding(seconds: 0.03))
        sim.apply(.ref(REFInput(flying: true, emergencyToggle: false)), at: sim.time.adding(seconds: 0.06))
        sim.apply(.ref(REFInput(flying: true, emergencyToggle: true)), at: sim.time.adding(seconds: 0.09))
        #expect(sim.altitudeMeters > 0)
        #expect(sim.flightPhase == .emergency)
    }

    @Test("battery drains ≈12 min per pack in flight, sets VBAT_LOW below 20 % and forces a landing")
    func battery() {
        // Given a drone flying from a full pack
        var sim = DroneSimulator.hoveringAfterTakeoff()
        let afterTakeoff = sim.batteryPercent
        sim.pilot(.pcmd(.hover), seconds: 360)
        // Then 6 min of flight uses half the pack
        #expect(abs((afterTakeoff - sim.batteryPercent) - 50) < 0.5)
        #expect(!sim.navdata.state.contains(.batteryLow))
        // When it keeps flying to 19 %
        sim.pilot(.pcmd(.hover), seconds: 230)
        #expect(sim.navdata.state.contains(.batteryLow))
        #expect(sim.flightPhase == .flying)
        // Then at ≈3 % it lands by itself
        sim.pilot(.pcmd(.hover), seconds: 120)
        #expect(sim.landingReason == .lowBattery)
        #expect(sim.flightPhase == .landed)
        // And refuses to take off again
        sim.retryTakeoff(holdSeconds: 1)
        #expect(sim.flightPhase == .landed)
    }

    @Test("landed drain is much slower than flying drain")
    func batteryLanded() {
        var sim = DroneSimulator()
        sim.wait(seconds: 600)
        #expect(sim.batteryPercent > 90 && sim.batteryPercent < 95)
    }

    @Test("a config write raises ACK bit 6 until AT*CTRL 5")
    func configAck() {
        var sim = DroneSimulator()
        sim.apply(.config(key: "control:altitude_max", value: "5000"), at: MonotonicTime(seconds: 1))
        #expect(sim.navdata.state.contains(.commandAcknowledged))
        sim.apply(.ctrl(.acknowledgeCommand), at: MonotonicTime(seconds: 1.05))
        #expect(!sim.navdata.state.contains(.commandAcknowledged))
        #expect(sim.configuration.altitudeMaxMillimeters == 5000)
    }

    @Test("FTRIM is counted only while landed")
    func flatTrim() {
        var sim = DroneSimulator()
        sim.apply(.ftrim, at: MonotonicTime(seconds: 0.1))
        #expect(sim.flatTrimCount == 1)
        var flying = DroneSimulator(startAirborne: true)
        flying.apply(.ftrim, at: MonotonicTime(seconds: 0.1))
        #expect(flying.flatTrimCount == 0)
    }
}
