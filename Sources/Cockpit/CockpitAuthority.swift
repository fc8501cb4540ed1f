import FollowCore
import Foundation
import Synchronization

/// Who may command the flight through the cockpit: a phone holding a token (`POST /pair` gave it for
/// the unit's secret), or a request carrying the secret itself (the `"code"` field of a command).
/// Every check of the secret, whoever asks and from wherever, goes through one `PairingLimiter`; the
/// tokens never do (a paired phone's LAND is never refused or delayed).
///
/// With `[web] code_file`, the secret is re-read when its file changes (`followme pair --new` renames
/// a new one over it), looked at no more than once a second: a new secret voids every token.
final class CockpitAuthority: Sendable {
    /// What a check of the secret came to.
    enum Verification: Equatable {
        /// The secret was right; for `POST /pair`, the phone's new token.
        case accepted(token: String?)
        /// Wrong or missing; `lockoutSeconds` when this failure started a lockout, and the failures in a row.
        case wrong(failures: Int, lockoutSeconds: Double?)
        /// Not checked: the unit is locked out for this many more seconds.
        case lockedOut(retryAfterSeconds: Double)
    }

    /// A warning every paired phone shows: someone tried the secret and got it wrong.
    struct Alert: Equatable {
        var sequence: Int
        var message: String
        /// When, on the flight's monotonic clock, seconds.
        var atSeconds: Double
    }

    private struct State {
        var code: PairingCode
        var limiter = PairingLimiter()
        var tokens: PairedTokens
        var lastStat: MonotonicTime?
        var alert: Alert?
    }

    private let codeFile: String?
    private let state: Mutex<State>

    /// `code` is the secret now; `codeFile` the file it came from (watched for a new one), if any;
    /// `tokenFile` where tokens are kept across restarts (nil: in memory, for this run only).
    init(code: PairingCode, codeFile: String?, tokenFile: String?) {
        self.codeFile = codeFile
        let stamp = codeFile.flatMap(Self.stamp(of:)) ?? "none"
        state = Mutex(State(code: code, tokens: PairedTokens(file: codeFile == nil ? nil : tokenFile, secretStamp: stamp)))
    }

    /// Checks `secret` for a phone at `client` and, when right, issues it a token.
    func pair(secret: String?, client: String, now: MonotonicTime) -> Verification {
        verify(secret, client: client, now: now, issueToken: true)
    }

    /// Checks a command's `"code"` field.
    func verify(code: String?, client: String, now: MonotonicTime) -> Verification {
        verify(code, client: client, now: now, issueToken: false)
    }

    /// Whether `token` belongs to a paired phone.
    func isPaired(_ token: String?, now: MonotonicTime) -> Bool {
        guard token != nil else { return false }
        return state.withLock { state in
            refreshSecret(&state, now: now)
            return state.tokens.contains(token)
        }
    }

    /// The latest warning, if any.
    var alert: Alert? { state.withLock { $0.alert } }

    /// Phones paired now (tests, the log).
    var pairedCount: Int { state.withLock { $0.tokens.count } }

    private func verify(_ candidate: String?, client: String, now: MonotonicTime, issueToken: Bool) -> Verification {
        state.withLock { state in
            refreshSecret(&state, now: now)
            if case .lockedOut(let seconds) = state.limiter.verdict(now: now) { return .lockedOut(retryAfterSeconds: seconds) }
            guard state.code.matches(candidate) else {
                let lockout = state.limiter.recordFailure(now: now)
                let sequence = (state.alert?.sequence ?? 0) + 1
                state.alert = Alert(sequence: sequence, message: "someone is trying pairing codes from \(client)"
                                        + " (\(state.limiter.failures) wrong in a row"
                                        + (lockout.map { "; pairing locked for \(Int($0)) s" } ?? "") + ")",
                                    atSeconds: now.seconds(since: .zero))
                return .wrong(failures: state.limiter.failures, lockoutSeconds: lockout)
            }
            state.limiter.recordSuccess()
            return .accepted(token: issueToken ? state.tokens.issue() : nil)
        }
    }

    /// Re-reads the secret when its file is not the one read last (a new inode, time or size): every
    /// token is void then. A file that became unreadable or invalid keeps the secret as it was.
    private func refreshSecret(_ state: inout State, now: MonotonicTime) {
        guard let codeFile else { return }
        if let last = state.lastStat, now.seconds(since: last) < 1, now >= last { return }
        state.lastStat = now
        guard let stamp = Self.stamp(of: codeFile), stamp != state.tokens.secretStamp,
              let code = try? PairingCode(contentsOfFile: codeFile) else { return }
        state.code = code
        state.tokens.revokeAll(secretStamp: stamp)
        state.limiter.recordSuccess()
    }

    /// The identity of the file at `path`: device, inode, modification time (ns) and size.
    static func stamp(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return "\(info.st_dev):\(info.st_ino):\(modified):\(info.st_size)"
    }
}
