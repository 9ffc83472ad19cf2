#!/usr/bin/env bash
# Builds the libFuzzer targets of .fuzz/ and fuzzes the EventLog reader and the console importer.
#
#   bash .fuzz/run.sh SECONDS
#
# Each fuzzer (FuzzLogReader, FuzzImporter) runs for the full SECONDS, both at the same time, one core
# each, so the run takes about SECONDS plus the build (about 90 s from scratch, a few seconds after).
# FUZZ_SEQUENTIAL=1 runs them one after the other instead (2 × SECONDS; for a single-core machine).
#
# The targets are built with `-c release` (still with ASan and every Swift runtime check: -O keeps
# bounds, overflow and precondition checks): it runs 5–7 times as many inputs a second as `-c debug`
# (measured: 3,000 inputs in 2.1 s against 13.8 s for the reader, 5.4 s against 23.2 s for the
# importer). FUZZ_CONFIG=debug builds and runs the debug configuration instead.
#
# Inputs: the committed seeds in .fuzz/corpus/{reader,importer}/ (never written to) and what earlier
# runs found in .fuzz/.work/corpus/{reader,importer}/ (gitignored), where new inputs go. Dictionaries
# of the formats' tokens: .fuzz/dict/. Inputs are at most 65536 bytes (-max_len); one input taking
# more than 30 s is reported as a hang (-timeout).
#
# Exit status: 0 when both fuzzers ran clean; 1 when one found a crash, a hang or a leak (the input
# is saved under .fuzz/.work/artifacts/<target>/ and its path, the stack and the commands to
# reproduce and minimize it are printed); 2 when the build failed; 64 on bad usage.
#
# Needs libFuzzer (`-sanitize=fuzzer`): a swift.org toolchain has it on Linux and macOS; Xcode's
# toolchain does not. Written for bash 3.2 (macOS's /bin/bash).
# Logs: .fuzz/.work/logs/. The build uses only the scratch path .fuzz/.build.
set -uo pipefail

duration=${1:-}
if [[ $# -ne 1 || ! $duration =~ ^[0-9]+$ || $duration -eq 0 ]]; then
  echo "usage: bash .fuzz/run.sh SECONDS   (each fuzzer runs for SECONDS, e.g. 60)" >&2
  exit 64
fi

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
fuzz=.fuzz
work=$fuzz/.work
mkdir -p "$work/logs" || exit 2

# libFuzzer's own main is replaced by a shim (TOOLCHAIN-NOTES §4); Swift's crash backtracer would
# trip ASan and hide the real error, so it is off for every run and every reproducer.
export SWIFT_BACKTRACE=enable=no

config=${FUZZ_CONFIG:-release}
if [[ $config != release && $config != debug ]]; then
  echo "fuzz: FUZZ_CONFIG must be release or debug, not '$config'" >&2
  exit 64
fi
echo "fuzz: building the fuzz targets ($config, -sanitize=fuzzer,address, scratch path $fuzz/.build)"
build=(swift build --disable-build-manifest-caching --package-path "$fuzz" -c "$config" -Xswiftc -sanitize=fuzzer,address --scratch-path "$fuzz/.build")
"${build[@]}" >"$work/logs/build.log" 2>&1
build_status=$?
# ld.gold's "Cannot export local symbol '__asan_…'" lines are harmless (TOOLCHAIN-NOTES §4); show
# anything else that is a warning or an error.
grep -v "Cannot export local symbol" "$work/logs/build.log" | grep -E "warning:|error:" | sort -u
if [[ $build_status -ne 0 ]]; then
  echo "fuzz: the build failed (exit $build_status); the log is $work/logs/build.log:"
  grep -v "Cannot export local symbol" "$work/logs/build.log" | tail -n 40
  exit 2
fi
bin=$("${build[@]}" --show-bin-path 2>/dev/null) || exit 2

targets=(FuzzLogReader:reader FuzzImporter:importer)
marker=$work/.run-start
touch "$marker"

# Seeds read besides .fuzz/corpus/NAME (never written to): the importer starts from every real
# console dump, view-hierarchy dump and UI-test dump the tests use.
fixtures() { # corpus-name
  if [[ $1 == importer ]]; then echo "Tests/Fixtures/ios-logs Tests/Fixtures/hierarchy-dumps Tests/Fixtures/console-shapes"; fi
}

run_one() { # executable corpus-name
  local exe=$1 name=$2
  mkdir -p "$work/corpus/$name" "$work/artifacts/$name"
  # shellcheck disable=SC2086 # the fixture folders are a list
  "$bin/$exe" \
    -max_total_time="$duration" -max_len=65536 -timeout=30 -print_final_stats=1 \
    -dict="$fuzz/dict/$name.dict" -artifact_prefix="$work/artifacts/$name/" \
    "$work/corpus/$name" "$fuzz/corpus/$name" $(fixtures "$name") >"$work/logs/$name.log" 2>&1
}

# Each target's exit status and process id, by its index in `targets` (bash 3.2: no associative arrays).
status=()
pids=()
if [[ ${FUZZ_SEQUENTIAL:-0} == 1 ]]; then
  for index in "${!targets[@]}"; do
    target=${targets[$index]}
    echo "fuzz: running ${target%%:*} for $duration s"
    run_one "${target%%:*}" "${target#*:}"
    status[$index]=$?
  done
else
  echo "fuzz: running ${targets[*]%%:*} for $duration s each, in parallel"
  for index in "${!targets[@]}"; do
    target=${targets[$index]}
    run_one "${target%%:*}" "${target#*:}" &
    pids[$index]=$!
  done
  for index in "${!targets[@]}"; do
    wait "${pids[$index]}"
    status[$index]=$?
  done
fi

overall=0
for index in "${!targets[@]}"; do
  target=${targets[$index]}
  exe=${target%%:*} name=${target#*:}
  log=$work/logs/$name.log
  # The last progress line: "#123456 DONE cov: 1234 ft: 5678 corp: 345/12Kb lim: 65536 exec/s: 2057 rss: 512Mb".
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  summary="${runs:-?} runs (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} (${new:-?} new)"
  if [[ ${status[$index]} -eq 0 ]]; then
    echo "fuzz: $exe: clean: $summary"
    continue
  fi
  overall=1
  echo "fuzz: $exe: FAILED (exit ${status[$index]}) after $summary; the log is $log"
  # The report: from the first error line to the end of the log.
  first=$(grep -n -m 1 -E 'Fatal error|==[0-9]+==ERROR|ERROR: libFuzzer|ALARM: working on the last Unit|out-of-memory|LeakSanitizer' "$log" | cut -d: -f1)
  tail -n +"${first:-1}" "$log" | head -n 120 | sed 's/^/    /'
  find "$work/artifacts/$name" -type f -newer "$marker" | while read -r artifact; do
    echo "fuzz: $exe: the input is $artifact"
    echo "  reproduce: SWIFT_BACKTRACE=enable=no $bin/$exe $artifact"
    echo "  see it:    FUZZ_VERBOSE=1 SWIFT_BACKTRACE=enable=no $bin/$exe $artifact"
    echo "  minimize:  SWIFT_BACKTRACE=enable=no $bin/$exe -minimize_crash=1 -max_total_time=120 -exact_artifact_path=$fuzz/crashes/$name-$(basename "$artifact") $artifact"
  done
done
exit $overall
