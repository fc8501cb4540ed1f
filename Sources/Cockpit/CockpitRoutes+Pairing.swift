import FollowCore
import Foundation
import Hummingbird
import NIOCore
import Synchronization

extension CockpitRoutes {
    /// The header a paired phone sends its token in, with every command and `GET /session`.
    static let tokenHeaderName = "X-FollowMe-Token"
    /// The cookie a paired phone's `GET /events` carries the token in (EventSource cannot send a
    /// header): `Path=/events` and `SameSite=Strict`, so it never rides on `/command` (whose defence
    /// against other sites is the JSON preflight) nor on a request another site starts.
    static let tokenCookie = "followme_token"
    /// A warning a paired phone's new stream still shows, seconds old at most: our choice.
    static let alertReplaySeconds = 600.0
    /// The body `POST /pair` takes.
    struct PairBody: Decodable { var secret: String? }

    /// `POST /pair {"secret":"…"}`: the unit's secret for a token (200 `{"token":"…"}` and the stream's
    /// cookie), 401 wrong, 429 with `Retry-After` while pairing is locked out or this address is over
    /// its rate.
    func pair(_ request: Request, client: String) async -> Response {
        let now = clock()
        do { try gate.admit(client: client, now: now) } catch {
            return Self.error(.tooManyRequests, "too many requests from \(client): wait a moment", headers: [.retryAfter: "1"])
        }
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else {
            return Self.error(.unsupportedMediaType, "send the secret as Content-Type: application/json")
        }
        guard let bytes = try? await request.body.collect(upTo: Self.maxBodyBytes),
              let body = try? JSONDecoder().decode(PairBody.self, from: Data(bytes.readableBytesView)) else {
            return Self.error(.badRequest, #"the body must be a JSON object like {"secret":"7K2QF-M9XDA"}"#)
        }
        switch authority.pair(secret: body.secret, client: client, now: now) {
        case .accepted(let token):
            let token = token ?? ""
            logger.notice("cockpit: a phone paired", metadata: ["client": "\(client)", "paired": "\(authority.pairedCount)"])
            var response = Self.json(.ok, #"{"token":"\#(token)"}"#)
            response.headers[.setCookie] = "\(Self.tokenCookie)=\(token); Path=/events; SameSite=Strict; HttpOnly; Max-Age=31536000"
            return response
        case .wrong(let failures, let lockout):
            logWrongSecret(client: client, failures: failures, lockout: lockout, what: "pairing")
            return Self.error(.unauthorized, "wrong code")
        case .lockedOut(let seconds):
            return lockedOut(seconds, client: client)
        }
    }

    /// The journal warning for a wrong secret: every one names its address; one that starts a lockout says so.
    func logWrongSecret(client: String, failures: Int, lockout: Double?, what: String) {
        // A command's refusal keeps the words the journal has always had for it.
        logger.warning(what == "pairing" ? "cockpit: pairing refused, wrong pairing code" : "cockpit: command refused, wrong or missing pairing code", metadata: [
            "client": "\(client)", "request": "\(what)", "failures-in-a-row": "\(failures)",
        ])
        if let lockout {
            logger.warning("cockpit: pairing locked out after wrong codes; paired phones keep command", metadata: [
                "client": "\(client)", "failures-in-a-row": "\(failures)", "seconds": "\(Int(lockout))",
            ])
        }
    }

    /// 429 while pairing is locked out; the refusals are summed in a warning at most every 10 s.
    func lockedOut(_ seconds: Double, client: String) -> Response {
        if let (count, last) = lockoutRefusals.note(client: client, now: clock()) {
            logger.warning("cockpit: pairing attempts refused during the lockout", metadata: [
                "refused": "\(count)", "last-client": "\(last)", "seconds-left": "\(Int(seconds.rounded(.up)))",
            ])
        }
        let wait = max(1, Int(seconds.rounded(.up)))
        return Self.error(.tooManyRequests, "too many wrong pairing codes: pairing is locked for \(wait) s (a paired phone keeps command)",
                          headers: [.retryAfter: "\(wait)"], retryAfter: wait)
    }

    /// The value of cookie `name` in `Cookie` headers (`a=b; followme_token=…`), if any.
    static func cookie(_ name: String, in headers: some Sequence<String>) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// A warning as the `security` event's data.
    static func alertJSON(_ alert: CockpitAuthority.Alert) -> String {
        let encoded = try? JSONSerialization.data(withJSONObject: ["message": alert.message, "at_s": alert.atSeconds], options: [.sortedKeys])
        return encoded.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// Counts refusals that are not guesses (during a lockout; a command without any code), and says when
/// to log their sum: every 10 s at most, the first at once.
final class LockoutRefusals: Sendable {
    private let state = Mutex<(count: Int, lastLog: MonotonicTime?)>((0, nil))

    /// Notes one refusal at `now`; returns the sum since the last log and `client` when one is due.
    func note(client: String, now: MonotonicTime) -> (Int, String)? {
        state.withLock { state in
            state.count += 1
            if let last = state.lastLog, now.seconds(since: last) < 10 { return nil }
            defer { state = (0, now) }
            return (state.count, client)
        }
    }
}
