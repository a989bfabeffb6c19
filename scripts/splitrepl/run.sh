#!/bin/bash
# run.sh TREE: split the REPL of the harness checkout TREE in place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SPLIT_HOME="$here" # where the tool reads its rules
tree=$(cd "$1" && pwd)
cd "$tree"
# 1. the hand-written files the rewrite needs (host methods pyrt reaches)
cp -r "$here"/overlay/pre/. "$tree"/
# 2. pre-rewrites of the moved files: what they read of Options and of the
#    call in progress becomes a method of interp, which the tool bridges.
moved=$(cd repl && ls *.go | grep -v _test.go | grep -E "$(cat "$here"/movefiles.re)" | sed 's|^|repl/|')
while IFS= read -r rule; do
	[ -z "$rule" ] || [[ "$rule" == \#* ]] && continue
	gofmt -w -r "$rule" $moved
done < "$here"/prerewrite.rules
(cd "$here" && go build -o /tmp/split-tool ./cmd/split)
/tmp/split-tool -imports $moved
# 3. the move
/tmp/split-tool -dir "$tree"
# 4. the hand-written files of the split tree and the fix-ups
cp -r "$here"/overlay/post/. "$tree"/ 2>/dev/null || true
bash "$here"/post.sh "$tree"
gofmt -l repl || true
