import Foundation  // test-only: read and (on request) rewrite docs/config-keys.md
@testable import FollowCore
import Testing
@testable import FlightService

/// The key table `ConfigKeys.all` is the one declaration of every key: these tests keep it complete and
/// keep docs/config-keys.md, which is generated from it, up to date.
@Suite("One row per config key")
struct ConfigKeysTests {
    /// `<repo>/docs/config-keys.md`.
    static let docsPath = repositoryPath("docs/config-keys.md")

    /// The stored values of a configuration, one per field of its table structs (the config's own and
    /// the core's `FollowParameters` / `FailsafeParameters`), by reflection.
    static func leafFieldCount(_ value: Any) -> Int {
        Mirror(reflecting: value).children.reduce(0) { count, table in count + Mirror(reflecting: table.value).children.count }
    }

    /// The core parameters no key writes: expert tunables left at the core's defaults, and the fields
    /// `followParameters` fills in from other tables (`target.rate_hz`, `drone.altitude_max_m`). A core
    /// field without a key is listed here on purpose; a core-backed key needs no entry.
    static var coreFieldsWithoutKey: [AnyKeyPath] { [
        \FollowMeConfiguration.follow.altitudeToleranceMeters,
        \FollowMeConfiguration.follow.maxHorizontalSpeedMetersPerSecond, \FollowMeConfiguration.follow.targetFixRateHz,
        \FollowMeConfiguration.follow.altitudeCeilingMeters,
        \FollowMeConfiguration.failsafe.minTakeoffBatteryPercent, \FollowMeConfiguration.failsafe.landedConfirmSeconds,
    ] }

    @Test("every field of the configuration but the listed core ones has exactly one row, and every row one field")
    func rowsCoverTheFields() {
        // Given the rows and the configuration's stored fields
        let keyPaths = ConfigKeys.all.map { $0.keyPath as AnyKeyPath }
        // Then there are as many rows as fields a key writes, and no two rows write the same field
        #expect(ConfigKeys.all.count == Self.leafFieldCount(FollowMeConfiguration.defaults) - Self.coreFieldsWithoutKey.count)
        #expect(Set(keyPaths).count == keyPaths.count)
        #expect(Set(keyPaths).isDisjoint(with: Self.coreFieldsWithoutKey), "a listed core field has a row")
        #expect(Set(ConfigKeys.all.map(\.dotted)).count == ConfigKeys.all.count, "a key is declared twice")
        // And each table's rows are contiguous (the file order is the table order)
        let tableRuns = ConfigKeys.all.map(\.table).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(tableRuns == ConfigSchema.tables.map(\.name) && Set(tableRuns).count == tableRuns.count)
    }

    @Test("the count check fails on a configuration with a field no row writes")
    func countCheckCanFail() {
        struct Extra { var gpsd = FollowMeConfiguration.GPSD(); var more = (a: 1, b: 2) }
        #expect(Self.leafFieldCount(Extra()) == 4)
    }

    @Test("each row's default is what defaults holds, and what a file without the key gives")
    func defaultsAreTheRows() throws {
        var c = FollowMeConfiguration()
        for key in ConfigKeys.all {
            key.applyDefault(&c)
            #expect(!key.differsFromDefault(c), "\(key.dotted)")
        }
        #expect(c == .defaults)
        // An empty file reads every key at its row's default
        let (parsed, notes) = try FollowMeConfiguration.check(toml: "[target]\ndevice = \"/dev/a\"\n[onboard]\ndevice = \"/dev/b\"\n",
                                                              path: "t.toml")
        var expected = FollowMeConfiguration.defaults
        expected.target.device = "/dev/a"
        expected.onboard.device = "/dev/b"
        #expect(parsed == expected && notes.isEmpty)
    }

    @Test("a key a range depends on is read before the key, and names a known key")
    func dependenciesReadFirst() {
        let order = ConfigSchema.readOrder.map(\.dotted)
        #expect(order.count == ConfigKeys.all.count)
        for key in ConfigKeys.all {
            for dependency in key.dependsOn {
                let before = order.firstIndex(of: dependency)
                #expect(before != nil, "\(key.dotted) depends on unknown \(dependency)")
                #expect((before ?? .max) < (order.firstIndex(of: key.dotted) ?? -1), "\(dependency) read after \(key.dotted)")
            }
        }
        // Within [failsafe] the dependency moves up, the rest keep file order
        #expect(order.filter { $0.hasPrefix("failsafe.") }.prefix(2) == ["failsafe.gps_relative_error_m", "failsafe.target_timeout_s"])
    }

    @Test("every row has a help line and a type; numeric rows state unit and range")
    func rowsAreDocumented() {
        for key in ConfigKeys.all {
            #expect(!key.help.isEmpty && !key.typeText.isEmpty, "\(key.dotted)")
            if key.spec != nil { #expect(!key.unitText.isEmpty && !key.rangeText.isEmpty, "\(key.dotted)") }
        }
    }

    /// Set FOLLOWME_REGENERATE_DOCS=1 to rewrite the file instead (then review and commit the diff).
    @Test("docs/config-keys.md is generated from the rows and up to date")
    func docsUpToDate() throws {
        let generated = ConfigKeys.markdown()
        if ProcessInfo.processInfo.environment["FOLLOWME_REGENERATE_DOCS"] == "1" {
            try generated.write(toFile: Self.docsPath, atomically: true, encoding: .utf8)
        }
        let onDisk = try? String(contentsOfFile: Self.docsPath, encoding: .utf8)
        #expect(onDisk == generated, """
            docs/config-keys.md is out of date with ConfigKeys.all: regenerate it with \
            `swift run followme config keys --markdown > docs/config-keys.md` or \
            `FOLLOWME_REGENERATE_DOCS=1 swift test --filter ConfigKeysTests`
            """)
        // Every key has its line
        for key in ConfigKeys.all { #expect(generated.contains("| `\(key.name)` |"), "\(key.dotted)") }
    }

    @Test("followme.toml(5) has every table and key from the rows, dated as asked, in man(7) requests only")
    func manPage() {
        let page = ConfigKeys.manPage(date: "2026-11-29", version: "0.1.0")
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(#".TH FOLLOWME.TOML 5 "2026-11-29" "followme "#) == true, "\(lines.first ?? "")")
        for table in ConfigSchema.tables { #expect(lines.contains(".SH [\(table.name)]"), "\(table.name)") }
        for key in ConfigKeys.all { #expect(lines.contains(".B \(key.name)"), "\(key.dotted)") }
        // A text line never starts a request by accident (a help text beginning with "." or "'")
        let requests: Set<String> = [".TH", ".SH", ".TP", ".B", ".BR", ".br"]
        for line in lines where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect(requests.contains(String(line.prefix { $0 != " " })), "\(line)")
        }
    }
}

