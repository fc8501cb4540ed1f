#!/usr/bin/env bash
# Runs `udevadm test` for a simulated USB GPS puck, without the puck and without touching the
# machine: in a private mount namespace it mounts empty tmpfs over /sys, /dev, /run and
# /etc/udev/rules.d, builds a synthetic sysfs entry for one USB serial device, copies in the
# rules files given, and lets udev 252 evaluate every rules file (Debian's in /lib/udev/rules.d
# included) for an "add" event. Prints udevadm's trace (stderr) and the resulting properties
# (stdout: DEVLINKS, SYSTEMD_WANTS, ID_PATH, ...). Everything vanishes with the namespace.
#
#   udev/simulate-puck.sh [--vendor 1546] [--product 01a8] [--serial S] [--port 1.2]
#                         [--driver cdc_acm|pl2303|cp210x|ftdi_sio|...] [--mask-debian-gpsd]
#                         [--action add|change|remove] [RULES_FILE ...]
#
# --port is the USB port chain after the bus number as in `lsusb -t`/sysfs: "2" gives sysfs
# device 1-2 and ID_PATH pci-0000:00:14.0-usb-0:2:1.0; "1.2" gives 1-1.2 (port 2 of a hub on
# port 1). --mask-debian-gpsd puts /etc/udev/rules.d/60-gpsd.rules -> /dev/null in the sandbox.
# Needs root (mount namespaces). Exit 77 when the sandbox cannot be set up (the automake "skip").
#
# Why SYSTEMD_DEVICE_VERIFY_SYSFS=0: sd-device refuses syspaths not backed by sysfs unless told so;
# systemd's own tests use the same switch (src/libsystemd/sd-device/sd-device.c).
# Tested with: udev 252.39 (Debian bookworm), kernel 6.18, as root in a docker container.
set -euo pipefail

vendor=1546 product=01a8 serial="" port=2 driver="" mask=false action=add
rules=()
while [ $# -gt 0 ]; do
    case "$1" in
        --vendor) vendor=$2; shift 2 ;;
        --product) product=$2; shift 2 ;;
        --serial) serial=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --driver) driver=$2; shift 2 ;;
        --mask-debian-gpsd) mask=true; shift ;;
        --action) action=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        --*) echo "simulate-puck.sh: unknown option $1" >&2; exit 2 ;;
        *) rules+=("$(readlink -f "$1")"); shift ;;
    esac
done
# CDC-ACM receivers (u-blox, MediaTek) become ttyACM*; the rest sit behind a usb-serial driver.
if [ -z "$driver" ]; then
    case "$vendor" in 1546|0e8d) driver=cdc_acm ;; 067b|0557) driver=pl2303 ;; 10c4) driver=cp210x ;;
        0403) driver=ftdi_sio ;; 1a86) driver=ch341 ;; 1163) driver=cypress_m8 ;; 091e) driver=garmin_gps ;; *) driver=usbserial_generic ;;
    esac
fi

if [ "${FOLLOWME_UDEV_SANDBOX:-}" != 1 ]; then
    [ "$(id -u)" -eq 0 ] || { echo "simulate-puck.sh: needs root (private mount namespace)" >&2; exit 77; }
    command -v udevadm >/dev/null || { echo "simulate-puck.sh: udevadm not installed (apt-get install udev)" >&2; exit 77; }
    command -v unshare >/dev/null || { echo "simulate-puck.sh: unshare not found (util-linux)" >&2; exit 77; }
    unshare --mount --propagation private true 2>/dev/null \
        || { echo "simulate-puck.sh: cannot create a mount namespace here" >&2; exit 77; }
    args=(--vendor "$vendor" --product "$product" --serial "$serial" --port "$port" --driver "$driver" --action "$action")
    $mask && args+=(--mask-debian-gpsd)
    FOLLOWME_UDEV_SANDBOX=1 exec unshare --mount --propagation private "$0" "${args[@]}" "${rules[@]}"
