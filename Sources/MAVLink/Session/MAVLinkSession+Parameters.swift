import FollowCore

/// The GCS-failsafe parameters (docs/mavlink.md §7.8): read before take-off; a vehicle that would
/// hover on when FollowMe stops fails the configuration, so the core's `droneConfigured` stays missing.
extension MAVLinkSession {
    /// Sends the PARAM_REQUEST_READs due: each unanswered parameter every `commandAckTimeoutSeconds`,
    /// `commandMaxAttempts` times; after a failed verdict, every parameter once more each
    /// `parameterRereadSeconds` (the operator may be fixing it).
    mutating func advanceParameterReads(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let target = vehicleTarget, !isTelemetryLost, !autopilotMismatch else { return }
        let timing = configuration.timing
        // Re-read after a failure, every parameter in the same tick: the verdict may change once the
        // operator sets the parameter. (`reportedParameterFailures`, not the verdict: this runs every
        // tick and must not build strings.)
        if !reportedParameterFailures.isEmpty, let since = parameterRereadAt,
           now.seconds(since: since) >= Self.parameterRereadSeconds,
           !parameters.contains(where: { $0.isPending || $0.rereading }) {
            parameterRereadAt = now
            for index in parameters.indices {
                parameters[index].rereading = true
                parameters[index].attempts = 0
                parameters[index].lastSentAt = nil
            }
        }
        for index in parameters.indices where parameters[index].isPending || parameters[index].rereading {
            if let last = parameters[index].lastSentAt, now.seconds(since: last) < timing.commandAckTimeoutSeconds { continue }
            if parameters[index].rereading, parameters[index].attempts >= 1 {
                // One read per round: what was known stands; the next round asks again.
                parameters[index].rereading = false
                continue
            }
            guard parameters[index].attempts < maximumReads(parameters[index].name) else {
                parameters[index].unanswered = true
                parameters[index].lastSentAt = now
                parametersChanged(now: now, output: &output)
                continue
            }
            parameters[index].attempts += 1
            parameters[index].lastSentAt = now
            emit(.parameterRead(ParamRequestRead {
                $0.parameterIndex = -1
                $0.target = target
                $0.parameterID = MAVLinkText(parameters[index].name)
            }), into: &output)
        }
    }

    /// How often the parameters are read again while the verdict fails, seconds, from one round's
    /// start to the next. Our choice: 2 s, two HEARTBEAT periods. An operator who sets the parameter
    /// from a ground station sees FollowMe accept it within that (the vehicle's PARAM_VALUE after the
    /// set is taken at once too, when it reaches FollowMe); a round is one PARAM_REQUEST_READ per
    /// parameter (at most 8 of 32 bytes each), and known values stand until answered, so a lost
    /// answer neither delays the next round nor turns a value into "unanswered".
    static let parameterRereadSeconds = 2.0

    var parameterVerdict: ParameterVerdict {
        parameters.verdict(autopilot: configuration.autopilot, systemID: configuration.systemID)
    }

    /// A PARAM_VALUE from the vehicle: kept when it names a parameter we read. PX4 sends integers
    /// bytewise in the float (MAV_PROTOCOL_CAPABILITY_PARAM_ENCODE_BYTEWISE), ArduPilot as floats.
    mutating func receive(_ value: ParamValue, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        let name = value.parameterID.string
        guard let index = parameters.firstIndex(where: { $0.name == name }) else { return }
        parameters[index].value = value.number(bytewise: profile.autopilot == .px4)
        parameters[index].unanswered = false
        parameters[index].rereading = false
        parameters[index].lastSentAt = now
        // The GCS id's two names belong to two ArduPilot generations: one answered settles the other as
        // absent (an ArduPilot answers a name it lacks with nothing), and the old name has no range either.
        let absent = switch name {
        case "SYSID_MYGCS": ["MAV_GCS_SYSID", "MAV_GCS_SYSID_HI"]
        case "MAV_GCS_SYSID": ["SYSID_MYGCS"]
        case "MNT1_TYPE": ["MNT_TYPE"]
        case "MNT_TYPE": ["MNT1_TYPE"]
        default: [String]()
        }
        for other in parameters.indices where absent.contains(parameters[other].name) && parameters[other].isPending {
            parameters[other].unanswered = true
            parameters[other].lastSentAt = now
        }
        parametersChanged(now: now, output: &output)
    }

    /// PARAM_REQUEST_READs sent for `name` before it counts as absent: `commandMaxAttempts`, but one for
    /// `MAV_GCS_SYSID_HI` once `MAV_GCS_SYSID` answered, and one for PX4's `COM_OBL_ACT` once
    /// `COM_OBL_RC_ACT` answered — the same table on the same link answered a moment ago, so silence
    /// means a firmware without the name (an ArduPilot with the id but not the range, seen on ArduCopter
    /// SITL; a newer PX4 whose only offboard-loss action is `COM_OBL_RC_ACT`), not a lost datagram worth four more seconds before take-off.
    func maximumReads(_ name: String) -> Int {
        let answeredSibling = switch name {
        case "MAV_GCS_SYSID_HI": "MAV_GCS_SYSID"
        case "COM_OBL_ACT": "COM_OBL_RC_ACT"
        default: ""
        }
        guard !answeredSibling.isEmpty, parameters.state(answeredSibling)?.value != nil else {
            return configuration.timing.commandMaxAttempts
        }
        return 1
    }

    /// A parameter was answered or given up: a failure is reported (once per key and value), and the
    /// configuration is reported when everything is resolved.
    mutating func parametersChanged(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        switch parameterVerdict {
        case .failed(let key, let value, let reason):
            if reportedParameterFailures[key] != value {
                output.events.append(.configurationFailed(key: key, value: value, reason: reason, at: now))
            }
            if reportedParameterFailures.isEmpty { parameterRereadAt = now }
            reportedParameterFailures = [key: value]
        case .passed:
            reportedParameterFailures = [:]
            parameterRereadAt = nil
        case .pending:
            break
        }
        reportConfigurationIfResolved(now: now, output: &output)
    }
}
