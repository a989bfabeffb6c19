#!/usr/bin/env bash
# The UI's streaming cost under tmux: CPU, terminal writes and peak RSS of
# harness (and optionally crush) while a long reply streams.
#
# Usage: scripts/uicost.sh [-tokens N] [-rate R] [-shape S] [-turns N] [-crush PATH] [-before PATH] [-only NAME] [-profile DIR]
#
# It builds harness and scripts/uicost, starts the scripted endpoint
# (uicost serve: N four-byte tokens, one per SSE chunk, R tokens a second),
# and for each case runs the built binary alone in a detached tmux pane of
# 200×50, waits until it is idle, sends a prompt, and waits until the reply's
# last words are on screen. CPU (utime+stime) and write(2) calls come from
# /proc/PID/stat and /proc/PID/io of the agent process itself, over the
# stream (from Enter to the last words on screen); -shape paragraph or fence
# streams one 131 KB paragraph or a 4,000-line fenced Go block instead, and
# -shape patch a subagent's apply_patch call adding a 4,000-line file, in
# 6-byte chunks at R chunks a second (see uicost serve); peak RSS is VmHWM once the
# turn has ended and the process is idle again. Cases:
#
#	empty    a new session
#	resumed  --resume of a session of -turns turns, 50 transcript lines each
#	         (2,000 turns: 100,000 lines, 9.6 MB)
#	crush    with -crush PATH: crush, configured for the same endpoint
#	before-empty, before-resumed
#	         with -before PATH: the same two cases with another harness
#	         binary (say, one built from an earlier commit)
#
# Needs go and tmux. Everything lives in a temporary folder, removed at the
# end (set UICOST_KEEP=1 to keep it; UICOST_PIPE=1 also saves there what
# each case wrote to its terminal, as NAME.out). -only runs one case.
# -profile DIR builds harness with -tags cpuprofile and writes a CPU profile
# of each harness case over its stream to DIR/NAME.pprof (go tool pprof
# DIR/harness DIR/NAME.pprof; the binary is copied there too); the
# profiler's own cost is in that run's figures.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
export PATH="/usr/local/go/bin:$PATH"

tokens=20000 rate=500 turns=2000 crush="" before="" only="" shape=prose profile=
while [ $# -gt 0 ]; do
	case "$1" in
	-tokens) tokens="$2"; shift 2 ;;
	-rate) rate="$2"; shift 2 ;;
	-shape) shape="$2"; shift 2 ;;
	-turns) turns="$2"; shift 2 ;;
	-crush) crush="$2"; shift 2 ;;
	-before) before="$2"; shift 2 ;;
	-only) only="$2"; shift 2 ;;
	-profile) profile="$2"; shift 2 ;;
	*) echo "usage: $0 [-tokens N] [-rate R] [-shape prose|paragraph|fence|patch] [-turns N] [-crush PATH] [-before PATH] [-only empty|resumed|crush|before-empty|before-resumed] [-profile DIR]" >&2; exit 2 ;;
	esac
done
command -v tmux >/dev/null || { echo "uicost: tmux is not installed (apt-get install tmux)" >&2; exit 1; }

work="$(mktemp -d /tmp/uicost.XXXXXX)"
sock="uicost-$$"
server=""
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
	if [ -z "${UICOST_KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work"; fi
}
trap cleanup EXIT

if [ -n "$profile" ]; then
	mkdir -p "$profile"
	profile="$(cd "$profile" && pwd)"
	go build -tags cpuprofile -o "$work/harness" ./cmd/harness
	cp "$work/harness" "$profile/harness"
else
	go build -o "$work/harness" ./cmd/harness
fi
go build -o "$work/uicost" ./scripts/uicost
"$work/uicost" serve -url "$work/url" -done "$work/done" -tokens "$tokens" -rate "$rate" -shape "$shape" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
url="$(cat "$work/url")"
mkdir -p "$work/repo" "$work/home"
HARNESS_HOME="$work/home" "$work/harness" setup --base-url "$url" --model llmtest-model >/dev/null
if [ "$shape" = patch ]; then # the subagent's patch applies without asking
	sed -i 's/^permission = .*/permission = "read-write"/' "$work/home/config.toml"
	grep -q '^permission = "read-write"' "$work/home/config.toml" || { echo "uicost: no permission line in config.toml" >&2; exit 1; }
fi
for s in resumed before-resumed; do # one each: a case's turn is saved into its session
	"$work/uicost" session -home "$work/home" -repo "$work/repo" -name "$s" -turns "$turns"
done
ticks="$(getconf CLK_TCK)"
: >"$work/done"

cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime, in ticks
writes() { awk '/^syscw:/ {print $2}' "/proc/$1/io"; }
wbytes() { awk '/^wchar:/ {print $2}' "/proc/$1/io"; }
screen() { tmux -L "$sock" capture-pane -p -t "$1"; }

