import FlightService
import FollowCore
import Foundation
import Synchronization

/// Decides whether a `POST /command` may reach the flight: the client's rate, the body's form, the
/// command's name and the pairing code, in that order (the rate first, so that guessing the code is
/// as slow as commanding). No HTTP here: the routes map a refusal to its status code.
final class CockpitCommandGate: Sendable {
    /// What the cockpit says no to, before the flight sees the command.
    enum Refusal: Error, Equatable {
        /// This client commanded too often (`CommandRateLimit`), or too many clients command at once.
        case rateLimited(String)
        /// Not `Content-Type: application/json` (which also keeps other web sites' forms out: a
        /// cross-origin JSON POST needs a CORS preflight the cockpit never answers).
        case notJSON
        /// Not a JSON object with a string `command`, or a command the cockpit does not take.
        case badRequest(String)
        /// The pairing code is wrong or missing.
        case unauthorized(command: String)
    }

    /// The body the page sends: `{"command":"land","code":"123456"}`, or a change of follow mode
    /// `{"command":"mode","mode":"angle","angle_deg":90,"orbit_direction":"clockwise","code":"123456"}`
    /// (the status socket's line, with the code).
    struct Body: Decodable {
        var command: String
        var code: String?
        var mode: String?
        var angleDegrees: Double?
        var orbitDirection: String?

        enum CodingKeys: String, CodingKey {
            case command, code, mode, angleDegrees = "angle_deg", orbitDirection = "orbit_direction"
        }
    }

    /// How many clients' rate buckets are kept: our choice, far more phones than a field holds; past
    /// it, buckets idle for `idleBucketSeconds` are forgotten, and a new client waits if none is.
    static let maxClients = 256
    /// A bucket idle this long is full again anyway (4 tokens at 2/s take 2 s), so forgetting it changes nothing.
    static let idleBucketSeconds = 10.0

    private let code: PairingCode
    private let landWithoutCode: Bool
    private let buckets = Mutex<[String: (limit: CommandRateLimit, last: MonotonicTime)]>([:])

    init(code: PairingCode, landWithoutCode: Bool) {
        (self.code, self.landWithoutCode) = (code, landWithoutCode)
    }

    /// Takes one token from `client`'s bucket at `now`; every request to `/command` takes one,
    /// whatever it holds.
    func admit(client: String, now: MonotonicTime) throws(Refusal) {
        let allowed = buckets.withLock { buckets -> Bool? in
            if buckets[client] == nil, buckets.count >= Self.maxClients {
                buckets = buckets.filter { now.seconds(since: $0.value.last) < Self.idleBucketSeconds }
                guard buckets.count < Self.maxClients else { return nil }
            }
            var entry = buckets[client] ?? (CommandRateLimit(), now)
            let allowed = entry.limit.allow(now: now)
            entry.last = now
            buckets[client] = entry
            return allowed
        }
        switch allowed {
        case true?: return
        case false?:
            throw .rateLimited("too many commands from \(client): at most \(Int(CommandRateLimit.burst)) at once, "
                + "then \(Int(CommandRateLimit.perSecond)) a second; wait a moment")
        case nil:
            throw .rateLimited("too many clients command this flight at once; wait a moment")
        }
    }

    /// The request in `body` if it may go to the flight: well-formed, known, and with the right code
    /// (LAND without one when `[web] land_without_code`; a mode change always needs it).
    func command(body: some Collection<UInt8>, contentType: String?) throws(Refusal) -> OperatorRequest {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else { throw .notJSON }
        guard let parsed = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw .badRequest(#"the body must be a JSON object like {"command":"land","code":"123456"}"#)
        }
        let request: OperatorRequest
        if parsed.command.lowercased() == "mode" {
            do throws(FollowModeChange.Invalid) {
                request = .followMode(try FollowModeChange(modeName: parsed.mode ?? "", angleDegrees: parsed.angleDegrees,
                                                           directionName: parsed.orbitDirection))
            } catch {
                throw .badRequest(error.description)
            }
        } else if let command = OperatorCommand(rawValue: parsed.command.lowercased()) {
            request = .command(command)
        } else {
            let known = OperatorRequest.names.joined(separator: ", ")
            throw .badRequest("unknown command \"\(parsed.command.prefix(40))\": the cockpit takes \(known)")
        }
        guard code.matches(parsed.code) || (request == .command(.land) && landWithoutCode) else {
            throw .unauthorized(command: request.name)
        }
        return request
    }
}
