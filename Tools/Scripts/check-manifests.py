#!/usr/bin/env python3
"""Fails when the root Package.swift and a nested Packages/<Name>/Package.swift disagree.

For every nested package it compares, target by target: the set of targets, their kind, their
source folder, their dependencies (a sibling package's product counts as the sibling module),
resources, Swift settings and plugin usage; that every nested product exists at the root with
the same targets; and that every remote package both manifests name has the same requirement.

Together with the root build's `--explicit-target-dependency-import-check error` (a module that
imports a sibling it does not declare fails the build), agreement proves that each nested
package builds with only what its own manifest declares, without building it alone. One
difference remains: in the root package every module shares one package name, so a `package`
declaration reaches across nested packages there and not in the nested manifests. When a module
depends on a module of another nested package that makes `package` declarations, only a build of
its own package shows whether it uses them: `--build-isolated SCRATCH [SWIFT OPTIONS...]` runs
that build (`swift build --build-tests --package-path Packages/<Name>`) for each such package.

It also fails a target that imports a kit module it reaches only through another dependency.
The import check lets that pass, but SwiftPM orders and invalidates builds by declared
dependencies only: when the imported module changes and the one in between keeps its interface,
the importing target is not recompiled, and an incremental build links code compiled against
the old module — with a case added to an enum, a `case` pattern then matches the wrong case
(swiftlang/swift-package-manager#10483; it happened here to StorageSQLiteTests).

The internal support module (`_KitSupport`, in Packages/Support) is the one exception to "every
nested product is a root product": a nested manifest reaches it as an underscored product, and
the root manifest must list it as a plain target and never as a product users can depend on.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = os.path.join(tempfile.gettempdir(), "boilerplate-manifest-check")


def dump(package_dir):
    command = [
        "swift", "package", "--package-path", package_dir,
        "--scratch-path", os.path.join(SCRATCH, os.path.basename(package_dir) or "root"), "dump-package",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"Cannot read the manifest in {package_dir}:\n{result.stderr}")
    return json.loads(result.stdout)


def default_path(target):
    folder = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return f"{folder}/{target['name']}"


def dependency_names(target, siblings):
    names = set()
    for dep in target.get("dependencies", []):
        kind, value = next(iter(dep.items()))
        if kind in ("byName", "target"):
            names.add(value[0])
        elif kind == "product":
            name, package = value[0], value[1]
            names.add(name if package in siblings else f"{name}@{package.lower()}")
    return names


def remote_requirements(manifest):
    result = {}
    for dep in manifest.get("dependencies", []):
        if "sourceControl" in dep:
            entry = dep["sourceControl"][0]
            url = entry["location"]["remote"][0]["urlString"]
            result[url.lower().rstrip("/")] = json.dumps(entry["requirement"], sort_keys=True)
    return result


def normalised(items):
    return json.dumps(items or [], sort_keys=True)


# A declaration with the `package` access modifier. Generous on purpose: a match in a comment only
# costs a build of the nested package, while a miss would let a cross-package use through.
PACKAGE_DECLARATION = re.compile(
    r"\bpackage(?:\(set\))?\s+(?:(?:static|class|final|nonisolated|override|mutating|nonmutating|"
    r"convenience|required|lazy|indirect|dynamic|consuming|borrowing|weak|unowned)\s+)*"
    r"(?:func|var|let|init|deinit|struct|enum|class|actor|protocol|typealias|subscript|extension|macro|case)\b"
)


def declares_package_symbols(folder):
    for directory, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as source:
                    if PACKAGE_DECLARATION.search(source.read()):
                        return True
    return False


IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var|actor)\s+)?(\w+)", re.M)


# Multi-line string literals: the templates and generated code tests hold `import` lines of their own.
STRING_BLOCK = re.compile(r'(#*)"""(?:.|\n)*?"""\1')


def undeclared_imports(root_targets, siblings):
    """Kit modules a target imports without declaring them as a direct dependency."""
    problems = []
    for name, target in sorted(root_targets.items()):
        folder = os.path.join(ROOT, target.get("path") or default_path(target))
        declared = dependency_names(target, siblings)
        imported = {}
        for directory, _, files in os.walk(folder):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8", errors="replace") as source:
                    for module in IMPORT.findall(STRING_BLOCK.sub("", source.read())):
                        if module in root_targets and module != name and module not in declared:
                            imported.setdefault(module, os.path.relpath(path, ROOT))
        for module, where in sorted(imported.items()):
            problems.append(f"target {name} imports {module} ({where}) without declaring it: add it to the "
                            "target's dependencies (SwiftPM rebuilds a target only when a declared dependency changes)")
    return problems


def packages_needing_isolated_builds(root_targets, siblings):
    """Nested packages with a module that depends on another nested package's `package` declarations."""
    home = {}
    for name, target in root_targets.items():
        parts = (target.get("path") or "").split("/")
        if len(parts) > 1 and parts[0] == "Packages" and parts[1] in siblings:
            home[name] = parts[1]
    declaring = {name for name in home if declares_package_symbols(root_targets[name]["path"])}

    def dependencies(name, seen):
        for dep in dependency_names(root_targets[name], siblings):
            if dep in root_targets and dep not in seen:
                seen.add(dep)
                dependencies(dep, seen)
        return seen

    reasons = {}
    for name, package in sorted(home.items()):
        for dep in sorted(dependencies(name, set())):
            if dep in declaring and home.get(dep, package) != package:
                reasons.setdefault(package, []).append(f"{name} depends on {dep} (Packages/{home[dep]})")
    return reasons


