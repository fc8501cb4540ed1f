#!/usr/bin/env bash
# Installs FollowMe on a Debian bookworm ground unit, or removes it again (docs/field-guide.md).
#
#   sudo scripts/install.sh                      # build (release), install, reload udev + systemd
#   sudo scripts/install.sh --uninstall          # remove it; keeps config, flight logs, user
#   sudo scripts/install.sh --uninstall --purge  # remove those too
#   scripts/install.sh --root /tmp/stage --binary .build/debug/followme   # stage into a directory
#
# Options:
#   --root DIR          install below DIR instead of / (DESTDIR=DIR works too). Staged installs
#                       touch nothing else: no user, no chown, no udevadm, no systemctl.
#   --binary FILE       install this followme binary instead of building one.
#   --generate-manual FILE
#                       swift-argument-parser's generate-manual tool, which writes the man page
#                       from the binary's own help (default: the one next to the binary, else
#                       built with followme; none found: no man page, with a warning).
#   --scratch-path DIR  build directory for `swift build` (default: the package's .build).
#   --uninstall         remove what install put there (scripts/uninstall.sh does the same).
#   --purge             with --uninstall: also remove /etc/followme, /var/log/followme and the
#                       followme user (only if install created it).
#
# What goes where (every file under /etc is treated like a dpkg conffile: installed when absent,
# updated when you have not edited it, otherwise left alone with the new version next to it as
# FILE.dist; the checksums of what was installed are kept in /var/lib/followme/install-manifest):
#   /usr/local/bin/followme                     the binary (always replaced)
#   /etc/followme/followme.toml                 etc/followme.toml, the config, with the field's paths:
#                                               [log] directory = "/var/log/followme",
#                                               [status] socket = "/run/followme/status.sock",
#                                               [follow] takeoff = "start" (the operator starts it),
#                                               [web] listen = "0.0.0.0:8080" (the phone cockpit)
#   /etc/systemd/system/followme.service        etc/systemd/followme.service (not enabled)
#   /etc/udev/rules.d/61-followme-gps.rules     udev/61-followme-gps.rules (pin your pucks there)
#   /etc/default/gpsd                           etc/default/gpsd, replacing Debian's unedited
#                                               default (saved as /etc/default/gpsd.followme-orig)
#   /var/log/followme/                          flight logs (owned by followme)
#   /usr/local/share/man/man1/followme.1        the man page (generate-manual, from the binary)
#   /usr/local/share/bash-completion/completions/followme, /usr/local/share/zsh/site-functions/_followme,
#   /usr/local/share/fish/vendor_completions.d/followme.fish
#                                               shell completions (followme --generate-completion-script)
#   user followme                               system user, own group, member of dialout
# Running it twice changes nothing the second time.
set -euo pipefail
shopt -s inherit_errexit

prog=followme-install
say() { echo "$prog: $*"; }
die() { echo "$prog: $*" >&2; exit 1; }
usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }
usage_error() { usage >&2; echo "$prog: $*" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
root=${DESTDIR:-}
binary=""
manual_tool=""
scratch=""
mode=install
purge=false
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || usage_error "--root needs a directory"; root=$2; shift 2 ;;
        --root=*) root=${1#*=}; shift ;;
        --binary) [ $# -ge 2 ] || usage_error "--binary needs a file"; binary=$2; shift 2 ;;
        --binary=*) binary=${1#*=}; shift ;;
        --generate-manual) [ $# -ge 2 ] || usage_error "--generate-manual needs a file"; manual_tool=$2; shift 2 ;;
        --generate-manual=*) manual_tool=${1#*=}; shift ;;
        --scratch-path) [ $# -ge 2 ] || usage_error "--scratch-path needs a directory"; scratch=$2; shift 2 ;;
        --scratch-path=*) scratch=${1#*=}; shift ;;
        --uninstall) mode=uninstall; shift ;;
        --purge) purge=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage_error "unknown option $1" ;;
    esac
