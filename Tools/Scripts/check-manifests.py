#!/usr/bin/env python3
"""Fails when the root Package.swift and a nested Packages/<Name>/Package.swift disagree.

For every nested package it compares, target by target: the set of targets, their kind, their
source folder, their dependencies (a sibling package's product counts as the sibling module),
resources, Swift settings and plugin usage; that every nested product exists at the root with
the same targets; and that every remote package both manifests name has the same requirement.
"""
import json
import os
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


def main():
    root = dump(ROOT)
    root_targets = {t["name"]: t for t in root["targets"]}
    root_products = {p["name"]: p for p in root["products"]}
    root_remotes = remote_requirements(root)
    packages_dir = os.path.join(ROOT, "Packages")
    siblings = set(os.listdir(packages_dir))
    problems = []

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
