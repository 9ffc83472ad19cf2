#!/bin/sh
# build.sh — builds an Embedded Swift ResponderBus plugin into a WebAssembly module, with the Swift
# toolchain alone (swiftc, clang and wasm-ld from the same usr/bin; no SDK, no WASI).
#
#   PluginKits/swift-wasm/build.sh PluginFile.swift Output.wasm [more.swift …]
#
# The plugin file (and any more files after the output) is compiled with this kit's
# ResponderBusPlugin.swift as one module; runtime.c gives the C symbols the standard library asks
# for. Set SWIFTC to use another swiftc; the temporary objects go to a directory of their own.
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 PluginFile.swift Output.wasm [more.swift ...]" >&2
    exit 64
fi
plugin=$1
output=$2
shift 2

kit=$(cd "$(dirname "$0")" && pwd)
swiftc=${SWIFTC:-$(command -v swiftc)} || { echo "$0: no swiftc on PATH (set SWIFTC)" >&2; exit 69; }
bin=$(dirname "$(readlink -f "$swiftc")")
toolchain=$(dirname "$(dirname "$bin")")
clang=$bin/clang
wasm_ld=$bin/wasm-ld
unicode=$toolchain/usr/lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a
for tool in "$clang" "$wasm_ld"; do
    [ -x "$tool" ] || { echo "$0: $tool is missing; a toolchain with Embedded Swift for WebAssembly has it" >&2; exit 69; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rb-swift-wasm.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The plugin and the kit: one module, whole-module, optimised for size. Extern: the
# @_extern(wasm) imports; no stack protector (there is no libc to supply its guard).
"$swiftc" -target wasm32-unknown-none-wasm \
    -enable-experimental-feature Embedded -enable-experimental-feature Extern \
    -swift-version 6 -wmo -Osize -parse-as-library -Xfrontend -disable-stack-protector \
    -module-name Plugin \
    "$kit/ResponderBusPlugin.swift" "$plugin" "$@" \
    -c -o "$work/plugin.o"

"$clang" --target=wasm32 -O2 -ffreestanding -fno-builtin -nostdlib \
    -c "$kit/runtime.c" -o "$work/runtime.o"

# Only the ABI's entry points are exported (and the memory, which wasm-ld exports as "memory");
# everything the plugin does not reach is dropped. The Unicode tables are linked only if the
# plugin compares or normalises strings in ways that need them.
"$wasm_ld" --no-entry --gc-sections --strip-all \
    --export=rb_abi_version --export=rb_init --export=rb_event_buffer --export=rb_on_event \
    "$work/plugin.o" "$work/runtime.o" ${unicode:+$( [ -f "$unicode" ] && echo "$unicode")} \
    -o "$output"

echo "$output: $(wc -c < "$output" | tr -d ' ') bytes"
