#!/bin/sh
# Builds __PluginName__.wasm with the Swift toolchain's clang (no SDK, no WASI). -fno-builtin keeps
# clang from turning a loop into a call to a C library function (strlen, memset) no module has.
set -eu
cd "$(dirname "$0")"
bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
"$bin/clang" --target=wasm32 -nostdlib -fno-builtin -O2 -Wl,--no-entry -I . -o __PluginName__.wasm __PluginName__.c
echo "built __PluginName__.wasm"
