import Foundation

/// The state of the flight behind `socket`, as `followme watch --json --count 1` reports it; nil when it
/// does not answer within 5 s.
package func watchedFlightState(socket: String) -> String? {
    guard let r = try? ChildProcess.run(FollowMeBinary.url.path, ["watch", "--socket", socket, "--json", "--count", "1", "--timeout", "5"],
                                        timeoutSeconds: 10),
          r.exitCode == 0, let line = r.stdout.split(separator: "\n").first,
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
    return object["state"] as? String
}
