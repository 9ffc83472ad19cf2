#!/bin/sh
# Builds __PluginName__.wasm from __PluginName__.swift and the kit with the Swift toolchain alone
# (Embedded Swift for wasm32-unknown-none-wasm; no SDK, no WASI).
set -eu
cd "$(dirname "$0")"
./kit-build.sh __PluginName__.swift __PluginName__.wasm
echo "built __PluginName__.wasm"
