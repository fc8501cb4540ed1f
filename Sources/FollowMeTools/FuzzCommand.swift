import Simulation
import ARDrone
import ArgumentParser
import FlightService
import Foundation

/// `followme fuzz navdata|at|config|all`: runs the deterministic mutation fuzzers and prints their
/// reports with the rate. A crash kills the process (that is the failure signal); exit 1 if a decoded
/// input did not round-trip or a rejected config broke the problem contract; 0 otherwise.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Fuzz the navdata and AT decoders and the config loader with seeded mutations.",
        discussion: """
            navdata: mutations of the real navdata captures (--navdata-corpus, default Fuzz/corpus/navdata) and synthetic packets fed to Navdata(bytes:); decoded packets must \
            re-encode byte for byte. at: mutations of documented AT datagrams fed to ATDecoder; the same \
            round trip. config: mutations of a followme.toml (--corpus) fed to the config parser, which \
            must return a config or FILE:LINE: KEY problems. The same --seed gives the same report.
            Exit codes: 0 no failure found; 1 a round trip or the problem contract failed; 2 bad usage \
            or unreadable corpus. A crash ends the process with a signal.
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case navdata, at, config, all
    }

    @Argument(help: "What to fuzz: navdata, at, config or all.")
    var target: Target

    @Option(name: .long, help: "Inputs per fuzzer.")
    var iterations: Int = 1_000_000

    @Option(name: .long, help: "Seed of the input generator (same seed, same inputs, same report).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Config document to mutate (default etc/followme.toml, else a built-in copy of the defaults).")
    var corpus: String?

    @Option(name: .long, help: "Directory of real navdata captures (*.bin) to mutate (default Fuzz/corpus/navdata if present; synthetic packets always).")
    var navdataCorpus: String?

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
    }

    func run() throws {
        let targets: [Target] = target == .all ? [.navdata, .at, .config] : [target]
        let configCorpus = targets.contains(.config) ? try loadCorpus() : []
        let captures = targets.contains(.navdata) ? try loadCaptures() : (names: [], bytes: [])
        var failed = false
        for target in targets {
            let clock = ContinuousClock()
            let start = clock.now
            let report: String
            let ok: Bool
            switch target {
            case .navdata:
                let r = NavdataFuzzer.run(iterations: iterations, seed: seed, corpus: NavdataFuzzer.corpus(captures: captures.bytes))
                (report, ok) = (r.description, r.roundTripMismatchCount == 0)
            case .at:
                let r = ATFuzzer.run(iterations: iterations, seed: seed)
                (report, ok) = (r.description, r.roundTripMismatchCount == 0)
            case .config, .all:
                let r = ConfigFuzzer.run(iterations: iterations, seed: seed, corpus: configCorpus.map(\.text))
                (report, ok) = (r.description, r.roundTripMismatchCount == 0 && r.invariantViolationCount == 0)
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("== \(target.rawValue) fuzz, seed \(seed)"
                + (target == .config ? ", corpus \(configCorpus.map(\.name).joined(separator: ", "))" : "")
                + (target == .navdata ? ", captures \(captures.names.isEmpty ? "none" : captures.names.joined(separator: ", "))" : ""))
            print(report)
            print(String(format: "time: %.2f s, rate: %.0f inputs/s, result: %@", seconds,
                         Double(iterations) / max(seconds, 1e-9), ok ? "ok" : "FAILED"))
            print("")
            flushStandardOutput()
            failed = failed || !ok
        }
        if failed { throw ExitCode(1) }
    }

    /// The navdata captures: every `*.bin` in `--navdata-corpus DIR`, else in Fuzz/corpus/navdata if present.
    private func loadCaptures() throws -> (names: [String], bytes: [[UInt8]]) {
        let directory = navdataCorpus ?? "Fuzz/corpus/navdata"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            if navdataCorpus != nil {
                printError("followme fuzz: navdata corpus directory \(directory) not found")
                throw ExitCode(2)
            }
            return ([], [])
        }
        let files = names.filter { $0.hasSuffix(".bin") }.sorted()
        var bytes: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else {
                printError("followme fuzz: cannot read \(directory)/\(file)")
                throw ExitCode(2)
            }
            bytes.append([UInt8](data))
        }
        return (files, bytes)
    }

    /// The config corpus: `--corpus FILE`, else etc/followme.toml if present, else the built-in document.
    private func loadCorpus() throws -> [(name: String, text: String)] {
        let path = corpus ?? "etc/followme.toml"
        guard FileManager.default.fileExists(atPath: path) else {
            if corpus != nil {
                printError("followme fuzz: corpus file \(path) not found")
                throw ExitCode(2)
            }
            return ConfigFuzzer.builtInCorpus.map { (name: "built-in defaults", text: $0) }
        }
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else {
            printError("followme fuzz: cannot read \(path) as UTF-8 text")
            throw ExitCode(2)
        }
        return [(name: path, text: text)]
    }
}
