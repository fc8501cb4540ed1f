import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `followme sim|bench|fuzz` live in `followme-tools` (Sources/FollowMeTools), so the flight's binary
/// links no simulator, bench or fuzzer (docs/architecture.md §1). `followme` replaces itself with that program,
/// found next to its own executable, with the same arguments: users' scripts keep their names.
enum ToolForwarding {
    /// The subcommands `followme-tools` answers.
    static let subcommands: Set<String> = ["sim", "bench", "fuzz"]
    static let executableName = "followme-tools"

    /// When `arguments` (argv) name a tool subcommand, execs `followme-tools` and does not return;
    /// exits 1 with a message naming the missing file when it cannot.
    static func forwardIfTool(_ arguments: [String]) {
        // `followme help sim` as well as `followme sim …`.
        let named = arguments.count > 1 && subcommands.contains(arguments[1])
            || arguments.count > 2 && arguments[1] == "help" && subcommands.contains(arguments[2])
        guard named else { return }
        let path = toolsPath()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        let message = "followme \(arguments[1...].prefix(2).joined(separator: " ")): cannot run \(path): \(reason) (the development tools are a separate program, "
            + "\(executableName), installed next to followme; build it with `swift build --product \(executableName)`)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(1)
    }

    /// `followme-tools` beside the running executable (`/proc/self/exe`, symlinks resolved).
    static func toolsPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return executableName }
        let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = own.lastIndex(of: "/") else { return executableName }
        return String(own[...slash]) + executableName
    }
}

/// What `followme --help` lists for a forwarded tool; never run (main forwards first).
struct ToolStub<Name: ToolName>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Name.name, abstract: Name.abstract)
    }
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
    func run() throws { throw ExitCode(1) }
}

protocol ToolName { static var name: String { get }; static var abstract: String { get } }
enum SimTool: ToolName { static let name = "sim"; static let abstract = "Run a simulated drone (AR.Drone 2.0 over AT/navdata UDP, or an ArduPilot-like Copter over MAVLink) with NMEA GPS over TCP." }
enum BenchTool: ToolName { static let name = "bench"; static let abstract = "Benchmark FollowMe against the naive objc.io follower in closed-loop simulation." }
enum FuzzTool: ToolName { static let name = "fuzz"; static let abstract = "Fuzz the navdata and AT decoders and the config loader with seeded mutations." }
