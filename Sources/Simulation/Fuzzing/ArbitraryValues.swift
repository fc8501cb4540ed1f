import ARDrone
import FollowCore
/// Seeded generators of valid protocol values, for round-trip tests and the fuzzers' corpora.
///
/// Every generated value is encodable and decodes back to itself: floats are finite, AT
/// fractions lie in [-1, 1], strings are printable ASCII without `"`, raw navdata options never
/// mimic a typed layout.
package enum Arbitrary {
    // MARK: AT commands

    package static func atCommand(using rng: inout SplitMix64) -> ATCommand {
        switch rng.nextInt(below: 9) {
        case 0:
            switch rng.nextInt(below: 4) {
            case 0: return .ref(.land)
            case 1: return .ref(.takeoff)
            case 2: return .ref(REFInput(flying: rng.chance(1, in: 2), emergencyToggle: true))
            default: return .ref(REFInput(rawInput: rng.nextUInt32()))
            }
        case 1:
            return .pcmd(progressiveCommand(using: &rng))
        case 2:
            return .pcmdMag(
                progressiveCommand(using: &rng),
                ControllerHeading(psiFraction: unitFraction(using: &rng),
                                  psiAccuracyFraction: unitFraction(using: &rng)))
        case 3:
            return .ftrim
        case 4:
            return .calib(.magnetometer)
        case 5:
            return .config(key: atString(using: &rng), value: atString(using: &rng))
        case 6:
            return .configIDs(sessionID: atString(using: &rng), userID: atString(using: &rng),
                              applicationID: atString(using: &rng))
        case 7:
            return .ctrl(rng.pick(ControlMode.allCases))
        default:
            return .comwdg
        }
    }

    package static func progressiveCommand(using rng: inout SplitMix64) -> ProgressiveCommand {
        ProgressiveCommand(
            flags: PCMDFlags(rawValue: UInt32(rng.nextInt(below: 8))),
            rollFraction: unitFraction(using: &rng),
            pitchFraction: unitFraction(using: &rng),
            gazFraction: unitFraction(using: &rng),
            yawFraction: unitFraction(using: &rng))
    }

    /// A float in [-1, 1], with the edge cases (±0, ±1, subnormal) over-represented.
    package static func unitFraction(using rng: inout SplitMix64) -> Float {
        switch rng.nextInt(below: 8) {
        case 0: return 0
        case 1: return -0.0
        case 2: return rng.chance(1, in: 2) ? 1 : -1
        case 3: return rng.chance(1, in: 2) ? Float.leastNonzeroMagnitude : -Float.leastNormalMagnitude
        default: return Float(Double(rng.next() >> 11) / Double(1 << 53)) * 2 - 1
        }
    }

    /// Printable ASCII without `"`, 0...16 bytes.
    package static func atString(using rng: inout SplitMix64) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<rng.nextInt(below: 17) {
            var byte: UInt8
            repeat { byte = UInt8(0x20 + rng.nextInt(below: 0x5F)) } while byte == ATByte.quote
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Navdata

    package static func navdata(using rng: inout SplitMix64) -> Navdata {
        var options: [NavdataOption] = []
        for _ in 0..<rng.nextInt(below: 7) {
            options.append(navdataOption(using: &rng))
        }
        return Navdata {
            $0.magic = rng.chance(1, in: 8) ? .alternate : .standard
            $0.state = DroneState(rawValue: rng.nextUInt32())
            $0.sequenceNumber = rng.nextUInt32()
            $0.visionFlag = rng.chance(1, in: 2) ? UInt32(rng.nextInt(below: 2)) : rng.nextUInt32()
            $0.options = options
        }
    }

    package static func navdataOption(using rng: inout SplitMix64) -> NavdataOption {
        switch rng.nextInt(below: 5) {
        case 0:
            return .demo(NavdataDemo(
                controlStateWord: rng.nextUInt32(),
                batteryPercent: UInt32(rng.nextInt(below: 101)),
                thetaMillidegrees: finiteFloat(using: &rng),
                phiMillidegrees: finiteFloat(using: &rng),
                psiMillidegrees: finiteFloat(using: &rng),
                altitudeMillimeters: Int32(truncatingIfNeeded: rng.nextUInt32()),
                bodyVelocityMillimetersPerSecond: vector(using: &rng),
                trailingBytes: randomBytes(count: NavdataDemo.legacyTrailingByteCount + rng.nextInt(below: 9),
                                           using: &rng)))
        case 1:
            return .time(NavdataTime(time: NavdataTimestamp(rawValue: rng.nextUInt32()),
                                     extensionBytes: randomBytes(count: rng.nextInt(below: 5), using: &rng)))
        case 2:
            return .magneto(NavdataMagneto {
                $0.rawCounts = NavdataInt16Vector3(
                    x: Int16(truncatingIfNeeded: rng.next()), y: Int16(truncatingIfNeeded: rng.next()),
                    z: Int16(truncatingIfNeeded: rng.next()))
                $0.rawMilligauss = vector(using: &rng)
                $0.rectifiedMilligauss = vector(using: &rng)
                $0.offsetMilligauss = vector(using: &rng)
                $0.headingUnwrappedDegrees = finiteFloat(using: &rng)
                $0.headingGyroUnwrappedDegrees = finiteFloat(using: &rng)
                $0.headingFusionUnwrappedDegrees = finiteFloat(using: &rng)
                $0.calibrationOKByte = rng.nextByte()
                $0.magnetoState = rng.nextUInt32()
                $0.radius = finiteFloat(using: &rng)
                $0.errorMean = finiteFloat(using: &rng)
                $0.errorVariance = finiteFloat(using: &rng)
                $0.extensionBytes = randomBytes(count: rng.nextInt(below: 5), using: &rng)
            })
        case 3:
            return .gps(gps(using: &rng))
        default:
            var tag: UInt16
            repeat {
                tag = rng.chance(1, in: 2) ? UInt16(rng.nextInt(below: 32)) : UInt16(truncatingIfNeeded: rng.next())
            } while [0, 1, 22, 0xFFFF].contains(tag)
            var count = rng.nextInt(below: 65)
            if tag == NavdataOptionTag.gps.rawValue, count == NavdataGPS.byteCount - 4 { count += 1 }
            return .raw(NavdataRawOption(tag: NavdataOptionTag(rawValue: tag),
                                         payload: randomBytes(count: count, using: &rng)))
        }
    }

    package static func gps(using rng: inout SplitMix64) -> NavdataGPS {
        var terms: [Float] = []
        for _ in 0..<NavdataGPS.controllerTermCount { terms.append(finiteFloat(using: &rng)) }
        var channels: [NavdataGPSChannel] = []
        for _ in 0..<NavdataGPS.channelCount {
            channels.append(NavdataGPSChannel { ($0.satelliteID, $0.carrierToNoise) = (rng.nextByte(), rng.nextByte()) })
        }
        return NavdataGPS {
            ($0.latitudeDegrees, $0.longitudeDegrees) = (finiteDouble(using: &rng), finiteDouble(using: &rng))
            ($0.elevationMeters, $0.hdop) = (finiteDouble(using: &rng), finiteDouble(using: &rng))
            ($0.dataAvailable, $0.zeroValidatedFlag) = (rng.nextUInt32(), rng.nextUInt32())
            $0.waypointValidatedFlag = rng.nextUInt32()
            ($0.latitude0Degrees, $0.longitude0Degrees) = (finiteDouble(using: &rng), finiteDouble(using: &rng))
            ($0.latitudeFusedDegrees, $0.longitudeFusedDegrees) = (finiteDouble(using: &rng), finiteDouble(using: &rng))
            ($0.gpsState, $0.waypointControllerTerms) = (rng.nextUInt32(), terms)
            ($0.vdop, $0.pdop, $0.speed) = (finiteDouble(using: &rng), finiteDouble(using: &rng), finiteFloat(using: &rng))
            $0.lastFrameTimestamp = NavdataTimestamp(rawValue: rng.nextUInt32())
            ($0.degree, $0.degreeMagnetic) = (finiteFloat(using: &rng), finiteFloat(using: &rng))
            ($0.ehpe, $0.ehve) = (finiteFloat(using: &rng), finiteFloat(using: &rng))
            ($0.carrierToNoise, $0.satelliteCount, $0.channels) = (finiteFloat(using: &rng), rng.nextUInt32(), channels)
            ($0.gpsPluggedFlag, $0.ephemerisStatus) = (rng.nextUInt32(), rng.nextUInt32())
            ($0.vxTraj, $0.vyTraj, $0.firmwareStatus) = (finiteFloat(using: &rng), finiteFloat(using: &rng), rng.nextUInt32())
        }
    }

    /// Any finite float (random bit pattern, NaN/infinity excluded).
    package static func finiteFloat(using rng: inout SplitMix64) -> Float {
        var value: Float
        repeat { value = Float(bitPattern: rng.nextUInt32()) } while !value.isFinite
        return value
    }

    /// Any finite double (random bit pattern, NaN/infinity excluded).
    package static func finiteDouble(using rng: inout SplitMix64) -> Double {
        var value: Double
        repeat { value = Double(bitPattern: rng.next()) } while !value.isFinite
        return value
    }

    package static func vector(using rng: inout SplitMix64) -> NavdataVector3 {
        NavdataVector3(x: finiteFloat(using: &rng), y: finiteFloat(using: &rng), z: finiteFloat(using: &rng))
    }

    package static func randomBytes(count: Int, using rng: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(rng.nextByte()) }
        return bytes
    }
}
