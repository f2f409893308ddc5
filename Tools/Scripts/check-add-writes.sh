#!/usr/bin/env bash
# check-add-writes.sh: `boiler add` has one write path — ProjectAddition plans the add as an
# update, UpdateTransaction writes it (new files, bases and record at once, killable at any
# step). Fails when a Swift file of BoilerCLI writes to the disk itself (a write(to:) of Data
# or a String, PlanWriter, FileManager's createDirectory, createFile, moveItem, removeItem or
# copyItem, the transaction's writeDurably), so an adder cannot grow its own writes again.
# The files that may write are listed below, each with why; the generated projects' templates
# (Templates/Files) are not boiler's code.
set -euo pipefail
cd "$(dirname "$0")/../.."
sources=Tools/boiler/Sources/BoilerCLI

# path (relative to $sources) — why it writes
allowed="
Planning/UpdateTransaction.swift   the journal that boiler add and boiler update write through
Planning/PlanWriter.swift          boiler new's writer: a new project appears by one rename
Commands/NewProject.swift          boiler new, through PlanWriter
Project/TemplateEjector.swift      boiler templates --eject: copies under .boiler/templates, never overwriting
Update/GitMergeFile.swift          git merge-file's three inputs, in a temporary folder outside the project
"
pattern='\.write\(to:|PlanWriter|createDirectory\(|createFile\(|moveItem\(|copyItem\(|writeDurably\('

violations=$(
    cd "$sources" && grep -rnE --include='*.swift' --exclude-dir=Files "$pattern" . \
        | sed 's|^\./||' \
        | awk -F: -v allowed="$allowed" '
            BEGIN { n = split(allowed, lines, "\n"); for (i = 1; i <= n; i++) { split(lines[i], f, " "); if (f[1] != "") ok[f[1]] = 1 } }
            { line = $0; sub(/^[^:]*:[0-9]+:[ \t]*/, "", line) }
            line ~ /^\/\// { next }   # a comment names the writers; it does not write
            !($1 in ok) { print }'
)
if [[ -n $violations ]]; then
    echo "check-add-writes: these files of BoilerCLI write to the disk themselves; boiler add writes only" >&2
    echo "through ProjectAddition and UpdateTransaction (see $0 for the files that may, and why):" >&2
    echo "$violations" >&2
    exit 1
fi
echo "check-add-writes: BoilerCLI writes only through its $(echo "$allowed" | grep -c .) writers"
