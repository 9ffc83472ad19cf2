#!/bin/sh
# Builds the plugin, runs it through responder-bus on the two sessions in sessions/, and runs
# the conformance checks on it: exit 0 when all pass. RESPONDER_BUS names another responder-bus
# (one built with the WebAssembly trait, on by default).
set -eu
cd "$(dirname "$0")"
RESPONDER_BUS=${RESPONDER_BUS:-__ResponderBusCommand__}
./build.sh
failed=0
expect() {
    if "$RESPONDER_BUS" replay "sessions/$1.jsonl" --no-project-file --plugin __PluginName__.wasm --format jsonl | grep -qF "$2"; then
        echo "✓ $1: $2"
    else
        echo "✗ $1: no '$2'"
        failed=1
    fi
}
expect focused '"message":"the keyboard showed for '"'"'email'"'"'"'
expect unfocused '"message":"the keyboard showed for no field yet"'
"$RESPONDER_BUS" check-plugin __PluginName__.wasm || failed=1
[ "$failed" = 0 ] && echo "all tests passed"
exit "$failed"
