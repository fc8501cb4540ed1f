#!/usr/bin/env bash
# Builds the Debian packages followme_VERSION_ARCH.deb and followme-tools_VERSION_ARCH.deb for this
# machine's architecture (dpkg --print-architecture: amd64, arm64, ...), from this checkout
# (docs/packaging.md):
#
#   scripts/build-deb.sh [--out DIR]        # default DIR: out/deb
#
# One static release build (swift build -c release --static-swift-stdlib: the Swift runtime is linked
# in, libgps and glibc stay shared), in the scratch path .build-deb (FOLLOWME_DEB_SCRATCH overrides),
# of followme, followme-tools and swift-argument-parser's generate-manual (the man page writer); then
# debhelper lays the files out (debian/rules → scripts/package-files.sh) and builds the .debs.
# Prints the paths of the packages, one per line, on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/deb
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
        *) echo "build-deb.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
scripts/ensure-deps.sh --package >&2
mkdir -p "$out"
out=$(cd "$out" && pwd)

scratch=${FOLLOWME_DEB_SCRATCH:-.build-deb}
args=(-c release --static-swift-stdlib --scratch-path "$scratch")
for product in followme followme-tools generate-manual; do
    echo "build-deb: swift build ${args[*]} --product $product" >&2
    swift build "${args[@]}" --product "$product" >&2
done
bin_dir=$(swift build "${args[@]}" --show-bin-path)

# The package's version is debian/changelog's; it must be the one the binary reports.
version=$(dpkg-parsechangelog -S Version)
binary_version=$("$bin_dir/followme" --version)
if [ "${version%%-*}" != "$binary_version" ]; then
    echo "build-deb: debian/changelog says $version, followme --version says $binary_version: add a changelog entry (dch -v $binary_version)" >&2
    exit 1
fi

arch=$(dpkg --print-architecture)
echo "build-deb: packaging followme $version for $arch" >&2
# debian/rules reads both.
FOLLOWME_BIN_DIR=$(cd "$bin_dir" && pwd)
export FOLLOWME_BIN_DIR FOLLOWME_DEB_OUT=$out
# Not dpkg-buildpackage: it writes .changes/.buildinfo into the checkout's parent directory, and
# checks Build-Depends that the Swift toolchain (no Debian package) cannot satisfy.
debian/rules clean >&2
debian/rules binary >&2
debian/rules clean >&2
for package in followme followme-tools; do
    deb=$out/${package}_${version}_${arch}.deb
    [ -f "$deb" ] || { echo "build-deb: $deb was not built" >&2; exit 1; }
    echo "$deb"
done
