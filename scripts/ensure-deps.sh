#!/usr/bin/env bash
# Installs what FollowMe needs on Debian bookworm, only when missing: libgps (headers + library
# for the CGPS system-library target), gpsd and gpsd-clients (gpsfake, gpspipe: the tests start
# real gpsd processes), systemd and udev (the deployment tests run `systemd-analyze verify` on the
# unit and `udevadm test` on the udev rules; Debian images without systemd lack both), python3 when
# no python3 is on PATH (scripts/demo.sh reads the simulator's JSON with it). Swift itself (6.2 or
# newer: the code uses Swift 6.2's InlineArray) must already be on PATH; this checks its version.
#
# `--test` (scripts/test.sh) also installs what only the tests drive: debhelper, lintian and
# debootstrap (the package test, scripts/test-deb.sh), chromium (the after-flight
# report and the cockpit are rendered in headless Chromium and screenshotted), wrk (the load on the cockpit while
# a flight follows) and tmux (`followme watch` is driven
# with send-keys / capture-pane), and in a venv at .build/pymavlink-venv (python3-venv when `python3 -m venv`
# lacks ensurepip), pinned: pymavlink for the MAVLink codec's cross-check (Tests/MAVLinkTests/pymavlink_vectors.py)
# and websocket-client, with which Tests/followmeTests/CLI/Support/cdp_driver.py drives Chromium's DevTools protocol
# (the cockpit's browser test presses the page's buttons); qrencode (`followme pair` draws its QR code) and
# zbar-tools (zbarimg: the test reads the PNG back); ffmpeg (the video tests encode a real H.264 stream with its
# libx264, mux the recording with `-c copy` and read it back with ffprobe, docs/video.md).
set -euo pipefail

packages=(libgps-dev gpsd gpsd-clients pkg-config systemd udev)
# --package (scripts/build-deb.sh): debhelper builds the .deb. --test also: lintian checks it and
# debootstrap makes the clean bookworm root it is installed into (scripts/test-deb.sh).
[ "${1:-}" = "--package" ] && packages+=(debhelper)
[ "${1:-}" = "--test" ] && packages+=(chromium tmux wrk debhelper lintian debootstrap qrencode zbar-tools ffmpeg)
need=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
command -v python3 >/dev/null || need+=(python3)
[ "${1:-}" = "--test" ] && { python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv); }
if [ ${#need[@]} -gt 0 ]; then
    echo "followme: installing ${need[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ "${1:-}" = "--test" ]; then
    # pymavlink from PyPI, pinned: the MAVLink vectors in Tests/MAVLinkTests/Fixtures were written by this version.
    venv="$(dirname "$0")/../.build/pymavlink-venv"
    if ! "$venv/bin/python3" -c 'import importlib.metadata as m, sys
sys.exit(m.version("pymavlink") != "2.4.50" or m.version("websocket-client") != "1.8.0")' 2>/dev/null; then
        echo "followme: installing pymavlink 2.4.50 and websocket-client 1.8.0 into .build/pymavlink-venv" >&2
        python3 -m venv "$venv"
        "$venv/bin/python3" -m pip install -q --disable-pip-version-check "pymavlink==2.4.50" "websocket-client==1.8.0"
    fi
fi
command -v swift >/dev/null || { echo "followme: swift (6.2 or newer) is not on PATH" >&2; exit 1; }
read -r major minor < <(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p' | head -1)
if [ -z "${major:-}" ] || [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 2 ]; }; then
    echo "followme: Swift 6.2 or newer is needed (found: $(swift --version 2>&1 | head -1))" >&2
    exit 1
fi
