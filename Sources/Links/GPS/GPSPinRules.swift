/// The local udev rules `followme pin` writes: `/etc/udev/rules.d/61-followme-local.rules`.
///
/// The file sorts after the packaged `61-followme-gps.rules` ("gps" < "local"), so a puck's chip is
/// already recognised (`FOLLOWME_GPS=1`) when these lines run; each line then gives the role, the
/// link and the gpsd hand-over that section 3 of the packaged rules gives a pinned puck.
package struct GPSPinRules: Sendable, Equatable {
    /// A receiver's role, its device link (the paths in followme.toml) and gpsdctl@ instance.
    package enum Role: String, Sendable, CaseIterable {
        case target, onboard
        /// `gpstarget`, `gpsonboard`: no '-' (systemd unescapes '-' to '/' in gpsdctl@%I).
        package var linkName: String { "gps\(rawValue)" }
    }

    /// How a pin matches its device: the serial number (follows the puck to any port) or the USB port.
    package enum Match: Sendable, Equatable {
        case serial(String)
        case idPath(String)
    }

    package struct Pin: Sendable, Equatable {
        package var role: Role
        package var match: Match
        /// What the comment above the rule says: `1546:01a8 u-blox 8, ttyACM0`.
        package var note: String
        package init(role: Role, match: Match, note: String) { (self.role, self.match, self.note) = (role, match, note) }
    }

    package static let fileName = "61-followme-local.rules"
    /// Marks a rule line as ours, with its role: the next `pin` of that role replaces the line.
    static let marker = "# followme pin "

    package var pins: [Pin] = []
    package init(pins: [Pin] = []) { self.pins = pins }

    /// The pins of a file this type wrote (other lines are ignored: the file is ours).
    package init(parsing text: String) {
        var role: Role?, note = ""
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix(Self.marker) {
                let rest = line.dropFirst(Self.marker.count)
                let word = rest.prefix { $0 != ":" }
                role = Role(rawValue: String(word))
                note = rest.dropFirst(word.count + 1).trimmingCharacters(in: .whitespaces)
            } else if let current = role, let match = Self.match(in: line) {
                pins.append(Pin(role: current, match: match, note: note))
                role = nil
            }
        }
    }

    /// These pins with `pin` replacing any pin of its role, and any other role's pin of the same device.
    package func replacing(with pin: Pin) -> GPSPinRules {
        GPSPinRules(pins: pins.filter { $0.role != pin.role && $0.match != pin.match } + [pin])
    }

    /// The file's text: a header, then per pin its marker comment and one rule line.
    package var text: String {
        var lines = [
            "# /etc/udev/rules.d/\(Self.fileName): FollowMe's receivers pinned on this ground unit.",
            "# Written by `followme pin target|onboard` (rewritten by every pin; removed when the followme",
            "# package is purged). Sorts after /usr/lib/udev/rules.d/61-followme-gps.rules, which marks",
            "# recognised GPS chips FOLLOWME_GPS=1 (udev/README.md). One line per role: the link followme.toml",
            "# names, and gpsdctl@<link>.service, which adds the puck to gpsd (\"=\" replaces Debian's want).",
        ]
        for pin in pins.sorted(by: { $0.role.rawValue > $1.role.rawValue }) {
            let key: String, value: String
            switch pin.match {
            case .serial(let serial): (key, value) = ("ID_SERIAL_SHORT", serial)
            case .idPath(let path): (key, value) = ("ID_PATH", path)
            }
            lines.append("")
            lines.append("\(Self.marker)\(pin.role.rawValue): \(Self.commentSafe(pin.note))")
            lines.append(#"ACTION!="remove", SUBSYSTEM=="tty", ENV{FOLLOWME_GPS}=="1", ENV{\#(key)}=="\#(value)", "#
                + #"ENV{FOLLOWME_ROLE}="\#(pin.role.rawValue)", SYMLINK+="\#(pin.role.linkName)", TAG+="systemd", "#
                + #"ENV{SYSTEMD_WANTS}="gpsdctl@\#(pin.role.linkName).service""#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `note` on one comment line: the USB manufacturer and product strings in it are whatever the device
    /// reports, so a newline or other control character (which would start a rule line of its own in a
    /// root-owned rules file) becomes a space.
    static func commentSafe(_ note: String) -> String {
        String(String.UnicodeScalarView(note.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// The serial or ID_PATH match of a rule line this type wrote.
    static func match(in line: String) -> Match? {
        for (key, make) in [("ENV{ID_SERIAL_SHORT}==\"", Match.serial), ("ENV{ID_PATH}==\"", Match.idPath)] {
            guard let start = line.range(of: key)?.upperBound,
                  let end = line[start...].firstIndex(of: "\"") else { continue }
            return make(String(line[start..<end]))
        }
        return nil
    }

    /// Whether a serial number or ID_PATH can stand in a udev match: no quote, backslash, glob or control character.
    package static func isMatchable(_ value: String) -> Bool {
        !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f && !"\"\\*?[]|".unicodeScalars.contains($0) }
    }
}

extension GPSPinRules {
    /// The `vendor:product` ids a rules file recognises as GPS chips (its uncommented
    /// `ENV{ID_VENDOR_ID}=="…", ENV{ID_MODEL_ID}=="…", ENV{FOLLOWME_GPS}="1"` lines).
    package static func recognisedIDs(rulesText: String) -> Set<String> {
        var ids: Set<String> = []
        for line in rulesText.split(separator: "\n") where !line.hasPrefix("#") && line.contains(#"ENV{FOLLOWME_GPS}="1""#) {
            let values = line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            if values.count >= 2 { ids.insert("\(values[0]):\(values[1])") }
        }
        return ids
    }
}
