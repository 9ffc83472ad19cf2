#!/bin/sh
# Builds __PluginName__.wasm with the Swift toolchain's clang (no SDK, no WASI). -fno-builtin keeps
# clang from turning a loop into a call to a C library function (strlen, memset) no module has.
set -eu
cd "$(dirname "$0")"
bin=$(dirname "$(readlink -f "${SWIFTC:-$(command -v swiftc)}")")
# Xcode's clang (/usr/bin's swiftc is its shim) has no wasm32 target: a swift.org toolchain's has.
if ! "$bin/clang" --print-targets 2>/dev/null | grep -q wasm32; then
    echo "$0: $bin/clang has no wasm32 target (Xcode's has none); use a swift.org toolchain: SWIFTC=<toolchain>/usr/bin/swiftc $0" >&2
    exit 69
fi
"$bin/clang" --target=wasm32 -nostdlib -fno-builtin -O2 -Wl,--no-entry -I . -o __PluginName__.wasm __PluginName__.c
echo "built __PluginName__.wasm"
