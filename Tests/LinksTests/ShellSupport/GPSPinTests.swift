import Foundation
@testable import Links
import Testing

/// `followme pin`'s pure parts: the sysfs walk (on a fake tree in a temporary directory, laid out
/// like the kernel's: class/tty/NAME → devices/…/tty/NAME, `device` → the interface or usb-serial
/// port) and the local rules file's text.
@Suite struct GPSPinTests {
    /// A fake /sys: one xHCI controller at PCI 0000:00:14.0, USB devices on ports of bus 1.
    struct FakeSysfs {
        let root: URL
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("followme-sysfs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("class/tty"), withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(at: root) }

        /// A USB serial tty: cdc_acm (ttyACM*: device → the interface) or a usb-serial driver
        /// (ttyUSB*: device → the port directory below the interface).
        func add(tty: String, port: String, vendor: String, product: String, serial: String?, name: String? = nil) throws {
            let usb = "devices/pci0000:00/0000:00:14.0/usb1/1-\(port)"
            let interface = "\(usb)/1-\(port):1.0"
            let deviceDirectory = tty.hasPrefix("ttyACM") ? interface : "\(interface)/\(tty)"
            let ttyDirectory = "\(deviceDirectory)/tty/\(tty)"
            try FileManager.default.createDirectory(at: root.appendingPathComponent(ttyDirectory), withIntermediateDirectories: true)
            for (file, value) in [("idVendor", vendor), ("idProduct", product), ("serial", serial), ("product", name)] {
                if let value { try "\(value)\n".write(to: root.appendingPathComponent("\(usb)/\(file)"), atomically: true, encoding: .utf8) }
            }
            // Relative links, as sysfs has them.
            let depth = ttyDirectory.split(separator: "/").count
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("class/tty/\(tty)").path,
                                                       withDestinationPath: "../../\(ttyDirectory)")
            let up = Array(repeating: "..", count: depth - deviceDirectory.split(separator: "/").count).joined(separator: "/")
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("\(ttyDirectory)/device").path,
                                                       withDestinationPath: up)
        }
    }

    @Test("the sysfs walk finds cdc_acm and usb-serial ttys with VID:PID, serial, port and ID_PATH; skips the rest")
    func scanFakeSysfs() throws {
        // Given a u-blox 8 on port 2 (cdc_acm), a CH340 without serial behind a hub (port 1.3), a ttyS0
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.add(tty: "ttyACM0", port: "2", vendor: "1546", product: "01A8", serial: "0123456789", name: "u-blox GNSS receiver")
        try sysfs.add(tty: "ttyUSB0", port: "1.3", vendor: "1a86", product: "7523", serial: nil)
        try FileManager.default.createDirectory(at: sysfs.root.appendingPathComponent("class/tty/ttyS0"), withIntermediateDirectories: true)

        // When scanned
        let devices = SerialGPSDeviceScan.devices(sysRoot: sysfs.root.path)

        // Then both USB ttys, sorted, with udev's ID_PATH (pci-<slot>-usb-0:<ports>:1.0)
        #expect(devices == [
            SerialGPSDevice(ttyName: "ttyACM0", vendorID: "1546", productID: "01a8", serial: "0123456789", manufacturer: nil,
                            product: "u-blox GNSS receiver", usbPort: "1-2", idPath: "pci-0000:00:14.0-usb-0:2:1.0"),
            SerialGPSDevice(ttyName: "ttyUSB0", vendorID: "1a86", productID: "7523", serial: nil, manufacturer: nil,
                            product: nil, usbPort: "1-1.3", idPath: "pci-0000:00:14.0-usb-0:1.3:1.0"),
        ])
        #expect(devices.first?.usbID == "1546:01a8")
        // And an empty or missing tree has none
        #expect(SerialGPSDeviceScan.devices(sysRoot: sysfs.root.appendingPathComponent("missing").path) == [])
    }

    @Test("the rules: one line per role with the link and the gpsdctl@ want; a new pin replaces its role's and its device's")
    func ruleText() {
        // Given the person's puck pinned by serial and the drone's by port
        let rules = GPSPinRules()
            .replacing(with: .init(role: .target, match: .serial("0123456789"), note: "1546:01a8 u-blox, ttyACM0 when pinned"))
            .replacing(with: .init(role: .onboard, match: .idPath("pci-0000:00:14.0-usb-0:1.3:1.0"), note: "1a86:7523, ttyUSB0 when pinned"))

        // Then each role has exactly the rule section 3 of 61-followme-gps.rules gives a pinned puck
        let lines = rules.text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"ACTION!="remove", SUBSYSTEM=="tty", ENV{FOLLOWME_GPS}=="1", ENV{ID_SERIAL_SHORT}=="0123456789", ENV{FOLLOWME_ROLE}="target", SYMLINK+="gpstarget", TAG+="systemd", ENV{SYSTEMD_WANTS}="gpsdctl@gpstarget.service""#))
        #expect(lines.contains(#"ACTION!="remove", SUBSYSTEM=="tty", ENV{FOLLOWME_GPS}=="1", ENV{ID_PATH}=="pci-0000:00:14.0-usb-0:1.3:1.0", ENV{FOLLOWME_ROLE}="onboard", SYMLINK+="gpsonboard", TAG+="systemd", ENV{SYSTEMD_WANTS}="gpsdctl@gpsonboard.service""#))
        // And every non-rule line is a comment or blank
        #expect(lines.allSatisfy { $0.isEmpty || $0.hasPrefix("#") || $0.hasPrefix("ACTION!=") })

        // When read back, then the same pins
        #expect(GPSPinRules(parsing: rules.text) == rules)

        // When the target is pinned again (another puck), then it replaces the first target pin only
        let again = GPSPinRules(parsing: rules.text).replacing(with: .init(role: .target, match: .serial("X9"), note: "n"))
        #expect(again.pins.map(\.role) == [.onboard, .target])
        #expect(again.pins.last?.match == .serial("X9"))
        // When the onboard puck is pinned as target, then it is no longer the onboard one (one role per device)
        let moved = rules.replacing(with: .init(role: .target, match: .idPath("pci-0000:00:14.0-usb-0:1.3:1.0"), note: "n"))
        #expect(moved.pins.map(\.role) == [.target])
    }

    @Test("a device's own strings in the note cannot add a rule line: control characters become spaces")
    func hostileNote() {
        let note = "1a86:7523 Evil\nACTION==\"add\", RUN+=\"/bin/sh -c id\"\r\u{0}, ttyUSB0 when pinned"
        let rules = GPSPinRules().replacing(with: .init(role: .target, match: .serial("X9"), note: note))
        let lines = rules.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.isEmpty || $0.hasPrefix("#") || $0.hasPrefix("ACTION!=") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("ACTION==") } && !rules.text.contains("\r") && !rules.text.contains("\u{0}"))
        #expect(GPSPinRules(parsing: rules.text).pins.map(\.match) == [.serial("X9")])
    }

    @Test("values a udev match cannot hold are refused", arguments: ["", "a\"b", "a b", "x*", "back\\slash"])
    func unmatchable(_ value: String) {
        #expect(!GPSPinRules.isMatchable(value))
        #expect(GPSPinRules.isMatchable("pci-0000:00:14.0-usb-0:1.3:1.0"))
    }

    @Test("the recognised chips are the uncommented FOLLOWME_GPS lines of the packaged rules, CH340 and FTDI included")
    func recognisedChips() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("udev/61-followme-gps.rules")
        let ids = GPSPinRules.recognisedIDs(rulesText: try String(contentsOf: url, encoding: .utf8))
        for id in ["1546:01a8", "067b:2303", "1a86:7523", "0403:6001", "0403:6015"] { #expect(ids.contains(id), "\(id)") }
        #expect(GPSPinRules.recognisedIDs(rulesText: #"#ENV{ID_VENDOR_ID}=="0403", ENV{ID_MODEL_ID}=="6001", ENV{FOLLOWME_GPS}="1""#).isEmpty)
    }
}
