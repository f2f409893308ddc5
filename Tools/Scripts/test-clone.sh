#!/usr/bin/env bash
# make test-clone: what a new user gets from a plain `git clone` of the repository, with nothing
# beside it. Clones the committed HEAD into an empty temporary folder, then there:
#   1. runs the suites that read test data (Tests/Fixtures): Router's route sets, ModelGen's
#      design reading and golden files;
#   2. builds boiler and runs `boiler new Demo` with no --kit-path or --kit-url, checks the project
#      depends on the clone by path, and builds it (no network: the kit is the clone);
#   3. runs `make install PREFIX=<temp>` from a build folder of its own, deletes that folder and
#      the clone's `.build`, and generates models from a fixture design with the installed boiler
#      (its templates come from the installed resource bundle, not a build folder).
# Uncommitted changes are not tested: the clone is of HEAD. Each step prints its time.
#
# --in-place (make test-checkout, which CI runs): this checkout is the plain clone, as CI's is.
# Steps 2 and 3 run here; step 1 is left to `make test`, which runs those suites with the rest.
# boiler, Demo and the kit build in BOILERPLATE_SHARED_BUILD with BOILERPLATE_SHARED_BUILD_FLAGS
# (what make passes), where `make build` compiled the kit already; only the install's own build
# folder is deleted.
set -euo pipefail

repository=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
in_place=false
[[ ${1:-} == --in-place ]] && in_place=true
work=$(mktemp -d "${TMPDIR:-/tmp}/boiler-clone.XXXXXX")
trap 'rm -rf "$work"' EXIT
# SwiftPM leaves lock files in TMPDIR named after each package folder: keep them in $work too.
mkdir "$work/tmp"
export TMPDIR="$work/tmp"
started=$SECONDS
step_started=$SECONDS

step() {
    if ((SECONDS > started)); then echo "    ($((SECONDS - step_started)) s)"; fi
    step_started=$SECONDS
    echo "==> $*"
}

fail() {
    echo "make test-clone: $*" >&2
    exit 1
}

if $in_place; then
    clone=$repository
    cd "$clone"
else
    step "git clone $repository (HEAD $(git -C "$repository" rev-parse --short HEAD))"
    # The clone sits alone in its folder: no sibling (a shared data folder, say) to lean on.
    mkdir "$work/alone"
    clone="$work/alone/boilerplate"
    # --no-local: a real clone through git's transport, as from a server (no hard links, no
    # alternates), so the clone holds exactly what was committed.
    git clone --quiet --no-local "$repository" "$clone"
    [[ $(ls -A "$work/alone") == boilerplate ]] || fail "the clone has neighbours: $(ls -A "$work/alone")"
    cd "$clone"
    export BOILERPLATE_SHARED_BUILD="$clone/.build"
fi
# Every build below shares one folder and one set of flags, as in the Makefile.
build_folder=${BOILERPLATE_SHARED_BUILD:-$clone/.build}
read -r -a flags <<<"${BOILERPLATE_SHARED_BUILD_FLAGS:-}"
shared=(--scratch-path "$build_folder" --disable-build-manifest-caching "${flags[@]}")

if ! $in_place; then
    step "swift test --package-path Packages/Router --filter RouteSet"
    "$swift" test --package-path Packages/Router --filter RouteSet

    step "swift test --package-path Packages/ModelGen --filter 'GoldenTests|DesignReadingTests'"
    "$swift" test --package-path Packages/ModelGen --filter 'GoldenTests|DesignReadingTests'
fi

step "swift build --product boiler"
"$swift" build --product boiler "${shared[@]}"
boiler="$build_folder/debug/boiler"
"$boiler" --version | grep -qF "New projects use the kit at $clone (" \
    || fail "boiler --version does not name the clone as the kit: $("$boiler" --version)"

step "boiler new Demo (no --kit-path), then swift build of Demo"
projects="$work/projects"
mkdir "$projects"
(cd "$projects" && "$boiler" new Demo --no-interactive --no-git)
grep -qF ".package(path: \"$clone\")" "$projects/Demo/Package.swift" \
    || fail "Demo does not depend on the clone: $(grep -F '.package(' "$projects/Demo/Package.swift")"
(cd "$projects/Demo" && "$swift" build "${shared[@]}")

# The release build gets a folder of its own: deleting it proves the installed boiler needs
# nothing from where it was built (SwiftPM's resource accessor falls back to that folder).
install_build="$clone/.build-install"
step "make install PREFIX=$work/prefix BUILD_DIR=$install_build, rm -rf $install_build, boiler generate models"
rm -rf "$install_build"
make --no-print-directory install PREFIX="$work/prefix" BUILD_DIR="$install_build"
rm -rf "$install_build"
$in_place || rm -rf "$clone/.build"
models="$work/models"
(cd "$work" && "$work/prefix/bin/boiler" generate models \
    "$clone/Tests/Fixtures/models/TSBoilerplateModel.xcdatamodeld" --output "$models")
ls "$models"/_*.swift >/dev/null 2>&1 || fail "the installed boiler generated no machine files in $models"
"$work/prefix/bin/boiler" doctor >/dev/null
make --no-print-directory uninstall PREFIX="$work/prefix"
[[ ! -e "$work/prefix/bin/boiler" && ! -e "$work/prefix/libexec/boiler" ]] || fail "make uninstall left files"

step "done"
echo "make test-clone: passed in $((SECONDS - started)) s"
