import FlightService
import FollowCore
import Foundation
import Synchronization

/// Decides whether a `POST /command` may go on: the sender's rate and the body's form and command.
/// Who may command (a paired token, the secret, `land_without_code`) is `CockpitAuthority`'s and the
/// routes' decision. No HTTP here: the routes map a refusal to its status code.
final class CockpitCommandGate: Sendable {
    /// What the cockpit says no to, before the flight sees the command.
    enum Refusal: Error, Equatable {
        /// This sender commanded too often (`CommandRateLimit`).
        case rateLimited(String)
        /// Not `Content-Type: application/json` (which also keeps other web sites' forms out: a
        /// cross-origin JSON POST needs a CORS preflight the cockpit never answers).
        case notJSON
        /// Not a JSON object with a string `command`, or a command the cockpit does not take.
        case badRequest(String)
        /// No valid token, and the pairing code is wrong or missing.
        case unauthorized(command: String)
    }

    /// The body the page sends: `{"command":"land"}` with the phone's token in `X-FollowMe-Token`, or
    /// with the secret `{"command":"land","code":"…"}`; a change of follow mode
    /// `{"command":"mode","mode":"angle","angle_deg":90,"orbit_direction":"clockwise"}` (the status
    /// socket's line).
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

    /// How many senders' rate buckets are kept, per kind (addresses; paired tokens apart): our
    /// choice, far more phones than a field holds. Past it the least recently used bucket is
    /// forgotten, so filling the table from many addresses locks nobody out: a forgotten sender
    /// starts again with a full bucket, and a paired phone's bucket is never among the addresses'.
    static let maxClients = 256

    private let buckets = Mutex(RateTable())

    init() {}

    /// Takes one token from `client`'s bucket at `now` (an address, or `paired:ID` for a paired
    /// phone's token); every request to `/command` takes one, whatever it holds.
    func admit(client: String, now: MonotonicTime) throws(Refusal) {
        guard buckets.withLock({ $0.allow(client, now: now) }) else {
            throw .rateLimited("too many commands from \(client.hasPrefix("paired:") ? "this phone" : client): at most "
                + "\(Int(CommandRateLimit.burst)) at once, then \(Int(CommandRateLimit.perSecond)) a second; wait a moment")
        }
    }

    /// Senders with a bucket now (tests).
    var clientCount: Int { buckets.withLock { $0.count } }

    /// The command in `body` and the code it carries, if well-formed and known (whether it may go to
    /// the flight is the caller's decision).
    func parse(body: some Collection<UInt8>, contentType: String?) throws(Refusal) -> (request: OperatorRequest, code: String?) {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else { throw .notJSON }
        guard let parsed = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw .badRequest(#"the body must be a JSON object like {"command":"land"}"#)
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
        return (request, parsed.code)
    }
}

/// Rate buckets by sender, bounded: addresses and paired tokens in two tables of `maxClients` each,
/// each forgetting its least recently used bucket to make room.
struct RateTable {
    private var addresses: [String: (limit: CommandRateLimit, last: MonotonicTime)] = [:]
    private var paired: [String: (limit: CommandRateLimit, last: MonotonicTime)] = [:]

    var count: Int { addresses.count + paired.count }

    mutating func allow(_ client: String, now: MonotonicTime) -> Bool {
        if client.hasPrefix("paired:") { return Self.allow(client, now: now, in: &paired) }
        return Self.allow(client, now: now, in: &addresses)
    }

    private static func allow(_ client: String, now: MonotonicTime,
                              in table: inout [String: (limit: CommandRateLimit, last: MonotonicTime)]) -> Bool {
        if table[client] == nil, table.count >= CockpitCommandGate.maxClients,
           let oldest = table.min(by: { $0.value.last < $1.value.last })?.key {
            table[oldest] = nil
        }
        var entry = table[client] ?? (CommandRateLimit(), now)
        let allowed = entry.limit.allow(now: now)
        entry.last = now
        table[client] = entry
        return allowed
    }
}
