#!/bin/bash
# libs.sh TREE: move pyrt's standard modules into the packages under
# repl/lib in the harness checkout TREE, in place (issue 23's second step):
# the tool (cmd/splitlib, rules in libs.rules), the hand-written package
# docs (overlay/lib) and the hand-written changes to the layers test and
# pyrt's doc (libs-post.patch). Then it builds and vets the result.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
(cd "$here" && go build -o /tmp/splitlib ./cmd/splitlib)
/tmp/splitlib -dir "$tree" -rules "$here/libs.rules"
cp -r "$here"/overlay/lib/. "$tree"/
cd "$tree"
git apply "$here/libs-post.patch"
test -z "$(gofmt -l repl)" || { gofmt -l repl; exit 1; }
go build ./... && go vet ./repl/...
