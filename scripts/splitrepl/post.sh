#!/bin/bash
# post.sh TREE: the fix-ups after the move that are not worth a rule.
set -euo pipefail
cd "$1"
sub() { # file, perl substitution that must match
	perl -0pi -e "\$n = ($2); END { exit(\$n ? 0 : 3) }" "$1" || { echo "post.sh: no match in $1 for $2" >&2; exit 1; }
}
# the runtime's Host is its interp
sub repl/repl.go 's/(\n\tr := &interp\{[^\n]*\n)/$1\tr.Interp.Host = pyrtHost{r}\n/'
sub repl/remote.go 's/(\n\tin := &interp\{[^\n]*\n)/$1\tin.Interp.Host = pyrtHost{in}\n/'
# the thread-local interpreter is the runtime's
sub repl/repl.go 's/SetLocal\(pyrt\.ThreadInterp, r\)/SetLocal(pyrt.ThreadInterp, r.Interp)/'
