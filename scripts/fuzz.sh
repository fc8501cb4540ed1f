#!/usr/bin/env bash
# scripts/fuzz.sh [TARGET] [--seconds N] [--ci] [--build-only] [--print-dict] — coverage-guided fuzzing
# (docs/fuzzing.md).
#
# Builds the libFuzzer targets of Fuzz/Targets/ with -sanitize=fuzzer,address (Swift) and
# -fsanitize=fuzzer-no-link,address (TOMLKit's bundled toml++), then runs each for N seconds
# (default 30) over its corpus Fuzz/corpus/<target>/ and dictionary Fuzz/dict/<target>.dict (for
# config, plus every table and key of docs/config-keys.md). --print-dict: print each target's
# dictionary as the run gives it to libFuzzer, and build and run nothing.
# TARGET: navdata | at | gpsd-json | config | mavlink | pave (default: all six, in that order).
#
# Prints per target: execs, execs/s, coverage (edges: libFuzzer's `cov:` at start and end) and findings.
# --ci: the reproducible run CI makes (scripts/test.sh): seed 1, a fresh scratch corpus, and a fixed
# number of executions per target (about 20 s each here) instead of a time budget, so CI executes
# exactly the inputs a local `scripts/fuzz.sh --ci` executed — a green local run means a green CI
# run; exploring for new bugs is the time-budget mode's job. (A slow machine is capped at 120 s per
# target, i.e. it runs a prefix of the same inputs.)
#
# Exit 0: no crash; 1: a target crashed (its input is saved as Fuzz/findings/<target>/crash-<sha1>);
# 2: usage error; 3: this toolchain cannot build libFuzzer targets (CI treats that as "skip").
#
# The build uses direct swiftc/clang++ calls (no SwiftPM: only the folders the fuzzed paths need are
# compiled, instrumented, without swift-nio). Nothing here touches
# the package's .build except reading its resolved checkouts of TOMLKit and swift-log.
#
# Environment: FUZZ_BUILD_DIR (default .build-fuzz: objects, binaries, run logs and each run's new
# corpus inputs — never the repo), FUZZ_JOBS (parallel compiles, default 2). This script does not
# nice itself: run it as `nice -n 19 scripts/fuzz.sh …` on a shared machine.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
all_targets=(navdata at gpsd-json config mavlink pave)
seconds=30
ci=0
build_only=0
print_dict_only=0
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="${2:-}"; shift 2 ;;
        --seconds=*) seconds="${1#--seconds=}"; shift ;;
        --build-only) build_only=1; shift ;;
        --ci) ci=1; shift ;;
        --print-dict) print_dict_only=1; shift ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        navdata|at|gpsd-json|config|mavlink|pave) targets+=("$1"); shift ;;
        *) echo "fuzz.sh: unknown argument '$1' (targets: ${all_targets[*]})" >&2; exit 2 ;;
    esac
done
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "fuzz.sh: --seconds needs a positive integer" >&2; exit 2; }
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

# The dictionary libFuzzer runs TARGET with, on stdout: Fuzz/dict/TARGET.dict, and for config also one
# entry per table and key of the key table, read from docs/config-keys.md (generated from ConfigKeys.all;
# a test fails while it is stale), so a new key reaches the fuzzer with no second list to keep.
print_dict() {  # TARGET
    if [[ -f "$root/Fuzz/dict/$1.dict" ]]; then cat "$root/Fuzz/dict/$1.dict"; fi
    if [[ "$1" == config ]]; then
        sed -nE -e 's/^## \[([a-z_]+)\]$/table_\1="[\1]"/p' -e 's/^\| `([a-z_]+)` \|.*$/key_\1="\1 ="/p' \
            "$root/docs/config-keys.md" | LC_ALL=C sort -u
    fi
}
if [[ $print_dict_only -eq 1 ]]; then
    for target in "${targets[@]}"; do print_dict "$target"; done
    exit 0
fi

build="${FUZZ_BUILD_DIR:-$root/.build-fuzz}"
mkdir -p "$build/obj" "$build/bin" "$build/runs"
build="$(cd "$build" && pwd)"
obj="$build/obj"

swiftc_path="$(command -v swiftc)" || { echo "fuzz.sh: no swiftc on PATH" >&2; exit 3; }
toolchain="$(dirname "$(dirname "$(readlink -f "$swiftc_path")")")"
clangxx="$toolchain/bin/clang++"
[[ -x "$clangxx" ]] || clangxx="$(command -v clang++ || true)"
if ! ls "$toolchain"/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 \
   && ! ls "$toolchain"/lib/swift/clang/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
    echo "fuzz.sh: this toolchain ships no libFuzzer runtime (libclang_rt.fuzzer): skipping" >&2; exit 3
fi
[[ -n "$clangxx" ]] || { echo "fuzz.sh: no clang++ for toml++: skipping" >&2; exit 3; }

# Dependency sources: the package's resolved checkouts (resolved once if missing, e.g. a fresh clone).
checkouts="$root/.build/checkouts"
if [[ ! -d "$checkouts/TOMLKit" || ! -d "$checkouts/swift-log" ]]; then
    (cd "$root" && swift package resolve >&2)
