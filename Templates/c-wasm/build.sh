#!/bin/sh
# Builds __PluginName__.wasm with the Swift toolchain's clang (no SDK, no WASI).
set -eu
cd "$(dirname "$0")"
bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
"$bin/clang" --target=wasm32 -nostdlib -O2 -Wl,--no-entry -I . -o __PluginName__.wasm __PluginName__.c
echo "built __PluginName__.wasm"
