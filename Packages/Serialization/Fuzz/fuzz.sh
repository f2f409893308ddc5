#!/usr/bin/env bash
# Builds the libFuzzer target for the Serialization readers and runs it.
#   Packages/Serialization/Fuzz/fuzz.sh [seconds]      (default 60)
# The binary and corpus live under .build/fuzz-serialization/ at the repository root.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
seconds="${1:-60}"
out="$root/.build/fuzz-serialization"
mkdir -p "$out/corpus"
flags=(-O -parse-as-library -sanitize=fuzzer,address -wmo -I "$out")
swiftc "${flags[@]}" -module-name Errors -emit-module -emit-module-path "$out/Errors.swiftmodule" \
    -c "$root"/Packages/Errors/Sources/Errors/*.swift -o "$out/Errors.o"
swiftc "${flags[@]}" -module-name Serialization -emit-module -emit-module-path "$out/Serialization.swiftmodule" \
    -c $(find "$root/Packages/Serialization/Sources/Serialization" -name '*.swift' | sort) -o "$out/Serialization.o"
swiftc "${flags[@]}" -module-name FuzzSerialization "$root/Packages/Serialization/Fuzz/FuzzSerialization.swift" \
    "$out/Errors.o" "$out/Serialization.o" -o "$out/fuzz-serialization"
cp -n "$root"/Packages/Serialization/Fuzz/Seeds/* "$out/corpus/" 2>/dev/null || true
"$out/fuzz-serialization" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10
