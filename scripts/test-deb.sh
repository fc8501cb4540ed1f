#!/usr/bin/env bash
# The package test (issue 24; docs/packaging.md §4): builds the .debs (scripts/build-deb.sh: one
# static release build), makes a clean Debian bookworm root with debootstrap (minbase, from the
# Debian mirror: the only network this test uses), and in it, with apt in a chroot:
#   1. installs gpsd from the mirror and records /etc/default/gpsd's checksum;
#   2. installs followme_*.deb (apt pulls its Depends) and checks `dpkg -L`, the conffile, the
#      user (no dialout), the log directory, the pairing secret the postinst made (followme:followme
#      0600, the installed config's code_file, shown by `followme pair`), `followme config check`,
#      `systemd-analyze verify`;
#   3. upgrades to version+1 (the same build, repacked: control Version and a changed shipped
#      config) after editing the config: the edit survives, followme.toml.dpkg-dist appears, the
#      pairing secret is unchanged;
#   4. upgrades to version+2 over a config the binary refuses: the install succeeds, postinst prints
#      FILE:LINE, the service is not started;
#   5. purges: every file of the package, /etc/followme (the secret too), /var/log/followme and
#      /var/lib/followme are gone, and
#      /etc/default/gpsd still has its checksum from step 1;
# then runs lintian on both packages: any E: fails the test (warnings: docs/packaging.md §5).
# Needs root (chroot, mounts; run in a private mount namespace). Prints the time of each phase.
# Environment: FOLLOWME_DEB_MIRROR (default: the first deb.debian.org-style URI in
# /etc/apt/sources.list.d/debian.sources, else http://deb.debian.org/debian), FOLLOWME_DEB_KEEP=1
# keeps the work directory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "test-deb: needs root (debootstrap, chroot)" >&2; exit 1; }
if [ "${FOLLOWME_DEB_NAMESPACE:-}" != 1 ]; then
    FOLLOWME_DEB_NAMESPACE=1 exec unshare --mount --propagation private "$PWD/scripts/test-deb.sh" "$@"
fi

