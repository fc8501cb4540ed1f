import Foundation
import Links
import Testing
import TestSupport

/// The udev rules: lint, vendor ids, role links and their order, and `udevadm test` against
/// simulated USB pucks (helpers: DeploymentFilesTests.swift).
extension DeploymentFilesTests {
    // MARK: - The udev rules

    /// A checker for udev rules lines (udev(7) syntax, the subset these rules use).
    enum UdevLint {
        struct Pair: Equatable {
            var key: String
            var attribute: String?
            var op: String
            var value: String
        }

        static let matchOnly: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS",
                                             "DRIVER", "DRIVERS", "ATTRS", "TAGS", "TEST", "RESULT", "CONST"]
        static let assignOnly: Set<String> = ["OWNER", "GROUP", "MODE", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
        static let either: Set<String> = ["ENV", "ATTR", "NAME", "SYMLINK", "TAG", "SYSCTL"]
        static let needsAttribute: Set<String> = ["ENV", "ATTR", "ATTRS", "SYSCTL", "IMPORT", "CONST"]
        static let optionalAttribute: Set<String> = ["RUN", "TEST", "SECLABEL"]

        /// One rule line → its pairs, or what is wrong with it.
        static func parse(_ line: String) -> Result<[Pair], LintProblem> {
            var pairs: [Pair] = []
            var rest = Substring(line)
            while true {
                let key = rest.prefix { $0.isUppercase || $0 == "_" }
                guard !key.isEmpty else { return .failure(.init("expected a KEY at \"\(rest.prefix(20))\"")) }
                rest = rest.dropFirst(key.count)
                var attribute: String?
                if rest.first == "{" {
                    guard let close = rest.firstIndex(of: "}") else { return .failure(.init("unclosed { after \(key)")) }
                    attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                    rest = rest[rest.index(after: close)...]
                }
                guard let op = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else {
                    return .failure(.init("expected an operator after \(key)"))
                }
                rest = rest.dropFirst(op.count)
                guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else {
                    return .failure(.init("\(key)\(op) needs a \"quoted value\""))
                }
                let value = String(rest[rest.index(after: rest.startIndex)..<end])
                rest = rest[rest.index(after: end)...]
                let k = String(key)
                guard matchOnly.contains(k) || assignOnly.contains(k) || either.contains(k) else {
                    return .failure(.init("unknown key \(k)"))
                }
                let isMatch = op == "==" || op == "!="
                if isMatch && assignOnly.contains(k) { return .failure(.init("\(k) cannot be matched (\(op))")) }
                if !isMatch && matchOnly.contains(k) { return .failure(.init("\(k) cannot be assigned (\(op))")) }
                if needsAttribute.contains(k) && attribute == nil { return .failure(.init("\(k) needs {name}")) }
                if !needsAttribute.contains(k) && !optionalAttribute.contains(k) && attribute != nil {
                    return .failure(.init("\(k) takes no {name}"))
                }
                pairs.append(Pair(key: k, attribute: attribute, op: op, value: value))
                if rest.allSatisfy(\.isWhitespace) { break }
                guard rest.first == "," else { return .failure(.init("expected \", \" between pairs before \"\(rest.prefix(20))\"")) }
                rest = rest.dropFirst().drop { $0 == " " }
            }
            if pairs.allSatisfy({ $0.op == "==" || $0.op == "!=" }) { return .failure(.init("rule only matches, assigns nothing")) }
            return .success(pairs)
        }

        /// Every problem in a rules file, as "line N: ...".
        static func problems(_ text: String) -> [String] {
            var problems: [String] = []
            var gotos: [(line: Int, label: String)] = []
            var labels: Set<String> = []
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, raw) in lines.enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasSuffix("\\") { problems.append("line \(index + 1): no line continuations"); continue }
                switch parse(line) {
                case .failure(let problem): problems.append("line \(index + 1): \(problem.message)")
                case .success(let pairs):
                    for p in pairs where p.key == "GOTO" { gotos.append((index + 1, p.value)) }
                    for p in pairs where p.key == "LABEL" { labels.insert(p.value) }
                    for p in pairs where p.key == "SYMLINK" && (p.value.contains("-") || p.value.contains("/")) {
                        problems.append("line \(index + 1): link \(p.value) contains '-' or '/' (systemd unescapes '-' in %I)")
                    }
                    for p in pairs where p.key == "ENV" && p.attribute == "SYSTEMD_WANTS" && p.value.contains("-") {
                        problems.append("line \(index + 1): unit \(p.value) contains '-'")
                    }
                }
                let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                if previous?.hasPrefix("#") != true { problems.append("line \(index + 1): no comment above this rule") }
            }
            for (line, label) in gotos where !labels.contains(label) {
                problems.append("line \(line): GOTO=\"\(label)\" has no LABEL")
            }
            return problems
        }
    }

    struct LintProblem: Error { var message: String; init(_ message: String) { self.message = message } }

    static let rulesText: String = (try? repoText("udev/61-followme-gps.rules")) ?? ""

    /// The shipped rules with the serial template pinned to the person's puck ("TGT0001") and the
    /// port template pinned to the onboard receiver (USB port 1.2 of the simulated xHCI).
    static let pinnedSerial = "TGT0001"
    static let pinnedIDPath = "pci-0000:00:14.0-usb-0:1.2:1.0"
    static func pinnedRules() throws -> String {
        let serialTemplate = #"#ENV{ID_SERIAL_SHORT}=="put-serial-here", ENV{FOLLOWME_ROLE}="target""#
        let portTemplate = #"#ENV{ID_PATH}=="put-id-path-here", ENV{FOLLOWME_ROLE}="onboard""#
        try #require(rulesText.contains(serialTemplate) && rulesText.contains(portTemplate), "template lines changed")
        return rulesText
            .replacingOccurrences(of: serialTemplate, with: #"ENV{ID_SERIAL_SHORT}=="\#(pinnedSerial)", ENV{FOLLOWME_ROLE}="target""#)
            .replacingOccurrences(of: portTemplate, with: #"ENV{ID_PATH}=="\#(pinnedIDPath)", ENV{FOLLOWME_ROLE}="onboard""#)
    }

    @Test("udev rules: every line is KEY/operator/\"value\" pairs with known keys, commented, GOTOs resolve")
    func udevRulesLint() throws {
        #expect(!Self.rulesText.isEmpty)
        #expect(UdevLint.problems(Self.rulesText) == [])
        // The pinned form udev/README.md asks for is just as valid
        #expect(UdevLint.problems(try Self.pinnedRules()) == [])
    }

    @Test("the udev lint catches broken rules (control)")
    func udevLintCatchesBrokenRules() {
        let broken = """
            # missing comma
            ENV{X}=="1" SYMLINK+="a"
            # dash in the link
            SUBSYSTEM=="tty", SYMLINK+="gps-target"
            # unknown key, unquoted value
            KERNEL=="ttyACM0", FOO="bar"
            KERNEL=="ttyACM0", MODE=0660
            # goto nowhere
            SUBSYSTEM!="tty", GOTO="nowhere"
            """
        let problems = UdevLint.problems(broken)
        #expect(problems.count == 6, "\(problems)")
        for expected in ["line 2: expected \", \"", "line 4: link gps-target", "line 6: unknown key FOO",
                         "line 7: MODE= needs a \"quoted value\"", "line 7: no comment above", "GOTO=\"nowhere\" has no LABEL"] {
            #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
        }
    }

    /// Every USB id Debian bookworm's 60-gpsd.rules lists (docs/gpsd.md §5.1), with the
    /// kernel module its comment must name, and the three issue 24 adds: CH340 and two FTDI chips
    /// (Debian leaves FTDI out; here a chip alone never gets a role, only a pin does).
    static let debianPucks: [(vendor: String, product: String, module: String, enabled: Bool)] = [
        ("1546", "01a5", "cdc_acm", true), ("1546", "01a6", "cdc_acm", true), ("1546", "01a7", "cdc_acm", true),
        ("1546", "01a8", "cdc_acm", true), ("1546", "01a9", "cdc_acm", true), ("067b", "2303", "pl2303", true),
        ("067b", "aaa0", "pl2303", true), ("0557", "2008", "pl2303", true), ("10c4", "ea60", "cp210x", true),
        ("10c4", "ea71", "cp210x", true), ("0e8d", "3329", "cdc_acm", true), ("1163", "0100", "cypress_m8", true),
        ("1163", "0200", "cypress_m8", true), ("091e", "0003", "garmin_gps", true), ("0403", "6001", "ftdi_sio", true),
        ("1a86", "7523", "ch341", true), ("0403", "6015", "ftdi_sio", true),
    ]

    @Test("udev rules: every Debian puck id, CH340 and FTDI are there, commented with their kernel module")
    func udevVendorRules() throws {
        let lines = Self.rulesText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for puck in Self.debianPucks {
            let rule = #"ENV{ID_VENDOR_ID}=="\#(puck.vendor)", ENV{ID_MODEL_ID}=="\#(puck.product)", ENV{FOLLOWME_GPS}="1""#
            let index = try #require(lines.firstIndex { $0 == (puck.enabled ? rule : "#" + rule) }, "\(puck.vendor):\(puck.product)")
            #expect(lines.filter { $0.contains(rule) }.count == 1, "\(puck.vendor):\(puck.product) listed twice")
            // the comment block right above names the module (a disabled rule's comment may span lines)
            let above = lines[..<index].reversed().prefix { $0.hasPrefix("#") && !$0.hasPrefix("#ENV") }
            #expect(above.contains { $0.contains("[linux module: \(puck.module)]") }, "\(puck.vendor):\(puck.product)")
            #expect(!above.isEmpty)
        }
        // Nothing but these ids is recognised
        let recognised = lines.filter { $0.hasPrefix("ENV{ID_VENDOR_ID}") }
        #expect(recognised.count == Self.debianPucks.filter(\.enabled).count)
    }

    @Test("udev rules: role links have no '-', each wants gpsdctl@<link>.service (replacing Debian's), and match the shipped config")
    func udevRoleLinks() throws {
        var links: [String: String] = [:]   // link → wanted unit
        for line in Self.rulesText.split(separator: "\n") where !line.hasPrefix("#") {
            guard case .success(let pairs) = UdevLint.parse(String(line)),
                  let link = pairs.first(where: { $0.key == "SYMLINK" }) else { continue }
            #expect(link.op == "+=")
            let wants = try #require(pairs.first { $0.key == "ENV" && $0.attribute == "SYSTEMD_WANTS" }, "\(line)")
            // "=" replaces a gpsdctl@ttyACM0.service set by Debian's 60-gpsd.rules: one name per puck (TIOCEXCL)
            #expect(wants.op == "=")
            #expect(pairs.contains(Pair(key: "TAG", attribute: nil, op: "+=", value: "systemd")))
            #expect(!link.value.contains("-") && !link.value.contains("/"))
            links[link.value] = wants.value
        }
        #expect(links == ["gpstarget": "gpsdctl@gpstarget.service", "gpsonboard": "gpsdctl@gpsonboard.service"])
        // The shipped config names exactly these links
        let config = try Self.repoText("etc/followme.toml")
        for link in links.keys {
            #expect(config.contains("device = \"/dev/\(link)\""), "etc/followme.toml does not use /dev/\(link)")
        }
    }
    typealias Pair = UdevLint.Pair

    @Test("udev rules sort after 60-serial.rules (ID_SERIAL_SHORT, ID_PATH) and Debian's 60-gpsd.rules")
    func udevRulesOrder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.repoFile("udev").path).filter { $0.hasSuffix(".rules") }
        #expect(names == ["61-followme-gps.rules"])
        for earlier in ["60-serial.rules", "60-gpsd.rules"] { #expect(earlier < "61-followme-gps.rules") }
    }

    @Test("link names are their own systemd instance names (a '-' would become '/')", .enabled(if: systemdEscape != nil))
    func linkNamesEscapeToThemselves() throws {
        let escape = try #require(Self.systemdEscape)
        for link in ["gpstarget", "gpsonboard"] {
            let r = try Self.run(escape, ["--template=gpsdctl@.service", link])
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gpsdctl@\(link).service")
        }
        // Control: the pitfall the names avoid
        let dashed = try Self.run(escape, ["--unescape", "gps-target"])
        #expect(dashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gps/target")
    }

    // MARK: - udevadm test against simulated pucks

    struct PuckCase: Sendable, CustomStringConvertible {
        var description: String
        var vendor: String
        var product: String
        var serial: String?
        var port: String
        var pinned = true
        var maskDebian = false
        var recognised = true
        /// The role link this device must get (nil: none).
        var role: String?
    }

    static let puckCases: [PuckCase] = [
        PuckCase(description: "u-blox 8 pinned by serial → /dev/gpstarget", vendor: "1546", product: "01a8",
                 serial: pinnedSerial, port: "2", role: "gpstarget"),
        PuckCase(description: "BU-353-S4 (PL2303, no serial) pinned by port → /dev/gpsonboard", vendor: "067b",
                 product: "2303", serial: nil, port: "1.2", role: "gpsonboard"),
        PuckCase(description: "u-blox 7 dongle by port, Debian's 60-gpsd.rules masked → /dev/gpsonboard only",
                 vendor: "1546", product: "01a7", serial: nil, port: "1.2", maskDebian: true, role: "gpsonboard"),
        PuckCase(description: "a second u-blox 8 (other serial, other port) gets no role", vendor: "1546", product: "01a8",
                 serial: "OTHER42", port: "3", role: nil),
        PuckCase(description: "an Arduino (2341:0043) in the onboard port: not a recognised GPS chip, no role", vendor: "2341",
                 product: "0043", serial: "A1", port: "1.2", recognised: false, role: nil),
        PuckCase(description: "CH340 module (1a86:7523, no serial) pinned by port → /dev/gpsonboard", vendor: "1a86",
                 product: "7523", serial: nil, port: "1.2", role: "gpsonboard"),
        PuckCase(description: "FTDI FT230X (0403:6015) pinned by serial → /dev/gpstarget", vendor: "0403",
                 product: "6015", serial: pinnedSerial, port: "3", role: "gpstarget"),
        PuckCase(description: "shipped rules, nothing pinned: the person's puck gets no role", vendor: "1546",
                 product: "01a8", serial: pinnedSerial, port: "2", pinned: false, role: nil),
    ]

    @Test("udevadm test on a simulated puck: links, gpsd hand-over, permissions", .enabled(if: canSimulatePucks),
          arguments: puckCases)
    func simulatedPuck(_ c: PuckCase) throws {
        let stage = try Stage()
        defer { stage.remove() }
        // Given the rules (pinned as udev/README.md says, or as shipped)
        let rules = stage.directory.appendingPathComponent("61-followme-gps.rules")
        try (c.pinned ? Self.pinnedRules() : Self.rulesText).write(to: rules, atomically: true, encoding: .utf8)
        var arguments = [Self.repoFile("udev/simulate-puck.sh").path, "--vendor", c.vendor, "--product", c.product,
                         "--port", c.port]
        if let serial = c.serial { arguments += ["--serial", serial] }
        if c.maskDebian { arguments.append("--mask-debian-gpsd") }

        // When udev handles the "add" event of that puck
        let r = try Self.run(Self.bash, arguments + [rules.path])

        // Then
        #expect(r.exitCode == 0, "\(r.stderr)")
        var properties: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            if let eq = line.firstIndex(of: "=") { properties[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        let links = Set((properties["DEVLINKS"] ?? "").split(separator: " ").map(String.init))
        let wants = (properties["SYSTEMD_WANTS"] ?? "").split(separator: " ").map(String.init)
        #expect(properties["ID_VENDOR_ID"] == c.vendor, "sysfs simulation broken: \(r.stdout)")
        // udev found nothing to complain about in our file
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("/etc/udev/rules.d/61-followme-gps.rules") }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect((properties["FOLLOWME_GPS"] == "1") == c.recognised)
        if c.recognised {
            #expect(properties["ID_MM_DEVICE_IGNORE"] == "1")
            #expect(r.stderr.contains(#/61-followme-gps\.rules:\d+ MODE 0660/#), "\(r.stderr)")
        }
        if let role = c.role {
            #expect(links.contains("/dev/\(role)"), "\(links)")
            // gpsd gets this puck under exactly one name, even with Debian's rule active (TIOCEXCL)
            #expect(wants == ["gpsdctl@\(role).service"], "\(wants)")
            #expect(properties["TAGS"]?.contains(":systemd:") == true)
        }
        for other in ["gpstarget", "gpsonboard"] where other != c.role {
            #expect(!links.contains("/dev/\(other)"), "\(links)")
            #expect(!wants.contains("gpsdctl@\(other).service"), "\(wants)")
        }
        if c.maskDebian {
            #expect(!links.contains { $0.hasPrefix("/dev/gps") && $0.dropFirst(8).allSatisfy(\.isNumber) }, "\(links)")
            #expect(r.stderr.contains("Skipping overridden file '/usr/lib/udev/rules.d/60-gpsd.rules'")
                    || !FileManager.default.fileExists(atPath: "/usr/lib/udev/rules.d/60-gpsd.rules"))
        }
    }

    @Test("a `followme pin` rule (61-followme-local.rules, after the packaged rules) gives the role under udev",
          .enabled(if: canSimulatePucks), arguments: [
              GPSPinRules.Pin(role: .target, match: .serial("TGT0001"), note: "1546:01a8"),
              GPSPinRules.Pin(role: .onboard, match: .idPath("pci-0000:00:14.0-usb-0:1.2:1.0"), note: "1a86:7523"),
          ])
    func localPinRule(_ pin: GPSPinRules.Pin) throws {
        let stage = try Stage()
        defer { stage.remove() }
        // Given the packaged rules as shipped (nothing pinned) and the local file followme pin writes
        let packaged = stage.directory.appendingPathComponent("61-followme-gps.rules")
        let local = stage.directory.appendingPathComponent(GPSPinRules.fileName)
        try Self.rulesText.write(to: packaged, atomically: true, encoding: .utf8)
        try GPSPinRules(pins: [pin]).text.write(to: local, atomically: true, encoding: .utf8)
        let (vendor, product) = pin.role == .target ? ("1546", "01a8") : ("1a86", "7523")
        var arguments = [Self.repoFile("udev/simulate-puck.sh").path, "--vendor", vendor, "--product", product, "--port", "1.2"]
        if case .serial(let serial) = pin.match { arguments += ["--serial", serial] }

        // When udev handles the puck's "add" event
        let r = try Self.run(Self.bash, arguments + [packaged.path, local.path])

        // Then it has its role's link and only its role's gpsdctl@ want, and udev had no complaint about the file
        #expect(r.exitCode == 0, "\(r.stderr)")
        let properties = Dictionary(r.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        }, uniquingKeysWith: { $1 })
        #expect((properties["DEVLINKS"] ?? "").split(separator: " ").contains("/dev/\(pin.role.linkName)"), "\(r.stdout)")
        #expect(properties["SYSTEMD_WANTS"] == "gpsdctl@\(pin.role.linkName).service", "\(r.stdout)")
        #expect(!r.stderr.split(separator: "\n").contains { $0.hasPrefix("/etc/udev/rules.d/\(GPSPinRules.fileName)") }, "\(r.stderr)")
    }
}