done
if $purge && [ "$mode" = install ]; then usage_error "--purge only goes with --uninstall"; fi

root=${root%/}
staged=false
if [ -n "$root" ]; then
    staged=true
    mkdir -p "$root"
    root=$(cd "$root" && pwd)
    [ "$root" = / ] && { root=""; staged=false; }
fi
$staged || [ "$(id -u)" -eq 0 ] || die "installing into / needs root (sudo $0 ...), or stage it with --root DIR"

# Paths on the target system; "$root$path" is where they land.
BIN=/usr/local/bin/followme
# `followme sim|bench|fuzz` exec this, from the same directory (docs/architecture.md §1).
TOOLS_BIN=/usr/local/bin/followme-tools
CONF=/etc/followme/followme.toml
UNIT=/etc/systemd/system/followme.service
RULES=/etc/udev/rules.d/61-followme-gps.rules
GPSD_DEFAULT=/etc/default/gpsd
LOGDIR=/var/log/followme
MANPAGE=/usr/local/share/man/man1/followme.1
# Where bash-completion, Debian's zsh and fish look for completions of locally installed programs.
declare -A COMPLETIONS=(
    [bash]=/usr/local/share/bash-completion/completions/followme
    [zsh]=/usr/local/share/zsh/site-functions/_followme
    [fish]=/usr/local/share/fish/vendor_completions.d/followme.fish
)
MANIFEST=/var/lib/followme/install-manifest
USER_NAME=followme

sha() { sha256sum "$1" | cut -d' ' -f1; }

# The manifest: "conffile <sha256> <path>" per /etc file as installed, "user-created <name>".
declare -A recorded=()
user_created=false
if [ -f "$root$MANIFEST" ]; then
    while read -r kind a b; do
        case "$kind" in
            conffile) recorded[$b]=$a ;;
            user-created) [ "$a" = "$USER_NAME" ] && user_created=true ;;
        esac
    done <"$root$MANIFEST"
fi
write_manifest() {
    local tmp path
    mkdir -p "$root$(dirname "$MANIFEST")"
    tmp=$(mktemp)
    {
        echo "# Written by scripts/install.sh: what it installed (sha256 of each /etc file as installed)."
        for path in "${!recorded[@]}"; do echo "conffile ${recorded[$path]} $path"; done | sort -k3
        $user_created && echo "user-created $USER_NAME"
    } >"$tmp"
    install -m 0644 "$tmp" "$root$MANIFEST"
    rm -f "$tmp"
}

# install_conffile SRC PATH: dpkg-conffile-like, see the header.
install_conffile() {
    local src=$1 path=$2 dest=$root$2
    mkdir -p "$(dirname "$dest")"
    if [ ! -e "$dest" ] && [ ! -L "$dest" ]; then
        install -m 0644 "$src" "$dest"
        say "installed $path"
    elif cmp -s "$src" "$dest"; then
        say "unchanged $path"
    elif [ -n "${recorded[$path]:-}" ] && [ "$(sha "$dest")" = "${recorded[$path]}" ]; then
        install -m 0644 "$src" "$dest"
        say "updated   $path"
    else
        install -m 0644 "$src" "$dest.dist"
        say "kept      $path (edited here); the new version is $path.dist: merge it by hand"
        return
    fi
    recorded[$path]=$(sha "$src")
    rm -f "$dest.dist"
}

# Debian's /etc/default/gpsd as shipped (bookworm: DEVICES="", GPSD_OPTIONS="", USBAUTO="true").
is_debian_default_gpsd() {
    [ "$(grep -Ev '^[[:space:]]*(#|$)' "$1" | sed 's/[[:space:]]*$//' | sort)" \
        = "$(printf 'DEVICES=""\nGPSD_OPTIONS=""\nUSBAUTO="true"')" ]
}

