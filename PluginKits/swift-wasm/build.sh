#!/bin/sh
# build.sh — builds an Embedded Swift ResponderBus plugin into a WebAssembly module with the Swift
# toolchain alone: swiftc, and the clang and wasm-ld beside it (no SDK, no WASI).
#
#   PluginKits/swift-wasm/build.sh PluginFile.swift Output.wasm [more.swift ...]
#
# The plugin file (and any more files after the output) is compiled with the kit's
# ResponderBusPlugin.swift as one module; runtime.c supplies the C symbols the standard library
# asks for. Environment:
#   SWIFTC=path      the swiftc to use (default: the one on PATH); clang and wasm-ld are taken
#                    from its directory.
#   KEEP_NAMES=1     keep the name section, so that a trap's backtrace names the Swift functions
#                    (mangled; pipe through `swift demangle`). About 20% larger.
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 PluginFile.swift Output.wasm [more.swift ...]" >&2
    exit 64
fi
# Absolute paths: swiftc runs in the work directory (see below).
absolute() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
plugin=$(absolute "$1")
output=$2
shift 2
sources=
for file in "$@"; do sources="$sources$(absolute "$file")
"; done

kit=$(cd "$(dirname "$0")" && pwd)
swiftc=${SWIFTC:-$(command -v swiftc || true)}
if [ -z "$swiftc" ]; then
    echo "$0: no swiftc on PATH; set SWIFTC to the toolchain's swiftc" >&2
    exit 69
fi
swiftc=$(absolute "$swiftc")
bin=$(dirname "$(readlink -f "$swiftc")")
clang=$bin/clang
wasm_ld=$bin/wasm-ld
unicode=$bin/../lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a
for tool in "$clang" "$wasm_ld"; do
    if [ ! -x "$tool" ]; then
        echo "$0: $tool is missing; a Swift toolchain with Embedded Swift for WebAssembly has it" >&2
        exit 69
    fi
done
# Xcode's clang and swiftc (/usr/bin's are its shims) have no wasm32 target: a swift.org toolchain
# does (on macOS, install one and select it: `export TOOLCHAINS=swift`, or SWIFTC=its usr/bin/swiftc).
if ! "$clang" --print-targets 2>/dev/null | grep -q wasm32; then
    echo "$0: $clang has no wasm32 target (Xcode's has none); use a swift.org toolchain: SWIFTC=<toolchain>/usr/bin/swiftc" >&2
    exit 69
fi
strip=--strip-all
if [ "${KEEP_NAMES:-0}" = 1 ]; then strip=--strip-debug; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rb-swift-wasm.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The plugin and the kit as one module: whole-module, optimised for size, Swift 6 language mode.
# Extern: the @_extern(wasm) imports. No stack protector: there is no libc to give its guard.
# Compiled in the work directory to a relative plugin.o: the module hash swiftc stores in the
# object depends on the output's path, and the same sources should make the same bytes.
set -f
IFS='
'
set -- $sources
unset IFS
set +f
(
    cd "$work"
    "$swiftc" -target wasm32-unknown-none-wasm \
        -enable-experimental-feature Embedded -enable-experimental-feature Extern \
        -swift-version 6 -wmo -Osize -parse-as-library -Xfrontend -disable-stack-protector \
        -module-name Plugin \
        "$kit/ResponderBusPlugin.swift" "$plugin" "$@" \
        -c -o plugin.o
)

"$clang" --target=wasm32 -O2 -ffreestanding -fno-builtin -nostdlib \
    -c "$kit/runtime.c" -o "$work/runtime.o"

# Exported: the ABI's four entry points, and the memory (wasm-ld exports it as "memory").
# Everything the plugin does not reach is dropped, runtime.c's functions included; the Unicode
# tables (an archive) come in only if the plugin compares or normalises non-ASCII strings.
set -- "$work/plugin.o" "$work/runtime.o"
if [ -f "$unicode" ]; then set -- "$@" "$unicode"; fi
"$wasm_ld" --no-entry --gc-sections "$strip" \
    --export=rb_abi_version --export=rb_init --export=rb_event_buffer --export=rb_on_event \
    "$@" -o "$output"

echo "$output: $(wc -c < "$output" | tr -d ' ') bytes"
