import Foundation
import Testing
import TestSupport

/// `followme pin` end to end on a fake root (`--root` implies no udevadm): the list, the rule file it
/// writes, its exit codes. The sysfs walk and the rule text alone: Tests/LinksTests/ShellSupport/GPSPinTests.swift.
@Suite struct PinCommandTests {
    /// A root whose sys/ holds a u-blox 8 on cdc_acm (ttyACM0, serial S1, port 2) and a CH340 without
    /// serial behind a hub (ttyUSB0, port 1.3), with absolute links (the Swift test uses relative ones).
    static func withFakeRoot(_ body: (URL) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("followme-pin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let script = #"""
            set -eu; cd "$1"
            mk() {  # mk TTY PORT VENDOR PRODUCT [SERIAL]
                usb=sys/devices/pci0000:00/0000:00:14.0/usb1/1-$2; dev=$usb/1-$2:1.0
                case $1 in ttyUSB*) dev=$dev/$1 ;; esac
                mkdir -p sys/class/tty "$dev/tty/$1"
                echo "$3" >"$usb/idVendor"; echo "$4" >"$usb/idProduct"; [ -z "${5:-}" ] || echo "$5" >"$usb/serial"
                ln -s "$PWD/$dev/tty/$1" "sys/class/tty/$1"; ln -s "$PWD/$dev" "$dev/tty/$1/device"
            }
            mk ttyACM0 2 1546 01a8 S1
            mk ttyUSB0 1.3 1a86 7523
            """#
        let made = try ChildProcess.run("/bin/bash", ["-c", script, "fake-sysfs", root.path], timeoutSeconds: 30)
        #expect(made.exitCode == 0, "\(made.both)")
        try body(root)
    }

    static func rules(_ root: URL) -> String? {
        try? String(contentsOf: root.appendingPathComponent("etc/udev/rules.d/61-followme-local.rules"), encoding: .utf8)
    }

    @Test("pin target by serial, pin onboard by port: one rule line per role, the list shows both devices")
    func pinBothRoles() throws {
        try Self.withFakeRoot { root in
            // When the person's puck (with a serial) and the drone's (without) are pinned
            let target = try FollowMeBinary.run(["pin", "target", "--device", "ttyACM0", "--root", root.path])
            let onboard = try FollowMeBinary.run(["pin", "onboard", "--device", "/dev/ttyUSB0", "--root", root.path])

            // Then both exit 0 and say how they pinned
            #expect(target.exitCode == 0, "\(target.both)")
            #expect(target.stdout.contains("1) ttyACM0  1546:01a8  serial S1  port 1-2"), "\(target.stdout)")
            #expect(target.stdout.contains("2) ttyUSB0  1a86:7523  serial -  port 1-1.3"), "\(target.stdout)")
            #expect(target.stdout.contains("as /dev/gpstarget by serial number S1"), "\(target.stdout)")
            #expect(onboard.exitCode == 0, "\(onboard.both)")
            #expect(onboard.stdout.contains("as /dev/gpsonboard by USB port pci-0000:00:14.0-usb-0:1.3:1.0"), "\(onboard.stdout)")
            // And the file has one line per role
            let lines = (Self.rules(root) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.contains { $0.contains(#"ENV{ID_SERIAL_SHORT}=="S1""#) && $0.contains(#"SYMLINK+="gpstarget""#) })
            #expect(lines.contains { $0.contains(#"ENV{ID_PATH}=="pci-0000:00:14.0-usb-0:1.3:1.0""#) && $0.contains(#"SYMLINK+="gpsonboard""#) })
        }
    }

    @Test("an unknown device, or no --device without a terminal to ask on, exits 2 and writes nothing",
          arguments: [["--device", "ttyACM9"], []])
    func refusals(_ extra: [String]) throws {
        try Self.withFakeRoot { root in
            let r = try FollowMeBinary.run(["pin", "target", "--root", root.path] + extra)
            #expect(r.exitCode == 2, "\(r.both)")
            #expect(r.stderr.contains("followme pin:"), "\(r.stderr)")
            #expect(Self.rules(root) == nil)
        }
    }
}
