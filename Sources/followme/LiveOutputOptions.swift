import ArgumentParser

/// What a live command (`gps`, `drone status`) says in the help of its `--json`, `--count` and
/// `--timeout` options.
protocol LiveOutputHelp {
    static var jsonHelp: String { get }
    static var countHelp: String { get }
    static var timeoutHelp: String { get }
}

/// `--json`, `--count N` and `--timeout SECONDS` of the live commands (`followme gps`,
/// `followme drone status`): one JSON object per event instead of the live display, stop after N
/// events, give up after SECONDS. `Help` words the options for its command.
struct LiveOutputOptions<Help: LiveOutputHelp>: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp(Help.jsonHelp))
    var json = false

    @Option(name: .long, help: ArgumentHelp(Help.countHelp))
    var count: Int?

    @Option(name: .long, help: ArgumentHelp(Help.timeoutHelp))
    var timeout: Double?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be positive") }
    }
}