fi

# Inside the private namespace from here on: these mounts are invisible to the rest of the machine.
# Keep copies of the rules first (they may live under a path the tmpfs mounts hide).
stash=$(mktemp -d)
for f in "${rules[@]}"; do cp "$f" "$stash/"; done
for dir in /sys /dev /run /etc/udev/rules.d; do mount -t tmpfs "followme-sim" "$dir"; done
cp "$stash"/* /etc/udev/rules.d/ 2>/dev/null || true
$mask && ln -s /dev/null /etc/udev/rules.d/60-gpsd.rules

S=/sys
mkdir -p $S/bus/pci $S/bus/usb $S/bus/usb-serial $S/class/tty
# PCI xHCI controller -> root hub usb1 -> device 1-<port> -> interface 1-<port>:1.0 -> tty
pci=$S/devices/pci0000:00/0000:00:14.0
mkdir -p "$pci"
printf 'DRIVER=xhci_hcd\nPCI_SLOT_NAME=0000:00:14.0\n' >"$pci/uevent"
ln -s ../../../bus/pci "$pci/subsystem"
hub=$pci/usb1
mkdir -p "$hub"
printf 'DEVTYPE=usb_device\nDRIVER=usb\n' >"$hub/uevent"
ln -s ../../../../bus/usb "$hub/subsystem"
usbname=1-$port
dev=$hub/$usbname
mkdir -p "$dev"
printf 'DEVTYPE=usb_device\nDRIVER=usb\nPRODUCT=%s/%s/100\n' "$vendor" "$product" >"$dev/uevent"
ln -s ../../../../../bus/usb "$dev/subsystem"
echo "$vendor" >"$dev/idVendor"
echo "$product" >"$dev/idProduct"
echo 0100 >"$dev/bcdDevice"
echo "Simulated vendor $vendor" >"$dev/manufacturer"
echo "Simulated GPS $product" >"$dev/product"
[ -n "$serial" ] && echo "$serial" >"$dev/serial"
intf=$dev/$usbname:1.0
mkdir -p "$intf"
ln -s ../../../../../../bus/usb "$intf/subsystem"
echo 00 >"$intf/bInterfaceNumber"
if [ "$driver" = cdc_acm ]; then
    printf 'DEVTYPE=usb_interface\nDRIVER=cdc_acm\nINTERFACE=2/2/1\n' >"$intf/uevent"
    echo 02 >"$intf/bInterfaceClass"; echo 02 >"$intf/bInterfaceSubClass"; echo 01 >"$intf/bInterfaceProtocol"
    tty=ttyACM0 major=166
    ttydir=$intf/tty/$tty
    mkdir -p "$ttydir"
    ln -s ../../../../../../../../class/tty "$ttydir/subsystem"
else
    printf 'DEVTYPE=usb_interface\nDRIVER=%s\nINTERFACE=255/0/0\n' "$driver" >"$intf/uevent"
    echo ff >"$intf/bInterfaceClass"; echo 00 >"$intf/bInterfaceSubClass"; echo 00 >"$intf/bInterfaceProtocol"
    tty=ttyUSB0 major=188
    port_dev=$intf/$tty
    mkdir -p "$port_dev"
    printf 'DRIVER=%s\n' "$driver" >"$port_dev/uevent"
    ln -s ../../../../../../../bus/usb-serial "$port_dev/subsystem"
    echo 0 >"$port_dev/port_number"
    ttydir=$port_dev/tty/$tty
    mkdir -p "$ttydir"
    ln -s ../../../../../../../../../class/tty "$ttydir/subsystem"
fi
printf 'MAJOR=%s\nMINOR=0\nDEVNAME=%s\n' "$major" "$tty" >"$ttydir/uevent"
ln -s "../..${ttydir#"$S"}" "$S/class/tty/$tty"

SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action="$action" "/sys/class/tty/$tty"
