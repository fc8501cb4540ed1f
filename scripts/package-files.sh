#!/usr/bin/env bash
# Lays out the files of the followme and followme-tools Debian packages from built binaries: what
# debian/rules' dh_auto_install step runs (scripts/build-deb.sh builds; docs/packaging.md), and what
# Tests/followmeTests/CLI/Deployment*Tests.swift stage into a temporary root.
#
#   scripts/package-files.sh --bin-dir DIR --root DIR [--tools-root DIR]
#
#   --bin-dir DIR     where followme (and followme-tools, generate-manual) were built
#   --root DIR        the followme package's tree (debian/followme)
#   --tools-root DIR  the followme-tools package's tree (debian/followme-tools); without it,
#                     followme-tools is left out
#
# What goes where (below --root):
#   usr/bin/followme                              the flight's binary (Swift runtime linked statically)
#   etc/followme/followme.toml                    etc/followme.toml with the field's paths (a conffile:
#                                                 dh_installdeb lists every file under /etc):
#                                                 [log] directory = "/var/log/followme",
#                                                 [status] socket = "/run/followme/status.sock",
#                                                 [follow] takeoff = "start", [web] listen = "0.0.0.0:8080",
#                                                 [web] code_file = "/etc/followme/pairing-secret"
#                                                 (the postinst makes the secret)
#   usr/lib/systemd/system/followme.service       etc/systemd/followme.service (not enabled)
#   usr/lib/systemd/system/gpsd.service.d/followme.conf
#                                                 etc/systemd/gpsd-followme.conf: gpsd's -n, without
#                                                 touching gpsd's conffile /etc/default/gpsd
#   usr/lib/udev/rules.d/61-followme-gps.rules    udev/61-followme-gps.rules
#   usr/share/man/man1/followme.1                 generate-manual, from the binary's own help
#   usr/share/man/man5/followme.toml.5            followme config keys --man (the config rows)
#   usr/share/bash-completion/completions/followme, usr/share/zsh/vendor-completions/_followme,
#   usr/share/fish/vendor_completions.d/followme.fish
#                                                 followme --generate-completion-script SHELL
# The sysusers.d and tmpfiles.d entries are debian/followme.sysusers and debian/followme.tmpfiles
# (dh_installsysusers, dh_installtmpfiles). Below --tools-root: usr/bin/followme-tools, which
# `followme sim|bench|fuzz` exec from beside followme, and its man page followme-tools(1).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
bin_dir="" root="" tools_root=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin-dir) bin_dir=$2; shift 2 ;;
        --root) root=$2; shift 2 ;;
        --tools-root) tools_root=$2; shift 2 ;;
        -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
        *) echo "package-files.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$bin_dir" ] && [ -n "$root" ] || { echo "package-files.sh: --bin-dir and --root are needed" >&2; exit 2; }
bin=$bin_dir/followme
[ -x "$bin" ] || { echo "package-files.sh: no executable $bin" >&2; exit 1; }

# generated PATH COMMAND...: COMMAND's output as root/PATH, mode 0644; fails when it prints nothing.
generated() {
    local dest=$root/$1
    shift
    mkdir -p "$(dirname "$dest")"
    "$@" >"$dest"
    [ -s "$dest" ] || { echo "package-files.sh: $* printed nothing" >&2; exit 1; }
    chmod 0644 "$dest"
}

# installed_config: etc/followme.toml with the field's paths instead of the checkout's
# (out/flights, out/followme.sock are relative to where a developer runs followme).
installed_config() {
    sed -e 's|^directory = "out/flights"|directory = "/var/log/followme"|' \
        -e 's|^socket = "out/followme.sock"|socket = "/run/followme/status.sock"|' \
        -e 's|^takeoff = "auto"|takeoff = "start"|' \
        -e 's|^listen = ""|listen = "0.0.0.0:8080"|' \
        -e 's|^code_file = ""|code_file = "/etc/followme/pairing-secret"|' "$repo/etc/followme.toml"
}

install -D -m 0755 "$bin" "$root/usr/bin/followme"
generated etc/followme/followme.toml installed_config
install -D -m 0644 "$repo/etc/systemd/followme.service" "$root/usr/lib/systemd/system/followme.service"
install -D -m 0644 "$repo/etc/systemd/gpsd-followme.conf" "$root/usr/lib/systemd/system/gpsd.service.d/followme.conf"
install -D -m 0644 "$repo/udev/61-followme-gps.rules" "$root/usr/lib/udev/rules.d/61-followme-gps.rules"

# The man pages, dated like the binary so the same build writes the same pages.
date=$(date -u -r "$bin" +%F)
# manual BINARY: generate-manual's mdoc page, its blank lines (groff warns: "Empty input line") as .Pp.
manual() { "$bin_dir/generate-manual" "$1" --date "$date" --output-directory - | sed 's/^$/.Pp/'; }
# bash-completion sources its files: no #! line (lintian: bash-completion-with-hashbang).
bash_completion() { "$bin" --generate-completion-script bash | sed '1{/^#!/d}'; }
generated usr/share/man/man1/followme.1 manual "$bin"
generated usr/share/man/man5/followme.toml.5 "$bin" config keys --man --date "$date"
generated usr/share/bash-completion/completions/followme bash_completion
generated usr/share/zsh/vendor-completions/_followme "$bin" --generate-completion-script zsh
generated usr/share/fish/vendor_completions.d/followme.fish "$bin" --generate-completion-script fish

if [ -n "$tools_root" ]; then
    install -D -m 0755 "$bin_dir/followme-tools" "$tools_root/usr/bin/followme-tools"
    (root=$tools_root; generated usr/share/man/man1/followme-tools.1 manual "$bin_dir/followme-tools")
fi