t0=$SECONDS
phase() { echo "test-deb: [$((SECONDS - t0)) s] $*"; }
fail() { echo "test-deb: FAILED: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/followme-deb-test.XXXXXX)
root=$work/root
cleanup() {
    for m in proc dev/pts dev; do umount -l "$root/$m" 2>/dev/null || true; done
    if [ "${FOLLOWME_DEB_KEEP:-0}" = 1 ]; then echo "test-deb: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

phase "building the packages (scripts/build-deb.sh)"
mapfile -t debs < <(scripts/build-deb.sh --out "$work/debs")
deb=${debs[0]} tools_deb=${debs[1]}
build_seconds=$((SECONDS - t0))
phase "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB), $(basename "$tools_deb") in ${build_seconds} s"

mirror=${FOLLOWME_DEB_MIRROR:-$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}
mirror=${mirror:-http://deb.debian.org/debian}
phase "debootstrap --variant=minbase bookworm from $mirror"
t1=$SECONDS
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -30 "$work/debootstrap.log" >&2; fail "debootstrap"; }
debootstrap_seconds=$((SECONDS - t1))
phase "clean bookworm root in ${debootstrap_seconds} s"

cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
# Nothing starts services in the chroot (invoke-rc.d/deb-systemd-invoke honour policy-rc.d);
# no systemd runs there anyway (/run/systemd/system is absent).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
apt_install() { in_root apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confold "$@"; }

# Version+1 and +2 from the same build: the control file's Version, and a shipped config that
# differs (a comment), so dpkg has a new conffile to offer next to the edited one.
repack() {  # repack SUFFIX → path of followme_VERSION+SUFFIX.deb
    local dir=$work/repack-$1 out
    dpkg-deb -R "$deb" "$dir"
    sed -i "s/^Version: .*/&+$1/" "$dir/DEBIAN/control"
    echo "# shipped by followme $(sed -n 's/^Version: //p' "$dir/DEBIAN/control") (package test)" >>"$dir/etc/followme/followme.toml"
    out=$work/debs/followme_$(sed -n 's/^Version: //p' "$dir/DEBIAN/control")_$(dpkg --print-architecture).deb
    dpkg-deb --root-owner-group -Zgzip -b "$dir" "$out" >/dev/null
    echo "$out"
}

t2=$SECONDS
phase "1. apt-get install gpsd (from the mirror)"
in_root apt-get update -q >/dev/null
apt_install gpsd >"$work/apt-gpsd.log" 2>&1 || { tail -30 "$work/apt-gpsd.log" >&2; fail "installing gpsd"; }
gpsd_sum=$(sha256sum <"$root/etc/default/gpsd")

phase "2. apt-get install ./$(basename "$deb")"
cp "$deb" "$tools_deb" "$root/tmp/"
apt_install "/tmp/$(basename "$deb")" "/tmp/$(basename "$tools_deb")" >"$work/apt-install.log" 2>&1 \
    || { tail -40 "$work/apt-install.log" >&2; fail "installing the package"; }
grep '^followme:' "$work/apt-install.log" || true
expected=(/usr/bin/followme /etc/followme/followme.toml /usr/lib/systemd/system/followme.service
    /usr/lib/systemd/system/gpsd.service.d/followme.conf /usr/lib/sysusers.d/followme.conf
    /usr/lib/tmpfiles.d/followme.conf /usr/lib/udev/rules.d/61-followme-gps.rules
    /usr/share/man/man1/followme.1.gz /usr/share/man/man5/followme.toml.5.gz
    /usr/share/bash-completion/completions/followme /usr/share/zsh/vendor-completions/_followme
    /usr/share/fish/vendor_completions.d/followme.fish /usr/share/doc/followme/copyright)
listed=$(in_root dpkg -L followme)
for path in "${expected[@]}"; do
    grep -qx "$path" <<<"$listed" || fail "dpkg -L followme lacks $path"
    [ -e "$root$path" ] || fail "$path is listed but not on disk"
done
in_root dpkg -L followme-tools | grep -qx /usr/bin/followme-tools || fail "dpkg -L followme-tools lacks /usr/bin/followme-tools"
grep -qx /etc/followme/followme.toml <<<"$(in_root dpkg-query -W -f='${Conffiles}\n' followme | awk '{ print $1 }')" \
    || fail "/etc/followme/followme.toml is not a conffile"
[ "$(in_root id -nG followme)" = followme ] || fail "user followme: groups $(in_root id -nG followme), want followme only (no dialout)"
[ "$(stat -c '%a' "$root/var/log/followme")" = 750 ] && [ "$(in_root stat -c '%U:%G' /var/log/followme)" = followme:followme ] \
    || fail "/var/log/followme: $(in_root stat -c '%U:%G %a' /var/log/followme)"
in_root followme config check /etc/followme/followme.toml >/dev/null || fail "followme config check of the installed config"
in_root followme sim --help >/dev/null || fail "followme sim (followme-tools beside followme)"
verify=$(in_root systemd-analyze verify --man=no followme.service gpsd.service 2>&1) || fail "systemd-analyze verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify printed: $verify"
[ "$(sha256sum <"$root/etc/default/gpsd")" = "$gpsd_sum" ] || fail "/etc/default/gpsd changed by the install"
secret=/etc/followme/pairing-secret
[ "$(in_root stat -c '%U:%G %a' "$secret")" = "followme:followme 600" ] || fail "$secret: $(in_root stat -c '%U:%G %a' "$secret" 2>&1)"
grep -Eqx '[0-9A-HJKMNP-TV-Z]{10}' "$root$secret" || fail "$secret does not hold a 10-character base32 secret"
grep -qx "code_file = \"$secret\"" "$root/etc/followme/followme.toml" || fail "the installed config's [web] code_file is not $secret"
secret_sum=$(sha256sum <"$root$secret")
in_root followme pair --config /etc/followme/followme.toml --host 127.0.0.1 | grep -q "#pair=$(cat "$root$secret")" \
    || fail "followme pair does not show the paired URL"
echo "test-deb: dpkg -L, conffile, user, log directory, pairing secret (followme:followme 0600), config check, systemd-analyze verify: ok"

phase "3. edit the config, upgrade to version+1"
config=$root/etc/followme/followme.toml
echo "# edited on the field: kept over upgrades" >>"$config"
edited_sum=$(sha256sum <"$config")
plus1=$(repack 1)
cp "$plus1" "$root/tmp/"
apt_install "/tmp/$(basename "$plus1")" >"$work/apt-upgrade.log" 2>&1 || { tail -40 "$work/apt-upgrade.log" >&2; fail "upgrade"; }
[ "$(sha256sum <"$config")" = "$edited_sum" ] || fail "the edited config did not survive the upgrade"
[ -f "$config.dpkg-dist" ] && grep -q "package test" "$config.dpkg-dist" || fail "no followme.toml.dpkg-dist with the new version"
[ "$(in_root dpkg-query -W -f='${Version}' followme)" = "$(dpkg-deb -f "$plus1" Version)" ] || fail "version after upgrade"
[ "$(sha256sum <"$root$secret")" = "$secret_sum" ] || fail "the pairing secret changed over the upgrade (every phone would be unpaired)"
echo "test-deb: edited config kept, new one in followme.toml.dpkg-dist, pairing secret kept: ok"

phase "4. a config the new version refuses, upgrade to version+2"
sed -i 's/^standoff_m = .*/standoff_m = -5/' "$config"
grep -q '^standoff_m = -5' "$config" || echo 'standoff_m = -5' >>"$config"
plus2=$(repack 2)
cp "$plus2" "$root/tmp/"
apt_install "/tmp/$(basename "$plus2")" >"$work/apt-refused.log" 2>&1 || { tail -40 "$work/apt-refused.log" >&2; fail "upgrade over a refused config failed"; }
grep -E '^/etc/followme/followme.toml:[0-9]+: ' "$work/apt-refused.log" || fail "postinst did not print FILE:LINE (log: $(cat "$work/apt-refused.log"))"
grep -q 'followme.service will not start on it' "$work/apt-refused.log" || fail "postinst did not say the service will not start"
[ "$(in_root dpkg-query -W -f='${Status}' followme)" = "install ok installed" ] || fail "package not configured after the refused-config upgrade"
echo "test-deb: refused config: FILE:LINE printed, package installed, service not started: ok"

phase "5. purge"
in_root apt-get purge -y -q followme-tools followme >"$work/apt-purge.log" 2>&1 || { tail -30 "$work/apt-purge.log" >&2; fail "purge"; }
while read -r path; do
    [ -d "$root$path" ] && continue   # directories shared with other packages (/usr/bin, ...)
    [ -e "$root$path" ] && fail "$path is still there after purge"
done <<<"$listed"
for gone in /etc/followme /var/log/followme /var/lib/followme /usr/lib/systemd/system/gpsd.service.d/followme.conf; do
    [ -e "$root$gone" ] && fail "$gone is still there after purge"
done
[ "$(sha256sum <"$root/etc/default/gpsd")" = "$gpsd_sum" ] || fail "/etc/default/gpsd changed"
in_root dpkg -V gpsd || fail "gpsd's files changed (dpkg -V gpsd)"
install_seconds=$((SECONDS - t2))
echo "test-deb: purge removed every file, /etc/default/gpsd unchanged: ok"

phase "lintian"
lintian_out=$(lintian --info --display-info "$deb" "$tools_deb" 2>&1 || true)
echo "${lintian_out:-(lintian: no tags)}"
grep -q '^E: ' <<<"$lintian_out" && fail "lintian reported errors"
echo "test-deb: times: build ${build_seconds} s, debootstrap ${debootstrap_seconds} s, install/upgrade/purge ${install_seconds} s, total $((SECONDS - t0)) s"
echo "test-deb: 1 passed, 0 failed"