def build_isolated(reasons, scratch, options):
    if not reasons:
        print("Isolation: no module depends on another nested package's `package` declarations.")
        return 0
    for package, why in sorted(reasons.items()):
        more = f" and {len(why) - 2} more" if len(why) > 2 else ""
        print(f"Isolation: building Packages/{package} alone: {'; '.join(why[:2])}{more}, a module with "
              "`package` declarations, which the root package shares across nested packages and the nested ones do not.")
        command = ["swift", "build", "--build-tests", "--package-path", os.path.join(ROOT, "Packages", package),
                   "--scratch-path", scratch, "--disable-build-manifest-caching"] + options
        if subprocess.run(command).returncode != 0:
            print(f"Packages/{package} does not build with its own manifest.", file=sys.stderr)
            return 1
    return 0


def main():
    isolated = None
    if len(sys.argv) > 2 and sys.argv[1] == "--build-isolated":
        isolated = (sys.argv[2], sys.argv[3:])
    root = dump(ROOT)
    root_targets = {t["name"]: t for t in root["targets"]}
    root_products = {p["name"]: p for p in root["products"]}
    root_remotes = remote_requirements(root)
    packages_dir = os.path.join(ROOT, "Packages")
    siblings = set(os.listdir(packages_dir))
    problems = undeclared_imports(root_targets, siblings)
    for product in sorted(root_products):
        if product.startswith("_"):
            problems.append(f"the root manifest makes the internal module {product} a product users can depend on")

    for name in sorted(siblings):
        nested_dir = os.path.join(packages_dir, name)
        if not os.path.isfile(os.path.join(nested_dir, "Package.swift")):
            problems.append(f"Packages/{name}: no Package.swift")
            continue
        nested = dump(nested_dir)
        prefix = f"Packages/{name}/"
        expected = {n for n, t in root_targets.items() if (t.get("path") or "").startswith(prefix)}
        actual = {t["name"] for t in nested["targets"]}
        for missing in sorted(expected - actual):
            problems.append(f"Packages/{name}: target {missing} is in the root manifest but not the nested one")
        for extra in sorted(actual - expected):
            problems.append(f"Packages/{name}: target {extra} is in the nested manifest but not the root one")
        for target in nested["targets"]:
            twin = root_targets.get(target["name"])
            if twin is None:
                continue
            where = f"Packages/{name}: target {target['name']}"
            if target["type"] != twin["type"]:
                problems.append(f"{where}: kind {target['type']} here, {twin['type']} at the root")
            nested_path = prefix + (target.get("path") or default_path(target))
            if os.path.normpath(nested_path) != os.path.normpath(twin.get("path") or ""):
                problems.append(f"{where}: sources at {nested_path} here, {twin.get('path')} at the root")
            mine, theirs = dependency_names(target, siblings), dependency_names(twin, siblings)
            if mine != theirs:
                problems.append(f"{where}: dependencies {sorted(mine)} here, {sorted(theirs)} at the root")
            for key in ("resources", "settings", "pluginUsages", "exclude"):
                if normalised(target.get(key)) != normalised(twin.get(key)):
                    problems.append(f"{where}: {key} differ from the root manifest")
        for product in nested["products"]:
            twin = root_products.get(product["name"])
            if product["name"].startswith("_"):
                # An internal module (`_KitSupport`): a product here only because a nested manifest
                # can depend on nothing else of a sibling; at the root a plain target, never a product.
                if twin is not None:
                    problems.append(f"Packages/{name}: internal product {product['name']} must not be a product "
                                    "of the root manifest (list it there as a plain target)")
                elif product["name"] not in root_targets:
                    problems.append(f"Packages/{name}: internal product {product['name']} is not a target of the "
                                    "root manifest")
                continue
            if twin is None:
                problems.append(f"Packages/{name}: product {product['name']} is missing from the root manifest")
            elif sorted(twin["targets"]) != sorted(product["targets"]) or twin["type"] != product["type"]:
                problems.append(f"Packages/{name}: product {product['name']} differs from the root manifest")
        for url, requirement in remote_requirements(nested).items():
            if url not in root_remotes:
                problems.append(f"Packages/{name}: depends on {url}, which the root manifest does not")
            elif root_remotes[url] != requirement:
                problems.append(f"Packages/{name}: requires {url} at {requirement}, the root at {root_remotes[url]}")

    if problems:
        print("Manifests disagree:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print(f"Manifests agree: {len(siblings)} nested packages match the root manifest.")
    if isolated is not None:
        return build_isolated(packages_needing_isolated_builds(root_targets, siblings), *isolated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
