#!/usr/bin/env bash
# install.sh: build and install the harness binary, and copy the shipped
# REPL helpers (replib/*.star) into $HARNESS_HOME/replib (default
# ~/.harness/replib). It overwrites only those helper files and never touches
# config.toml, .env, sessions/ or the store. Run it from anywhere.
set -euo pipefail

src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v go >/dev/null 2>&1; then
	if [ -x /usr/local/go/bin/go ]; then
		PATH="/usr/local/go/bin:$PATH"
	else
		echo "install.sh: the Go toolchain ('go') is not on PATH; install Go 1.26 or newer from https://go.dev/dl/ and run ./install.sh again" >&2
		exit 1
	fi
fi

cd "$src"
go install ./cmd/harness

bindir="$(go env GOBIN)"
if [ -z "$bindir" ]; then
	bindir="$(go env GOPATH)/bin"
fi

home="${HARNESS_HOME:-$HOME/.harness}"
mkdir -p "$home/replib"
copied=0
for f in "$src"/replib/*.star; do
	[ -e "$f" ] || continue
	cp "$f" "$home/replib/"
	copied=$((copied + 1))
done

echo "installed harness to $bindir/harness"
echo "copied $copied REPL helper file(s) to $home/replib/"
case ":$PATH:" in
*":$bindir:"*) echo "$bindir is on your PATH" ;;
*)
	echo "note: $bindir is not on your PATH; add it, for example:"
	echo "  export PATH=\"$bindir:\$PATH\""
	;;
esac
