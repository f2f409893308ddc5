#!/usr/bin/env python3
"""Fail when anything in the repository reads or links a path outside it.

A user's clone has nothing beside it, so every file the build, tests, benchmarks and docs need
must be inside the repository. This check looks at every tracked (and new, not ignored) file:

- a symbolic link must resolve inside the repository;
- text may not name a sibling folder (`../<name>/…` climbing above the root) or an absolute
  path into the machine the project was written on;
- a relative Markdown link must resolve to a file or folder inside the repository.

Exit status 1 lists each offence as `path:line: what`.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The folder the kit is developed in, beside its shared design notes: a path into it works on
# the developer's machine and nowhere else. Built from pieces so this file does not match itself.
MACHINE_PATHS = re.compile("/" + "work/")
# `../` runs in text (Markdown, shell, Python) are resolved from the file that holds them.
RELATIVE = re.compile(r"(?<![\w./])((?:\.\./)+)([\w.-]+)")
# Swift finds files beside its source with `#filePath` and `deletingLastPathComponent()`.
CLIMB = ".deletingLastPathComponent()"
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
TEXT_SUFFIXES = {".swift", ".md", ".py", ".sh", ".yml", ".yaml", ".json", ".txt", ".mustache", ".stencil", ""}


def tracked_files():
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode()
    return [f for f in out.split("\0") if f]


def inside(path):
    real = os.path.realpath(path)
    return real == ROOT or real.startswith(ROOT + os.sep)


def main():
    problems = []
    for rel in tracked_files():
        path = os.path.join(ROOT, rel)
        if os.path.islink(path):
            if not inside(path):
                problems.append(f"{rel}: symbolic link to {os.readlink(path)}, outside the repository")
            continue
        if not os.path.isfile(path):
            continue
        name = os.path.basename(rel)
        suffix = os.path.splitext(name)[1]
        if suffix not in TEXT_SUFFIXES and name not in {"Makefile", "run"}:
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except UnicodeDecodeError:
            continue
        folder = os.path.dirname(path)
        for number, line in enumerate(lines, 1):
            if MACHINE_PATHS.search(line):
                problems.append(f"{rel}:{number}: absolute path on a developer's machine")
            if suffix == ".swift":
                if "#filePath" in line:
                    # The expression may wrap: count the climbs in this line and the next few.
                    window = " ".join(lines[number - 1 : number + 4])
                    climbs = window.count(CLIMB)
                    if climbs > rel.count("/") + 1:  # the first climb leaves the file for its folder
                        problems.append(f"{rel}:{number}: #filePath climbs {climbs} folders, out of the repository")
                continue
            for match in RELATIVE.finditer(line):
                target = os.path.normpath(os.path.join(folder, match.group(1), match.group(2)))
                if not inside(target):
                    problems.append(f"{rel}:{number}: `{match.group(0)}` climbs out of the repository")
            if suffix == ".md":
                for match in MARKDOWN_LINK.finditer(line):
                    link = match.group(1).split("#", 1)[0]
                    if not link or re.match(r"^[a-z][a-z0-9+.-]*:", link) or link.startswith("<doc:"):
                        continue
                    target = os.path.normpath(os.path.join(folder, link))
                    if not inside(target):
                        problems.append(f"{rel}:{number}: link `{link}` points outside the repository")
                    elif not os.path.exists(target):
                        problems.append(f"{rel}:{number}: link `{link}` points at nothing")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-self-contained: {len(problems)} path(s) outside the repository or missing", file=sys.stderr)
        return 1
    print("check-self-contained: every path stays inside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
