#!/usr/bin/env bash
# Installs FollowMe on a Debian bookworm ground unit as a Debian package (docs/packaging.md):
# builds followme_VERSION_ARCH.deb from this checkout (scripts/build-deb.sh) and installs it with apt,
# which brings gpsd and libgps. Files, conffile handling, the user, removal: the package's.
#
#   sudo scripts/install.sh              # build the package, apt install it (with followme-tools: --tools)
#   sudo apt remove followme             # remove it (keeps /etc/followme); apt purge followme: everything
#
# Options:
#   --tools   also install followme-tools (followme sim|bench|fuzz)
#   --out DIR where the packages are built (default out/deb)
# The service is not enabled. Next: followme pin target, followme pin onboard (docs/field-guide.md).
set -euo pipefail
prog=followme-install
die() { echo "$prog: $*" >&2; exit 1; }
usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

repo=$(cd "$(dirname "$0")/.." && pwd)
tools=false out=$repo/out/deb
while [ $# -gt 0 ]; do
    case "$1" in
        --tools) tools=true; shift ;;
        --out) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; echo "$prog: unknown option $1 (the package replaced --root, --binary, --uninstall: docs/packaging.md)" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die "installing needs root: sudo env PATH=\"\$PATH\" $0"
command -v swift >/dev/null || die "swift is not on PATH: sudo env PATH=\"\$PATH\" $0"

# Under sudo, build as the invoking user so the checkout gets no root-owned build files.
as=()
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] && [ "$(stat -c %U "$repo")" = "$SUDO_USER" ]; then
    "$repo/scripts/ensure-deps.sh" --package
    as=(sudo -u "$SUDO_USER" env PATH="$PATH")
fi
mapfile -t debs < <("${as[@]}" "$repo/scripts/build-deb.sh" --out "$out")
[ ${#debs[@]} -ge 2 ] || die "scripts/build-deb.sh built no packages"
install=("${debs[0]}")
$tools && install+=("${debs[1]}")
echo "$prog: apt-get install ${install[*]}"
apt-get install -y "${install[@]}"
