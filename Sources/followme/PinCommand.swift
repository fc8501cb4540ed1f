import ArgumentParser
import FlightService
import Foundation
import Links

/// `followme pin target|onboard`: give one USB GPS receiver its role's link (/dev/gpstarget or
/// /dev/gpsonboard) with a local udev rule, instead of hand-editing the rules (udev/README.md).
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Pin a USB GPS receiver to a role: target (/dev/gpstarget) or onboard (/dev/gpsonboard).",
        discussion: """
            Lists the USB serial devices (ttyACM*, ttyUSB*) with their vendor:product, serial number and USB \
            port, asks which one (or takes --device), writes \(GPSPinRules.fileName) in the rules directory \
            (one line per role, replacing this role's earlier pin), reloads udev, re-triggers the device and \
            checks that the link appears. A device with a serial number is pinned by it (it then works in \
            any port); one without, or with --by-port, by its USB port (udev's ID_PATH). Needs root.

            Exit codes: 0 pinned (and the link appeared); 1 the link did not appear or udevadm failed; \
            2 no such device, nothing to pin, or a usage error.
            """
    )

    @Argument(help: "The role: target (the person's puck) or onboard (the drone's receiver).")
    var role: GPSPinRules.Role

    @Option(help: "The device to pin: its tty (ttyACM0 or /dev/ttyACM0) or its serial number. Without it: asks.")
    var device: String?

    @Flag(help: "Pin by USB port even when the device has a serial number.")
    var byPort = false

    @Flag(help: "Only list the devices.")
    var list = false

    @Option(help: "Root of the file system to read /sys and write the rules under (tests, images).")
    var root = "/"

    @Option(help: "Where to write \(GPSPinRules.fileName) (default: ROOT/etc/udev/rules.d).")
    var rulesDir: String?

    @Flag(help: "Do not run udevadm (reload, trigger) nor wait for the link; implied when --root is not /.")
    var noReload = false

    func run() throws {
        let prefix = root == "/" ? "" : root
        let devices = SerialGPSDeviceScan.devices(sysRoot: prefix + "/sys")
        let recognised = GPSPinRules.recognisedIDs(rulesText: packagedRules(prefix))
        guard !devices.isEmpty else {
            if list { print("no USB serial device (ttyACM*, ttyUSB*)"); return }
            printError("followme pin: no USB serial device (ttyACM*, ttyUSB*) under \(prefix)/sys/class/tty: plug the receiver in")
            throw ExitCode(2)
        }
        print("USB serial devices:")
        for (index, d) in devices.enumerated() {
            let known = recognised.isEmpty || recognised.contains(d.usbID) ? "" : "  (not a recognised GPS chip)"
            let name = [d.manufacturer, d.product].compactMap { $0 }.joined(separator: " ")
            print("  \(index + 1)) \(d.ttyName)  \(d.usbID)  serial \(d.serial ?? "-")  port \(d.usbPort)  \(name)\(known)")
        }
        if list { return }
        let chosen = try choose(from: devices)
        if !recognised.isEmpty && !recognised.contains(chosen.usbID) {
            printError("followme pin: warning: \(chosen.usbID) is not in 61-followme-gps.rules' GPS chips: the pin cannot match until you add it there (udev/README.md)")
        }
        let udev = root == "/" && !noReload ? udevProperties(chosen.ttyName) : [:]
        let serial = udev["ID_SERIAL_SHORT"] ?? chosen.serial
        let match: GPSPinRules.Match
        if !byPort, let serial, GPSPinRules.isMatchable(serial) {
            match = .serial(serial)
        } else if let path = udev["ID_PATH"] ?? chosen.idPath, GPSPinRules.isMatchable(path) {
            match = .idPath(path)
        } else {
            printError("followme pin: \(chosen.ttyName) has no usable serial number and no USB port path (ID_PATH): pin it by hand (udev/README.md)")
            throw ExitCode(2)
        }
        let name = [chosen.manufacturer, chosen.product].compactMap { $0 }.joined(separator: " ")
        let pin = GPSPinRules.Pin(role: role, match: match,
                                  note: ([chosen.usbID, name].filter { !$0.isEmpty }.joined(separator: " ")) + ", \(chosen.ttyName) when pinned")
        let directory = rulesDir ?? prefix + "/etc/udev/rules.d"
        let file = directory + "/" + GPSPinRules.fileName
        let old = GPSPinRules(parsing: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(old.replacing(with: pin).text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        chmod(file, 0o644)
        switch match {
        case .serial(let s): print("pinned \(chosen.ttyName) as /dev/\(role.linkName) by serial number \(s): \(file)")
        case .idPath(let p): print("pinned \(chosen.ttyName) as /dev/\(role.linkName) by USB port \(p) (keep it in that port): \(file)")
        }
        if root == "/" && !noReload { try reloadAndCheck(chosen) }
    }

    /// The packaged rules (or the admin's copy in /etc, which overrides it), for the recognised chips.
    func packagedRules(_ prefix: String) -> String {
        for directory in ["/etc/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"] {
            if let text = try? String(contentsOfFile: prefix + directory + "/61-followme-gps.rules", encoding: .utf8) { return text }
        }
        return ""
    }

    /// --device (tty name, /dev path or serial), or the operator's answer on a terminal.
    func choose(from devices: [SerialGPSDevice]) throws -> SerialGPSDevice {
        if let device {
            let name = device.hasPrefix("/dev/") ? String(device.dropFirst(5)) : device
            if let found = devices.first(where: { $0.ttyName == name || $0.serial == device }) { return found }
            printError("followme pin: no device \(device) in the list above")
            throw ExitCode(2)
        }
        guard isatty(STDIN_FILENO) == 1 else {
            printError("followme pin: which device? Pass --device TTY (no terminal to ask on)")
            throw ExitCode(2)
        }
        print("Which one is the \(role == .target ? "person's puck" : "drone's receiver")? [1-\(devices.count)] ", terminator: "")
        guard let answer = readLine().flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              devices.indices.contains(answer - 1) else {
            printError("followme pin: no such number")
            throw ExitCode(2)
        }
        return devices[answer - 1]
    }

    /// `udevadm info -q property -n TTY` as a dictionary (empty when udevadm is missing or fails).
    func udevProperties(_ tty: String) -> [String: String] {
        guard let out = try? runTool("udevadm", ["info", "-q", "property", "-n", "/dev/\(tty)"]), out.status == 0 else { return [:] }
        var properties: [String: String] = [:]
        for line in out.output.split(separator: "\n") {
            if let eq = line.firstIndex(of: "=") { properties[String(line[..<eq])] = String(line[line.index(after: eq)...]) }
        }
        return properties
    }

    /// udevadm control --reload, trigger the tty, settle; then the link must point at the tty.
    func reloadAndCheck(_ chosen: SerialGPSDevice) throws {
        for arguments in [["control", "--reload"], ["trigger", "--action=change", "/sys/class/tty/\(chosen.ttyName)"], ["settle", "--timeout=10"]] {
            let r = try runTool("udevadm", arguments)
            guard r.status == 0 else {
                printError("followme pin: udevadm \(arguments.joined(separator: " ")) failed: \(r.output)")
                throw ExitCode(1)
            }
        }
        let link = "/dev/\(role.linkName)"
        let target = SerialGPSDeviceScan.resolved(link)
        guard target == "/dev/\(chosen.ttyName)" else {
            printError("followme pin: \(link) did not appear (points at: \(target ?? "nothing")); udevadm info -q property -n /dev/\(chosen.ttyName) | grep FOLLOWME")
            throw ExitCode(1)
        }
        print("\(link) -> \(chosen.ttyName); gpsd gets it through gpsdctl@\(role.linkName).service")
    }

    func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension GPSPinRules.Role: ExpressibleByArgument {}
