#!/usr/bin/env bash
# Builds the libFuzzer target for the Serialization readers and writers (YAML included) and runs it.
#   Packages/Serialization/Fuzz/fuzz.sh [seconds]      (default 60)
# The binary and corpus live under .build/fuzz-serialization/ at the repository root; Yams comes
# from the package's own checkout (swift package resolve).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
seconds="${1:-60}"
out="$root/.build/fuzz-serialization"
package="$root/Packages/Serialization"
mkdir -p "$out/corpus" "$out/cyaml"
swift package --package-path "$package" resolve >/dev/null
yams="$package/.build/checkouts/Yams/Sources"
flags=(-O -parse-as-library -sanitize=fuzzer,address -wmo -I "$out")
yaml_flags=(-Xcc -DYAML_DECLARE_STATIC -Xcc -I"$yams/CYaml/include")
# Yams (with its C library) and Errors → Serialization do not need each other: each whole-module
# build runs on one core, so the two chains build side by side.
(
    for source in "$yams"/CYaml/src/*.c; do
        clang -O1 -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_STATIC -I "$yams/CYaml/include" \
            -c "$source" -o "$out/cyaml/$(basename "$source" .c).o"
    done
    swiftc "${flags[@]}" "${yaml_flags[@]}" -DSWIFT_PACKAGE -module-name Yams -emit-module \
        -emit-module-path "$out/Yams.swiftmodule" -c $(find "$yams/Yams" -name '*.swift' | sort) -o "$out/Yams.o"
) &
yams_build=$!
swiftc "${flags[@]}" -module-name Errors -emit-module -emit-module-path "$out/Errors.swiftmodule" \
    -c "$root"/Packages/Errors/Sources/Errors/*.swift -o "$out/Errors.o"
swiftc "${flags[@]}" -module-name Serialization -emit-module -emit-module-path "$out/Serialization.swiftmodule" \
    -c $(find "$package/Sources/Serialization" -name '*.swift' | sort) -o "$out/Serialization.o"
wait "$yams_build"
swiftc "${flags[@]}" "${yaml_flags[@]}" -module-name SerializationYAML \
    -emit-module -emit-module-path "$out/SerializationYAML.swiftmodule" \
    -c $(find "$package/Sources/SerializationYAML" -name '*.swift' | sort) -o "$out/SerializationYAML.o"
swiftc "${flags[@]}" "${yaml_flags[@]}" -module-name FuzzSerialization "$package/Fuzz/FuzzSerialization.swift" \
    "$out/Errors.o" "$out/Serialization.o" "$out/Yams.o" "$out/SerializationYAML.o" "$out"/cyaml/*.o \
    -o "$out/fuzz-serialization"
cp -n "$package"/Fuzz/Seeds/* "$out/corpus/" 2>/dev/null || true
"$out/fuzz-serialization" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10