fi
tomlkit="$checkouts/TOMLKit/Sources"
swiftlog="$checkouts/swift-log/Sources/Logging"

jobs="${FUZZ_JOBS:-2}"
swift_flags=(-parse-as-library -wmo -O -g -package-name followme -sanitize=fuzzer,address -I "$obj" -I "$root/Sources/CGPS"
             -Xcc -I"$tomlkit/CTOML/include")
cxx_flags=(-std=c++17 -DTOML_EXCEPTIONS=1 -O1 -g -fPIC -fsanitize=fuzzer-no-link,address
           -I"$tomlkit/CTOML/include" -I"$tomlkit/CTOML/Sources")

# Rebuilds OUTPUT from INPUTS only when their contents (or the flags) changed.
stamp_of() {  # ARG...: files are hashed by content, other arguments (flags) as text
    { printf '%s\n' "$@"; local f; for f in "$@"; do [[ -f "$f" ]] && cat "$f"; done; true; } | sha1sum | cut -c1-40
}
up_to_date() {  # NAME STAMP
    [[ -f "$obj/$1.stamp" && "$(cat "$obj/$1.stamp")" == "$2" ]]
}

# 1. Swift modules in dependency order (each: one instrumented object + its .swiftmodule).
chain=""  # the stamps of everything built so far: a changed dependency rebuilds its dependants
ours=(-swift-version 6 -enable-upcoming-feature ExistentialAny)  # the package's `strict` settings
swift_module() {  # NAME "LANGUAGE FLAGS" SOURCE_DIR...
    local name="$1" language=($2); shift 2
    local sources=()
    # The fuzz build has no swift-nio: a file that imports it (e.g. ShellSupport's UDP socket helper for
    # the drone links) is left out; no fuzzed path reaches it, and a module that needs it fails to compile.
    mapfile -t sources < <(find "$@" -name '*.swift' -not -path '*.docc*' -print0 | xargs -0 grep -L '^import NIO' | LC_ALL=C sort)
    local stamp; stamp="$(printf '%s %s\n' "$chain" "$(stamp_of "${sources[@]}" "${swift_flags[*]} ${language[*]}")" | sha1sum | cut -c1-40)"
    chain="$stamp"
    up_to_date "$name" "$stamp" && return 0
    echo "fuzz.sh: compiling $name (${#sources[@]} files)" >&2
    swiftc "${swift_flags[@]}" "${language[@]}" -module-name "$name" -emit-module \
        -emit-module-path "$obj/$name.swiftmodule" -c "${sources[@]}" -o "$obj/$name.o"
    echo "$stamp" > "$obj/$name.stamp"
}
cxx_module() {  # NAME SOURCE_DIR
    local name="$1" dir="$2" sources=()
    mapfile -t sources < <(find "$dir" -name '*.cpp' | LC_ALL=C sort)
    local stamp; stamp="$(stamp_of "${sources[@]}" "$dir"/*.hpp "${cxx_flags[*]}")"
    chain="$(printf '%s %s\n' "$chain" "$stamp" | sha1sum | cut -c1-40)"
    up_to_date "$name" "$stamp" && return 0
    echo "fuzz.sh: compiling $name (${#sources[@]} C++ files, toml++ instrumented)" >&2
    local pids=() i=0 src
    rm -f "$obj/$name".*.o
    for src in "${sources[@]}"; do
        "$clangxx" "${cxx_flags[@]}" -c "$src" -o "$obj/$name.$i.o" & pids+=($!)
        i=$((i + 1))
        if (( ${#pids[@]} >= jobs )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    echo "$stamp" > "$obj/$name.stamp"
}

# A module that holds more than the fuzzed paths is compiled from the folders they need only, under
# its own name (docs/architecture.md §1), so the targets' `import Simulation` / `import Links` work.
# A drone family's pure module is its folder without the parts compiled into shell modules (Package.swift's `familyParts`).
family_pure() {  # FAMILY: the files and folders of its pure module
    find "$root/Sources/$1" -mindepth 1 -maxdepth 1 -not -name Link -not -name Service -not -name Simulation -not -name Drone | LC_ALL=C sort
}
mapfile -t ardrone_pure < <(family_pure ARDrone)
mapfile -t mavlink_pure < <(family_pure MAVLink)
swift_module FollowCore "${ours[*]}" "$root/Sources/FollowCore"
swift_module ARDrone "${ours[*]}" "${ardrone_pure[@]}"
swift_module MAVLink "${ours[*]}" "${mavlink_pure[@]}"
swift_module Logging "-swift-version 6" "$swiftlog"
swift_module Links "${ours[*]}" "$root/Sources/Links/Support" "$root/Sources/Links/GPS"
swift_module FlightRecords "${ours[*]}" "$root/Sources/FlightRecords/TextFormats"
cxx_module CTOML "$tomlkit/CTOML/Sources"
swift_module TOMLKit "-swift-version 5" "$tomlkit/TOMLKit"
swift_module FlightService "${ours[*]}" "$root/Sources/FlightService/Config"
swift_module Simulation "${ours[*]}" "$root/Sources/Simulation/Fuzzing"

# 2. One libFuzzer executable per target (all objects linked; the linker keeps what is used).
objects=("$obj"/*.o)
for target in "${targets[@]}"; do
    src="$root/Fuzz/Targets/$target.swift"
    stamp="$(printf '%s %s\n' "$chain" "$(stamp_of "$src")" | sha1sum | cut -c1-40)"
    up_to_date "bin-$target" "$stamp" && [[ -x "$build/bin/fuzz-$target" ]] && continue
    echo "fuzz.sh: linking fuzz-$target" >&2
    # ld.gold's "Cannot export local symbol" warnings for the Swift objects are harmless.
    swiftc "${swift_flags[@]}" "${ours[@]}" -module-name "FuzzTarget_${target//-/_}" "$src" "${objects[@]}" \
        -lgps -lstdc++ -o "$build/bin/fuzz-$target" 2> >(grep -v 'Cannot export local symbol' >&2)
    echo "$stamp" > "$obj/bin-$target.stamp"
done
[[ $build_only -eq 1 ]] && exit 0

# 3. Run each target for the budget: repo corpus (read only) + a scratch corpus for new inputs.
status=0
summary=()
for target in "${targets[@]}"; do
    run_dir="$build/runs/$target"
    scratch="$run_dir/corpus"
    budget=(-max_total_time="$seconds")
    if [[ $ci -eq 1 ]]; then
        # Executions per target: ~20 s each on the 2-vCPU development machine (docs/fuzzing.md).
        case "$target" in
            navdata|at) runs=1000000 ;;
            mavlink) runs=100000 ;;
            pave) runs=100000 ;;
            gpsd-json) runs=400000 ;;
            config) runs=40000 ;;
        esac
        scratch="$run_dir/ci-$(date -u +%Y%m%dT%H%M%SZ)-$$"
        budget=(-seed=1 -runs="$runs" -max_total_time=120)
    fi
    mkdir -p "$run_dir" "$scratch" "$root/Fuzz/findings/$target"
    log="$run_dir/$(date -u +%Y%m%dT%H%M%SZ).log"
    dict=()
    print_dict "$target" > "$run_dir/$target.dict"
    [[ -s "$run_dir/$target.dict" ]] && dict=(-dict="$run_dir/$target.dict")
    max_len=4096 rss_mb=1536
    # config: longer documents; TOMLKit 0.6.0 never frees a parsed document (docs/fuzzing.md §7), so
    # memory grows ~1.5 MB/s at ~900 execs/s: room for a 30-min run before libFuzzer's RSS limit.
    [[ "$target" == config ]] && max_len=16384 rss_mb=6144
    echo "fuzz.sh: running $target: ${budget[*]} (log: $log)" >&2
    started=$(date +%s)
    set +e
    # SWIFT_BACKTRACE=enable=no: the Swift runtime's backtracer hangs under ASan after a trap; libFuzzer
    # prints the stack itself. detect_leaks=0: TOMLKit leaks on every parse error (docs/fuzzing.md).
    (cd "$run_dir" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}" \
        "$build/bin/fuzz-$target" "${dict[@]}" -max_len="$max_len" -timeout=10 -rss_limit_mb="$rss_mb" \
        "${budget[@]}" -print_final_stats=1 \
        -artifact_prefix="$root/Fuzz/findings/$target/" \
        "$scratch" "$root/Fuzz/corpus/$target") >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(( $(date +%s) - started ))
    start_cov="$(grep -m1 -E '#[0-9]+[[:space:]]+INITED' "$log" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')"
    end_cov="$(grep -E '#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED)' "$log" | tail -1 | sed -nE 's/.*cov: ([0-9]+).*/\1/p')"
    execs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)"
    rate="$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -1)"
    crashes="$(grep -cE '^(==[0-9]+==ERROR|Fatal error|.*deadly signal|SUMMARY: (Address|Undefined)Sanitizer)' "$log" || true)"
    finding="$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -1)"
    verdict="0 findings"
    if [[ $rc -eq 72 ]] && grep -q 'libFuzzer: run interrupted' "$log"; then
        status=1
        verdict="interrupted"
    elif [[ $rc -ne 0 ]]; then
        status=1
        verdict="CRASH (rc $rc): ${finding:-see $log}"
        grep -m3 -E 'Fatal error|ERROR: AddressSanitizer|SUMMARY' "$log" >&2 || true
    fi
    line="$(printf '%-10s %6ss  execs %10s  execs/s %7s  cov %5s -> %-5s  %s' "$target" "$elapsed" \
        "${execs:-?}" "${rate:-?}" "${start_cov:-?}" "${end_cov:-?}" "$verdict")"
    [[ "$crashes" -gt 0 && $rc -eq 0 ]] && line+=" (sanitizer reports in log)"
    summary+=("$line")
    echo "$line"
done
echo "fuzz.sh summary ($(date -u +%Y-%m-%dT%H:%MZ)):"
printf '  %s\n' "${summary[@]}"
exit $status