# run NAME MARKER COMMAND...: runs COMMAND in a 200×50 pane, waits for
# MARKER on screen and for the process to be idle, streams one reply and
# prints the figures.
run() {
	local name="$1" ready="$2"
	shift 2
	local prof="" # the CPU profile of this case: harness's own, with -profile
	if [ -n "$profile" ] && [ "$1" = "$work/harness" ]; then prof="$profile/$name.pprof"; fi
	tmux -u -L "$sock" new-session -d -s "$name" -x 200 -y 50 -c "$work/repo" \
		"env HARNESS_HOME=$work/home XDG_CONFIG_HOME=$work/xdg/config XDG_DATA_HOME=$work/xdg/data ${prof:+HARNESS_CPUPROFILE=$prof} $*"
	local pid
	pid="$(tmux -L "$sock" display -p -t "$name" '#{pane_pid}')"
	if [ -n "${UICOST_PIPE:-}" ]; then tmux -L "$sock" pipe-pane -t "$name" "cat >$work/$name.out"; fi
	for _ in $(seq 600); do screen "$name" | grep -q "$ready" && break; sleep 0.1; done
	screen "$name" | grep -q "$ready" || { echo "$name: never showed '$ready':"; screen "$name"; return 1; }
	local a b
	a="$(cpu "$pid")"
	for _ in $(seq 120); do # idle: no CPU over half a second
		sleep 0.5
		b="$(cpu "$pid")"
		[ "$a" = "$b" ] && break
		a="$b"
	done
	local open_cpu="$b" done_before
	done_before="$(wc -l <"$work/done")"
	local c0 w0 b0 t0
	if [ -n "$prof" ]; then kill -USR1 "$pid"; fi
	c0="$(cpu "$pid")" w0="$(writes "$pid")" b0="$(wbytes "$pid")" t0="$(date +%s.%N)"
	tmux -L "$sock" send-keys -t "$name" "Write a long answer." Enter
	local limit=$((tokens / rate * 3 + 60))
	local start=$SECONDS
	while [ $((SECONDS - start)) -lt "$limit" ]; do
		if [ "$(wc -l <"$work/done")" -gt "$done_before" ] && screen "$name" | grep -q "eam end\]"; then
			break
		fi
		sleep 0.2
	done
	local c1 w1 b1 t1
	c1="$(cpu "$pid")" w1="$(writes "$pid")" b1="$(wbytes "$pid")" t1="$(date +%s.%N)"
	if [ -n "$prof" ]; then kill -USR2 "$pid"; fi
	screen "$name" | grep -q "eam end\]" || { echo "$name: the reply's end never showed:"; screen "$name"; }
	a="$(cpu "$pid")"
	local quiet=0
	for _ in $(seq 240); do # the turn's end (saving, counting its tokens) done: 3 s without CPU
		sleep 0.5
		b="$(cpu "$pid")"
		if [ "$a" = "$b" ]; then quiet=$((quiet + 1)); else quiet=0; fi
		[ "$quiet" -ge 6 ] && break
		a="$b"
	done
	local hwm
	hwm="$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")"
	awk -v n="$name" -v c="$((c1 - c0))" -v o="$open_cpu" -v hz="$ticks" -v w="$((w1 - w0))" \
		-v by="$((b1 - b0))" -v t0="$t0" -v t1="$t1" -v m="$hwm" 'BEGIN {
		printf "%-14s stream CPU %6.2f s in %5.1f s wall (%4.1f%% of a core) | writes %6d (%5.1f/s), %7.1f KB | open CPU %5.2f s | peak RSS %6.1f MiB\n",
			n, c / hz, t1 - t0, 100 * c / hz / (t1 - t0), w, w / (t1 - t0), by / 1024, o / hz, m / 1024 }'
	tmux -L "$sock" kill-session -t "$name"
}

tmux -L "$sock" new-session -d -s keep -x 200 -y 50 "sleep 100000" # the server outlives each case's session
echo "uicost: $shape, $tokens tokens at $rate/s, one per SSE chunk; 200x50 tmux pane; load: $(uptime | sed 's/.*load average: //')"
if [ -z "$only" ] || [ "$only" = empty ]; then
	run empty "tokens │" "$work/harness"
fi
if [ -z "$only" ] || [ "$only" = resumed ]; then
	run resumed "tokens │" "$work/harness" --resume resumed
fi
if [ -n "$before" ] && { [ -z "$only" ] || [ "$only" = before-empty ]; }; then
	run before-empty "tokens │" "$before"
fi
if [ -n "$before" ] && { [ -z "$only" ] || [ "$only" = before-resumed ]; }; then
	run before-resumed "tokens │" "$before" --resume before-resumed
fi
if [ -n "$crush" ] && { [ -z "$only" ] || [ "$only" = crush ]; }; then
	mkdir -p "$work/xdg/config/crush" "$work/xdg/data/crush"
	cat >"$work/xdg/config/crush/crush.json" <<EOF
{
  "providers": {
    "llmtest": {
      "type": "openai-compat", "base_url": "$url", "api_key": "none",
      "models": [{"id": "llmtest-model", "name": "llmtest", "context_window": 200000, "default_max_tokens": 50000}]
    }
  },
  "models": {
    "large": {"model": "llmtest-model", "provider": "llmtest"},
    "small": {"model": "llmtest-model", "provider": "llmtest"}
  },
  "options": {"disable_provider_auto_update": true, "disable_metrics": true}
}
EOF
	run crush "ctrl+j newline" "$crush"
fi
