#!/bin/sh
# Instruction counts of the replay and of the one-observer post, the numbers speed work is judged
# by (they do not move with the machine's pace, as times do). Builds the command and the benchmarks
# in release mode (as run.sh does), makes the 100,000-event logs, and runs each case under callgrind.
#
# Then the records of the first log replayed from memory, fast and pushed into a live replay.
#
# For each log: the loop's own work (the bus and the plugins: the loop thread's count without the
# reading and writing it took over from the helper thread, see below), the helper thread's count
# and the whole replay's; then profile-post's count (200,000 posts to one observer,
# BusBenchmarks_main inclusive).
#
# Callgrind runs one thread at a time, so the helper thread, which reads the log ahead and writes
# the output behind, is often not running when the loop wants its next batch or has a batch of
# output to hand over; the loop then does that work itself (HelperThread lets it, rather than
# wait). What it read and wrote is the inclusive count of ReadAhead.Batch.read and of the output's
# writing (BackgroundWriterState) on its thread, named mangled as the stripped binary names them,
# and is subtracted here. How the two threads shared that work changes from run to run; the loop's
# own work moves with it by about 1 % (its waits and hand-offs), the whole replay's by under 0.1 %.
#
# Usage: Benchmarks/callgrind.sh   (needs valgrind; valgrind 3.19 cannot read Swift 6.3's DWARF 5,
# so the binaries measured are copies with their debug information stripped)
set -eu
# Linux only: valgrind (apt-get install valgrind) does not run on current macOS, and the replay's
# counts are glibc's and the Linux kernel's.
if ! command -v valgrind >/dev/null 2>&1; then
  echo "callgrind.sh: needs valgrind (Debian: apt-get install -y valgrind), which runs on Linux only" >&2
  exit 1
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out="$here/.build"
work="$out/callgrind"
mkdir -p "$work"
echo "building (release)…" >&2
swift build -c release --package-path "$root" --scratch-path "$root/.build-bench-release" --product responder-bus --traits WebAssembly >&2
swift build -c release --disable-build-manifest-caching --package-path "$here" --scratch-path "$out" >&2
cp "$root/.build-bench-release/release/responder-bus" "$work/responder-bus"
strip -g "$work/responder-bus"
# BusBenchmarks links the package's libraries from its own folder: the stripped copy stays beside it.
cp "$out/release/BusBenchmarks" "$out/release/BusBenchmarks-stripped"
strip -g "$out/release/BusBenchmarks-stripped"
[ -f "$out/log-100000.jsonl" ] || python3 "$here/gen_log.py" 100000 "$out/log-100000.jsonl"
[ -f "$out/log-100000-distinct.jsonl" ] || python3 "$here/gen_log.py" 100000 "$out/log-100000-distinct.jsonl" distinct

# Prints a count in millions.
millions() { awk -v n="$1" 'BEGIN { printf "%.1fM", n / 1e6 }'; }
# The total of a callgrind output file.
total() { grep -m1 -E '^(summary|totals):' "$1" | awk '{ print $2 }'; }
# A function's inclusive count in a callgrind output file (0 when it is not there).
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null | grep -m1 -F "$2" | awk '{ gsub(",", "", $1); print $1 + 0 }' || echo 0
}

echo "| log (100,000 events) | loop's own work | helper thread | whole replay |"
echo "|---|---|---|---|"
for log in log-100000 log-100000-distinct; do
  rm -f "$work/$log".*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/$log.%p" \
    "$work/responder-bus" replay "$out/$log.jsonl" --format jsonl >/dev/null 2>"$work/$log.err"
  loop=$(ls "$work/$log".*-01)
  helper=$(ls "$work/$log".*-02)
  # The two are named by their mangled names: if a rename loses one, say so rather than count
  # the helper's work as the loop's own (one of the threads always runs each).
  for symbol in '9ReadAheadC5BatchC4read_8capacity' '21BackgroundWriterState'; do
    if ! cat "$loop" "$helper" | grep -q -F "$symbol"; then
      echo "callgrind.sh: no function named like $symbol was run; update the name in this script" >&2
      exit 1
    fi
  done
  read=$(inclusive "$loop" '9ReadAheadC5BatchC4read_8capacity')
  written=$(inclusive "$loop" '21BackgroundWriterState')
  loopTotal=$(total "$loop")
  helperTotal=$(total "$helper")
  own=$((loopTotal - read - written))
  case $log in *distinct) name="every event its own turn" ;; *) name="events sharing turns" ;; esac
  echo "| $name | $(millions "$own") | $(millions "$helperTotal") | $(millions $((loopTotal + helperTotal))) |"
done

valgrind --tool=callgrind --callgrind-out-file="$work/post" "$out/release/BusBenchmarks-stripped" - - - "$work/post.json" profile-post \
  >/dev/null 2>"$work/post.err"
echo
echo "profile-post (200,000 posts to one observer): $(millions "$(inclusive "$work/post" 'BusBenchmarks_main')")"

# The 100,000-event log's records replayed from memory through the built-ins: as fast as possible,
# and pushed into a live replay 256 at a time (issue 45: at most 1.2x the fast replay's count).
events=$(($(wc -l <"$out/log-100000.jsonl") - 1))
for mode in records push; do
  valgrind --tool=callgrind --callgrind-out-file="$work/$mode" "$out/release/BusBenchmarks-stripped" - - "$out/log-100000.jsonl" \
    "$work/$mode.json" "profile-$mode" >/dev/null 2>"$work/$mode.err"
done
fast=$(inclusive "$work/records" 'replayRecordsFast')
pushed=$(inclusive "$work/push" 'replayRecordsPushed')
if [ "$fast" -eq 0 ] || [ "$pushed" -eq 0 ]; then
  echo "callgrind.sh: replayRecordsFast or replayRecordsPushed was not found; update the names in this script" >&2
  exit 1
fi
echo "records from memory, $events events: fast $(millions "$fast") ($((fast / events)) per event), pushed live $(millions "$pushed") ($((pushed / events)) per event): $(awk -v p="$pushed" -v f="$fast" 'BEGIN { printf "%.2f", p / f }')x"
