/// What `followme watch` (and `land`, `hold`, …) says when no flight publishes where it looks: what to check, beside the symptom.
extension StatusSocketOptions {
    /// What to check when the status socket at `path` cannot be read; `problem` is the connect error.
    static func noFlightHint(path: String, problem: String, command: String = "watch") -> String {
        if problem.contains("Permission denied") {
            return "the socket is root's and group followme's (mode 0660): `sudo followme \(command)`, or add yourself to "
                + "group followme"
        }
        return "is `followme run` running? `systemctl status followme` for the installed service (it publishes on "
            + "\(installedSocketPath)); a flight started by hand publishes on its --status-socket or [status] socket, "
            + "so pass that path with --socket or its config with --config"
    }
}

extension StatusSocketReader {
    /// Why `path` gives no status now: the connect error, or that a flight is there but sent nothing.
    static func probe(path: String) -> String {
        do {
            _ = try StatusSocketReader(path: path)
            return "connected, but no status line came"
        } catch {
            return error.description
        }
    }
}
