import FollowCore

/// The GCS-failsafe parameters (docs/mavlink.md §7.8): read before take-off; a vehicle that would
/// hover on when FollowMe stops fails the configuration, so the core's `droneConfigured` stays missing.
extension MAVLinkSession {
    /// Sends the PARAM_REQUEST_READs due: each unanswered parameter every `commandAckTimeoutSeconds`,
    /// `commandMaxAttempts` times; a failed verdict is read again after `refusedRetrySeconds` (the
    /// operator may be fixing it).
    mutating func advanceParameterReads(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let target = vehicleTarget, !isTelemetryLost, !autopilotMismatch else { return }
        let timing = configuration.timing
        for index in parameters.indices where parameters[index].isPending {
            if let last = parameters[index].lastSentAt, now.seconds(since: last) < timing.commandAckTimeoutSeconds { continue }
            guard parameters[index].attempts < timing.commandMaxAttempts else {
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
        // Re-read after a failure: the verdict may change once the operator sets the parameter.
        // (`reportedParameterFailures`, not the verdict: this runs every tick and must not build strings.)
        if !reportedParameterFailures.isEmpty, parameters.allSatisfy({ !$0.isPending }),
           let newest = parameters.compactMap(\.lastSentAt).max(), now.seconds(since: newest) >= timing.refusedRetrySeconds {
            for index in parameters.indices {
                parameters[index].value = nil
                parameters[index].unanswered = false
                parameters[index].attempts = 0
                parameters[index].lastSentAt = nil
            }
        }
    }

    var parameterVerdict: ParameterVerdict {
        parameters.verdict(autopilot: configuration.autopilot, systemID: configuration.systemID)
    }

    /// A PARAM_VALUE from the vehicle: kept when it names a parameter we read. PX4 sends integers
    /// bytewise in the float (MAV_PROTOCOL_CAPABILITY_PARAM_ENCODE_BYTEWISE), ArduPilot as floats.
    mutating func receive(_ value: ParamValue, now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        guard let index = parameters.firstIndex(where: { $0.name == value.parameterID.string }) else { return }
        parameters[index].value = value.number(bytewise: profile.autopilot == .px4)
        parameters[index].unanswered = false
        parameters[index].lastSentAt = now
        parametersChanged(now: now, output: &output)
    }

    /// A parameter was answered or given up: a failure is reported (once per key and value), and the
    /// configuration is reported when everything is resolved.
    mutating func parametersChanged(now: MonotonicTime, output: inout MAVLinkSessionOutput) {
        switch parameterVerdict {
        case .failed(let key, let value, let reason):
            if reportedParameterFailures[key] != value {
                output.events.append(.configurationFailed(key: key, value: value, reason: reason, at: now))
            }
            reportedParameterFailures = [key: value]
        case .passed:
            reportedParameterFailures = [:]
        case .pending:
            break
        }
        reportConfigurationIfResolved(now: now, output: &output)
    }
}
