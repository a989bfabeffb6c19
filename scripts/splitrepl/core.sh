#!/bin/bash
# core.sh TREE: move pyrt's language modules (abc, enum, dataclasses,
# functools, collections, contextlib, typing, hashlib, operator) into
# repl/lib/pylang, and re's module into repl/lib/pytext, in the harness checkout TREE, in place (issue 23's third
# step): cmd/downdecl first moves down into runtime files what the runtime
# itself uses of those modules (the down lines of core.rules), then
# cmd/splitlib moves the rest; overlay/core holds the package's doc and
# core-post.patch the hand-written changes (layers test, docs). Then it
# builds and vets the result.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
(cd "$here" && go build -o /tmp/downdecl ./cmd/downdecl && go build -o /tmp/splitlib ./cmd/splitlib)
for f in re re_match re_py; do mv "$tree/repl/pyrt/$f.go" "$tree/repl/pyrt/pymod_$f.go"; done
/tmp/downdecl -dir "$tree" -rules "$here/core.rules"
/tmp/splitlib -dir "$tree" -rules "$here/core.rules"
# Comments naming a module file by its old name (pymod_NAME.go) name the
# file where it is now: beside them in a lib package, or in pylang.
(cd "$tree" && python3 "$here/fixrefs.py" && python3 "$here/importgroups.py" repl/lib/*/*.go repl/pyrt/*.go >/dev/null)
if [ -d "$here/overlay/core" ]; then cp -r "$here"/overlay/core/. "$tree"/; fi
cd "$tree"
if [ -s "$here/core-post.patch" ]; then git apply "$here/core-post.patch"; fi
test -z "$(gofmt -l repl)" || { gofmt -l repl; exit 1; }
go build ./... && go vet ./repl/...
