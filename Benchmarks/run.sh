#!/bin/sh
# One command for every ResponderBus benchmark: builds in release mode, generates the logs, and
# prints a table of every case with its baseline and the ratio; raw results go to
# Benchmarks/.build/results.json. Usage: Benchmarks/run.sh [sync,cross,replay,scale,corpus,external,wasm,explore]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out="$here/.build"
mkdir -p "$out"
python3 -c 'import orjson' 2>/dev/null || pip install orjson
echo "building (release)…" >&2
swift build -c release --package-path "$root" --scratch-path "$root/.build-bench-release" --product responder-bus --traits WebAssembly >&2
cli="$root/.build-bench-release/release/responder-bus"
# Without manifest caching, SwiftPM notices files added to the main package since the last build.
swift build -c release --disable-build-manifest-caching --package-path "$here" --scratch-path "$out" >&2
[ -f "$out/log-1000000.jsonl" ] || python3 "$here/gen_log.py" 1000000 "$out/log-1000000.jsonl"
[ -f "$out/log-100000.jsonl" ] || python3 "$here/gen_log.py" 100000 "$out/log-100000.jsonl"
# The same events, each at a time of its own (one loop turn each), as most real recordings are.
[ -f "$out/log-1000000-distinct.jsonl" ] || python3 "$here/gen_log.py" 1000000 "$out/log-1000000-distinct.jsonl" distinct
"$out/release/BusBenchmarks" "$cli" "$out/log-1000000.jsonl" "$out/log-100000.jsonl" "$out/results.json" "${1:-sync,cross,replay,scale,corpus,external,wasm,explore}"
