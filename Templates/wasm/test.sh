#!/bin/sh
# Builds the plugin, runs it through responder-bus on the sessions in sessions/, and runs
# the conformance checks on it: exit 0 when all pass. RESPONDER_BUS names another responder-bus
# (one built with the WebAssembly trait, on by default).
set -eu
cd "$(dirname "$0")"
RESPONDER_BUS=${RESPONDER_BUS:-__ResponderBusCommand__}
./build.sh
failed=0
# expect SESSION TEXT [TIMES]: the replay of sessions/SESSION.jsonl has TEXT on TIMES lines (1).
expect() {
    found=$("$RESPONDER_BUS" replay "sessions/$1.jsonl" --no-project-file --plugin __PluginName__.wasm --format jsonl | grep -cF "$2" || true)
    if [ "$found" = "${3:-1}" ]; then
        echo "✓ $1: $2 (${3:-1})"
    else
        echo "✗ $1: '$2' $found times, not ${3:-1}"
        failed=1
    fi
}
expect focused '"message":"the keyboard showed for '"'"'email'"'"'"'
expect unfocused '"message":"the keyboard showed for no field yet"'
# A log imported from a console: frame changes alone; the keyboard comes up twice.
expect imported '"message":"the keyboard showed for '"'"'email'"'"'"' 2
"$RESPONDER_BUS" check-plugin __PluginName__.wasm || failed=1
[ "$failed" = 0 ] && echo "all tests passed"
exit "$failed"
