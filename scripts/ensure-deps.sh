#!/usr/bin/env bash
# Installs what FollowMe needs on Debian bookworm, only when missing: libgps (headers + library
# for the CGPS system-library target), gpsd and gpsd-clients (gpsfake, gpspipe: the tests start
# real gpsd processes), systemd and udev (the deployment tests run `systemd-analyze verify` on the
# unit and `udevadm test` on the udev rules; Debian images without systemd lack both). Swift itself
# (6.1+) must already be on PATH.
set -euo pipefail

need=()
for pkg in libgps-dev gpsd gpsd-clients pkg-config systemd udev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "followme: installing ${need[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "followme: swift (6.1 or newer) is not on PATH" >&2; exit 1; }
