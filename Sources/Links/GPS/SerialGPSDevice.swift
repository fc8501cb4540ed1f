import Foundation

/// A USB serial device as sysfs describes it: what `followme pin` lists and pins.
///
/// Read from `/sys/class/tty/<name>/device` (the USB interface for cdc_acm, the usb-serial port
/// for pl2303/cp210x/ftdi_sio/ch341) up to the USB device directory holding `idVendor`.
package struct SerialGPSDevice: Sendable, Equatable {
    /// The kernel tty name: `ttyACM0`, `ttyUSB1`.
    package var ttyName: String
    /// USB vendor and product ids, 4 lower-case hex digits (`1546`, `01a8`).
    package var vendorID: String
    package var productID: String
    /// The USB serial number (`ID_SERIAL_SHORT` in udev), when the device has one.
    package var serial: String?
    /// Manufacturer and product strings, when present (for the list only).
    package var manufacturer: String?
    package var product: String?
    /// The USB device's sysfs name, bus and port chain: `1-2`, `1-1.2` (udev's ID_PATH ends in `-usb-0:<ports>:1.0`).
    package var usbPort: String
    /// udev's ID_PATH for this tty (path_id builtin): `pci-0000:00:14.0-usb-0:2:1.0`, when the
    /// controller is a PCI device; nil when the chain above the hub is not PCI (then pin by serial).
    package var idPath: String?

    /// `vendor:product`, as lsusb prints it.
    package var usbID: String { "\(vendorID):\(productID)" }
}

/// Walks a sysfs tree (`/sys`, or a fake one in a test) for USB serial ttys.
package enum SerialGPSDeviceScan {
    /// Every `ttyACM*`/`ttyUSB*` under `sysRoot/class/tty` whose device chain reaches a USB device,
    /// sorted by tty name. Unreadable or non-USB entries are skipped.
    package static func devices(sysRoot: String = "/sys") -> [SerialGPSDevice] {
        let classDirectory = sysRoot + "/class/tty"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classDirectory)) ?? []
        return names.filter { $0.hasPrefix("ttyACM") || $0.hasPrefix("ttyUSB") }.sorted().compactMap {
            device(ttyName: $0, classDirectory: classDirectory)
        }
    }

    static func device(ttyName: String, classDirectory: String) -> SerialGPSDevice? {
        // .../1-2/1-2:1.0[/ttyUSB0] : the first ancestor with idVendor is the USB device.
        guard var directory = resolved(classDirectory + "/" + ttyName + "/device") else { return nil }
        var interface: String?
        for _ in 0..<4 {
            if let vendor = attribute(directory, "idVendor") {
                guard let product = attribute(directory, "idProduct") else { return nil }
                let usbName = (directory as NSString).lastPathComponent
                return SerialGPSDevice(
                    ttyName: ttyName, vendorID: vendor.lowercased(), productID: product.lowercased(),
                    serial: attribute(directory, "serial"), manufacturer: attribute(directory, "manufacturer"),
                    product: attribute(directory, "product"), usbPort: usbName,
                    idPath: idPath(usbDevice: directory, interface: interface))
            }
            interface = (directory as NSString).lastPathComponent
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// udev's path_id for a USB tty whose USB device sits below a PCI controller:
    /// `pci-<PCI slot>-usb-0:<ports>:<config.interface>` (systemd src/udev/udev-builtin-path_id.c,
    /// handle_usb: "usb-0:" + the part of the interface name after "<bus>-").
    static func idPath(usbDevice: String, interface: String?) -> String? {
        guard let interface, let dash = interface.firstIndex(of: "-") else { return nil }
        // Up from the USB device: root hubs (usbN), then the PCI controller (0000:00:14.0).
        var directory = (usbDevice as NSString).deletingLastPathComponent
        while (directory as NSString).lastPathComponent.hasPrefix("usb") || (directory as NSString).lastPathComponent.contains("-") {
            directory = (directory as NSString).deletingLastPathComponent
        }
        let controller = (directory as NSString).lastPathComponent
        guard controller.split(separator: ":").count == 3, controller.contains(".") else { return nil }
        return "pci-\(controller)-usb-0:\(interface[interface.index(after: dash)...])"
    }

    /// The path with every link resolved (sysfs `device` links are relative), by realpath(3):
    /// Foundation's `resolvingSymlinksInPath` left sysfs-style relative links unresolved here.
    package static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// A sysfs attribute file's first line, trimmed; nil when absent or empty.
    static func attribute(_ directory: String, _ name: String) -> String? {
        guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) else { return nil }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
