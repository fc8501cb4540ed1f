import Foundation
import Links

/// Reads and validates a config file, or prints every problem (FILE:LINE: KEY: message) to
/// stderr and exits with code 2 (the command line of `followme` and `followme-tools`). Nothing downstream ever sees a config that did not validate.
/// Under systemd the lines carry the journal's error priority (`<3>`, LogLineStyle), so
/// `journalctl -p err` shows why the service would not start.
package func loadConfigurationOrExit(path: String) -> FollowMeConfiguration {
    let style = LogLineStyle.forStandardError(environment: ProcessInfo.processInfo.environment, statusLine: false)
    do {
        let checked = try loadConfiguration(path: path)
        // Valid keys the chosen drone link does not read (a [mavlink] port in an AR.Drone file): a warning.
        for note in checked.unusedKeys { printError(style.decorate("warning: \(note)", level: .warning)) }
        return checked.configuration
    } catch {
        printError(style.decorate(error.description, level: .error))
        printError(style.decorate("followme: refusing to start: \(path) did not validate (\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s"))", level: .error))
        exit(2)
    }
}

/// Reads and validates a config file (file errors become `ConfigProblems` too).
package func loadConfiguration(path: String) throws(ConfigProblems)
    -> (configuration: FollowMeConfiguration, unusedKeys: [ConfigNote]) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ConfigProblems(problems: [.fileNotFound(path: path)])
    }
    guard !isDirectory.boolValue else {
        throw ConfigProblems(problems: [.unreadable(
            path: path, reason: "is a directory, not a config file (the installed one is \(installedConfigPath))")])
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
        throw ConfigProblems(problems: [.unreadable(
            path: path, reason: "permission denied (the installed config is readable by root and group followme)")])
    }
    let text: String
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let decoded = String(data: data, encoding: .utf8) else {
            throw ConfigProblems(problems: [.unreadable(path: path, reason: "not UTF-8 text")])
        }
        text = decoded
    } catch let problems as ConfigProblems {
        throw problems
    } catch {
        throw ConfigProblems(problems: [.unreadable(path: path, reason: "\(error.localizedDescription)")])
    }
    return try FollowMeConfiguration.check(toml: text, path: path)
}

/// Writes a line to standard error.
package func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints a progress line to stdout and flushes it, so a pipe (`| tee`, a test) sees each step as
/// it happens rather than at exit.
package func printProgress(_ line: String) {
    print(line)
    flushStandardOutput()
}

/// Flushes stdout (lines must reach a pipe at once, e.g. for `--json | jq`).
package func flushStandardOutput() {
    fflush(nil)
}

/// Where `--config` points when it is not given: `$FOLLOWME_CONFIG` when set (and not empty), else
/// the installed `/etc/followme/followme.toml` when it exists, so an installed unit's commands work
/// from any directory, else the checkout's `etc/followme.toml`.
package func defaultConfigPath(environment: [String: String], exists: (String) -> Bool) -> String {
    if let path = environment["FOLLOWME_CONFIG"], !path.isEmpty { return path }
    return exists(installedConfigPath) ? installedConfigPath : "etc/followme.toml"
}

/// The installed configuration (the package's conffile, the unit's `--config`).
package let installedConfigPath = "/etc/followme/followme.toml"