build_binary() {
    local swift bin
    swift=$(command -v swift) || die "swift is not on PATH: build first and pass --binary, or run sudo env PATH=\"\$PATH\" $0"
    local args=(build -c release --static-swift-stdlib --product followme --package-path "$repo")
    [ -n "$scratch" ] && args+=(--scratch-path "$scratch")
    # Under sudo, build as the invoking user so the checkout gets no root-owned build files.
    local as=()
    if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] && command -v sudo >/dev/null \
        && [ "$(stat -c %U "$repo")" = "$SUDO_USER" ]; then
        as=(sudo -u "$SUDO_USER" --)
    fi
    say "building: swift ${args[*]}" >&2
    "${as[@]}" "$swift" "${args[@]}" >&2 || die "swift build failed (see above)"
    bin=$("${as[@]}" "$swift" "${args[@]}" --show-bin-path)/followme
    [ -x "$bin" ] || die "build produced no $bin"
    # The development tools (followme sim|bench|fuzz), a second executable beside followme.
    local tools_args=("${args[@]/#followme/followme-tools}")
    "${as[@]}" "$swift" "${tools_args[@]}" >&2 || say "warning: could not build followme-tools: no followme sim|bench|fuzz" >&2
    # The man page writer (swift-argument-parser's, the tool behind its generate-manual plugin):
    # an executable target of that package, built next to followme. Not fatal: only the man page needs it.
    local tool_args=("${args[@]/#followme/generate-manual}")   # --product followme → --product generate-manual
    "${as[@]}" "$swift" "${tool_args[@]}" >&2 || say "warning: could not build generate-manual: no man page" >&2
    echo "$bin"
}

# install_generated PATH COMMAND...: installs COMMAND's output as PATH (mode 0644), replaced like the
# binary; nothing if the command fails or prints nothing (a warning).
install_generated() {
    local path=$1 dest=$root$1 tmp
    shift
    tmp=$(mktemp)
    if ! "$@" >"$tmp" 2>/dev/null || [ ! -s "$tmp" ]; then
        rm -f "$tmp"
        say "warning: could not generate $path ($*)"
        return
    fi
    mkdir -p "$(dirname "$dest")"
    if cmp -s "$tmp" "$dest"; then
        say "unchanged $path"
    else
        install -m 0644 "$tmp" "$dest"
        say "installed $path"
    fi
    rm -f "$tmp"
}

# generate_manual BIN TOOL: the roff man page of BIN on stdout, dated like BIN (so reinstalling the
# same binary writes the same page).
generate_manual() {
    "$2" "$1" --date "$(date -u -r "$1" +%F)" --output-directory -
}

# installed_config: etc/followme.toml with the field's paths instead of the checkout's
# (out/flights, out/followme.sock are relative to where a developer runs followme).
installed_config() {
    sed -e 's|^directory = "out/flights"|directory = "'"$LOGDIR"'"|' \
        -e 's|^socket = "out/followme.sock"|socket = "/run/followme/status.sock"|' \
        -e 's|^takeoff = "auto"|takeoff = "start"|' \
        -e 's|^listen = ""|listen = "0.0.0.0:8080"|' "$repo/etc/followme.toml"
}

systemd_running() { ! $staged && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; }
udev_running() { ! $staged && [ -S /run/udev/control ] && command -v udevadm >/dev/null; }

reload_daemons() {
    if $staged; then
        say "staged into $root: skipped systemctl daemon-reload and udevadm reload"
        return
    fi
    if systemd_running; then
        systemctl daemon-reload && say "systemctl daemon-reload"
    else
        say "systemd is not running here: no daemon-reload (it reads the unit at next boot)"
    fi
    if udev_running; then
        # change events for USB serial ttys re-run the rules for pucks already plugged in;
        # systemd starts newly wanted gpsdctl@ units on change events too.
        udevadm control --reload && udevadm trigger --subsystem-match=tty \
            --sysname-match='ttyACM*' --sysname-match='ttyUSB*' && say "udev rules reloaded and re-triggered"
    else
        say "udevd is not running here: rules apply at next boot or replug"
    fi
}

do_install() {
    [ -f "$repo/etc/followme.toml" ] || die "run me from a FollowMe checkout ($repo/etc/followme.toml missing)"
    local bin=$binary
    if [ -z "$bin" ]; then bin=$(build_binary); fi
    { [ -f "$bin" ] && [ -x "$bin" ]; } || die "no executable binary at $bin"
    [ -n "$manual_tool" ] || manual_tool=$(dirname "$bin")/generate-manual

    # 1. The binary.
    mkdir -p "$root$(dirname "$BIN")"
    if cmp -s "$bin" "$root$BIN"; then
        say "unchanged $BIN"
    else
        install -m 0755 "$bin" "$root$BIN.new" && mv -f "$root$BIN.new" "$root$BIN"
        say "installed $BIN"
    fi
    local tools; tools=$(dirname "$bin")/followme-tools
    if [ -x "$tools" ]; then
        if cmp -s "$tools" "$root$TOOLS_BIN"; then
            say "unchanged $TOOLS_BIN"
        else
            install -m 0755 "$tools" "$root$TOOLS_BIN.new" && mv -f "$root$TOOLS_BIN.new" "$root$TOOLS_BIN"
            say "installed $TOOLS_BIN"
        fi
    else
        say "note: no followme-tools next to $bin: followme sim|bench|fuzz are not installed (the flight does not need them)"
    fi

    # 2. The man page and shell completions, written by the binary's own help.
    if [ -x "$manual_tool" ]; then
        install_generated "$MANPAGE" generate_manual "$bin" "$manual_tool"
    else
        say "warning: no generate-manual tool (looked for $manual_tool): no man page"
    fi
    local shell
    for shell in bash zsh fish; do
        install_generated "${COMPLETIONS[$shell]}" "$bin" --generate-completion-script "$shell"
    done

    # 3. The /etc files.
    local config
    config=$(mktemp)
    installed_config >"$config"
    install_conffile "$config" "$CONF"
    rm -f "$config"
    install_conffile "$repo/etc/systemd/followme.service" "$UNIT"
    install_conffile "$repo/udev/61-followme-gps.rules" "$RULES"
    if [ -z "${recorded[$GPSD_DEFAULT]:-}" ] && [ -f "$root$GPSD_DEFAULT" ] \
        && ! cmp -s "$repo/etc/default/gpsd" "$root$GPSD_DEFAULT" && is_debian_default_gpsd "$root$GPSD_DEFAULT"; then
        mv "$root$GPSD_DEFAULT" "$root$GPSD_DEFAULT.followme-orig"
        say "saved Debian's $GPSD_DEFAULT as $GPSD_DEFAULT.followme-orig"
    fi
    install_conffile "$repo/etc/default/gpsd" "$GPSD_DEFAULT"

    # 4. The user and the flight-log directory.
    if $staged; then
        say "staged into $root: skipped creating user $USER_NAME"
    elif ! getent passwd "$USER_NAME" >/dev/null; then
        useradd --system --user-group --groups dialout --home-dir /nonexistent --no-create-home \
            --shell /usr/sbin/nologin --comment "FollowMe drone follower" "$USER_NAME"
        user_created=true
        say "created system user $USER_NAME (groups: $USER_NAME dialout)"
    elif ! id -nG "$USER_NAME" | tr ' ' '\n' | grep -qx dialout; then
        usermod -a -G dialout "$USER_NAME"
        say "added $USER_NAME to group dialout"
    else
        say "unchanged user $USER_NAME"
    fi
    install -d -m 0750 "$root$LOGDIR"
    $staged || chown "$USER_NAME:" "$root$LOGDIR"   # "user:" = the user's login group

    write_manifest
    reload_daemons
    if ! $staged && [ ! -e /lib/systemd/system/gpsdctl@.service ]; then
        say "warning: Debian's gpsd is not installed (apt-get install gpsd): nothing hands the pucks to gpsd"
    fi

    cat <<EOF

FollowMe is installed${root:+ under $root}. Next steps:
  1. Pin your receivers to their roles: edit $RULES
     (section 2; udev/README.md shows how to find a puck's serial number or USB port), then
       udevadm control --reload && udevadm trigger --subsystem-match=tty
     and check: ls -l /dev/gpstarget /dev/gpsonboard
  2. Check the config (each flight is logged to its own file in $LOGDIR; man followme):
       $BIN config check $CONF
  3. Look at both receivers live (no flying): $BIN gps --config $CONF
  4. Fly: systemctl start followme (it takes off once preflight passes); land: systemctl stop followme
     Logs: journalctl -u followme -f. Start at every boot only if you mean it: systemctl enable followme
EOF
}

# remove_conffile PATH: removes an /etc file install put there; an edited one is kept as
# /etc/followme/NAME.saved unless --purge.
remove_conffile() {
    local path=$1 dest=$root$1 src=$2
    rm -f "$dest.dist"
    if [ -e "$dest" ] || [ -L "$dest" ]; then
        if cmp -s "$src" "$dest" || { [ -n "${recorded[$path]:-}" ] && [ "$(sha "$dest")" = "${recorded[$path]}" ]; } || $purge; then
            rm -f "$dest"
            say "removed   $path"
        else
            mkdir -p "$root$(dirname "$CONF")"
            mv "$dest" "$root$(dirname "$CONF")/$(basename "$path").saved"
            say "removed   $path (edited: kept as $(dirname "$CONF")/$(basename "$path").saved)"
        fi
    fi
    unset "recorded[$path]"
}

do_uninstall() {
    if systemd_running && [ -e "$UNIT" ]; then
        say "stopping followme (lands the drone if it flies) and disabling it"
        systemctl disable --now followme.service || say "warning: could not stop/disable followme.service"
    fi

    if [ -e "$root$BIN" ]; then rm -f "$root$BIN"; say "removed   $BIN"; fi
    if [ -e "$root$TOOLS_BIN" ]; then rm -f "$root$TOOLS_BIN"; say "removed   $TOOLS_BIN"; fi
    local generated
    for generated in "$MANPAGE" "${COMPLETIONS[@]}"; do
        if [ -e "$root$generated" ]; then rm -f "$root$generated"; say "removed   $generated"; fi
    done
    remove_conffile "$UNIT" "$repo/etc/systemd/followme.service"
    remove_conffile "$RULES" "$repo/udev/61-followme-gps.rules"

    # /etc/default/gpsd belongs to Debian's gpsd: restore its saved default if ours is untouched.
    local d=$root$GPSD_DEFAULT
    rm -f "$d.dist"
    if [ -n "${recorded[$GPSD_DEFAULT]:-}" ] && [ -f "$d" ] && [ "$(sha "$d")" = "${recorded[$GPSD_DEFAULT]}" ]; then
        if [ -f "$d.followme-orig" ]; then
            mv -f "$d.followme-orig" "$d"
            say "restored  $GPSD_DEFAULT (Debian's default)"
        else
            rm -f "$d"
            say "removed   $GPSD_DEFAULT"
        fi
    elif [ -f "$d.followme-orig" ]; then
        say "kept      $GPSD_DEFAULT (edited since install); Debian's default is in $GPSD_DEFAULT.followme-orig"
    fi
    unset "recorded[$GPSD_DEFAULT]"

    if $purge; then
        rm -rf "$root$(dirname "$CONF")" "$root$LOGDIR"
        say "purged    $(dirname "$CONF") $LOGDIR"
        unset "recorded[$CONF]"
        if $user_created && ! $staged && getent passwd "$USER_NAME" >/dev/null; then
            userdel "$USER_NAME" && say "removed user $USER_NAME"
        fi
        user_created=false
        rm -f "$root$MANIFEST"
        rmdir "$root$(dirname "$MANIFEST")" 2>/dev/null || true
    else
        [ -e "$root$CONF" ] && say "kept      $CONF, $LOGDIR and user $USER_NAME (--purge removes them)"
        write_manifest
    fi
    reload_daemons
}

if [ "$mode" = install ]; then do_install; else do_uninstall; fi
