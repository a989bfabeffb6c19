// Process trees on Linux: a child subreaper adopts every orphan below it,
// so at its end it can kill all it started, setsid and double forks included.

package reaper

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

var subreaping atomic.Bool

// Subreap makes this process a child subreaper: a process started below it
// whose parent ends (a command's background child, a setsid daemon, a
// double fork) becomes its child instead of init's, so it stays in this
// process's tree, where KillDescendants finds it.
func Subreap() error {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0, 0, 0, 0); e != 0 {
		return e
	}
	subreaping.Store(true)
	return nil
}

// Subreaping reports whether Subreap succeeded in this process.
func Subreaping() bool { return subreaping.Load() }

// proc is one process of a /proc scan.
type proc struct {
	pid, ppid, pgid, sid int
	ended                bool // a zombie or dead: nothing to kill
}

// scan reads every process's parent and state from /proc.
func scan() []proc {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	out := make([]proc, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) S ppid …": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(data[i+1:])
		if len(f) < 4 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		pgid, _ := strconv.Atoi(string(f[2]))
		sid, _ := strconv.Atoi(string(f[3]))
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, sid: sid, ended: f[0][0] == 'Z' || f[0][0] == 'X'})
	}
	return out
}

// descendants returns the processes below the roots in procs, ended ones
// included, parents before their children.
func descendants(procs []proc, roots ...int) []proc {
	kids := map[int][]proc{}
	for _, p := range procs {
		kids[p.ppid] = append(kids[p.ppid], p)
	}
	var out []proc
	queue := append([]int(nil), roots...)
	seen := map[int]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, k := range kids[pid] {
			if !seen[k.pid] {
				seen[k.pid] = true
				out = append(out, k)
				queue = append(queue, k.pid)
			}
		}
	}
	return out
}

// KillDescendants SIGKILLs every process below this one, again and again
// until none runs (a process forking as it is killed leaves children that
// the next round finds, adopted here when this process is a subreaper),
// for at most about two seconds. It returns how many it signalled.
func KillDescendants() int {
	self := os.Getpid()
	return killRounds(func(procs []proc) []proc { return descendants(procs, self) })
}

// killGroupTrees SIGKILLs the processes of the groups, the processes
// whose environment holds mark (a MarkVar entry: every run() command and
// what it started, whatever session or parent it moved to) and everything
// below them, until none runs.
func killGroupTrees(groups map[int]bool, mark string) int {
	self := os.Getpid()
	return killRounds(func(procs []proc) []proc {
		var roots []int
		for _, p := range procs {
			if p.pid != self && !p.ended && (groups[p.pgid] || marked(p.pid, mark)) {
				roots = append(roots, p.pid)
			}
		}
		out := descendants(procs, roots...)
		for _, p := range procs {
			if slices.Contains(roots, p.pid) {
				out = append(out, p)
			}
		}
		return out
	})
}

// marked reports whether pid's environment holds the entry mark. A
// process of another user, or one that replaced its environment (env -i),
// is not found this way.
func marked(pid int, mark string) bool {
	if mark == "" {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return bytes.HasPrefix(data, []byte(mark+"\x00")) || bytes.Contains(data, []byte("\x00"+mark+"\x00"))
}

// killRounds SIGKILLs the running processes pick chooses from a fresh scan
// until it chooses none, for at most about two seconds.
func killRounds(pick func([]proc) []proc) int {
	killed := map[int]bool{}
	for round := 0; round < 200; round++ {
		alive := 0
		for _, p := range pick(scan()) {
			if p.ended {
				continue
			}
			alive++
			syscall.Kill(p.pid, syscall.SIGKILL)
			killed[p.pid] = true
		}
		if alive == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond) // signals are delivered asynchronously
	}
	return len(killed)
}

// adopted are the orphans this process adopted as a subreaper that
// SweepOrphans saw running, and the sessions of commands started in one
// of their own (Session): the only ended children it reaps are those and
// the ones in those sessions. An orphan that ended before any sweep saw
// it running shows no mark (a zombie's environment cannot be read), but
// it keeps its session.
var adopted = struct {
	sync.Mutex
	pids     map[int]bool
	sessions map[int]bool
}{pids: map[int]bool{}, sessions: map[int]bool{}}

// Session notes that sid is the session of a run() command (started with
// Setsid, so sid is its pid): SweepOrphans reaps the ended orphans found
// in it. The session is forgotten once a sweep finds no process in it,
// and its number cannot be reused before that.
func Session(sid int) {
	adopted.Lock()
	adopted.sessions[sid] = true
	adopted.Unlock()
}

// SweepOrphans reaps the ended orphans of run() commands this process
// adopted, so none stays a zombie while harness runs, and notes the
// running ones for a later sweep. An orphan is a child that carries mark
// (the commands' MarkVar entry) and that live (the commands started and
// not yet waited for, whose exits their exec.Cmd takes) does not claim;
// the caller holds live still while it sweeps. Children harness started
// itself (workers, MCP servers) carry no mark and are never touched. It
// does nothing unless Subreap succeeded.
func SweepOrphans(mark string, live func(pid int) bool) {
	if !Subreaping() || mark == "" {
		return
	}
	self := os.Getpid()
	adopted.Lock()
	defer adopted.Unlock()
	procs := scan()
	inUse := map[int]bool{}
	for _, p := range procs {
		inUse[p.sid] = true
		switch {
		case p.ppid != self || live(p.pid):
		case p.ended && (adopted.pids[p.pid] || adopted.sessions[p.sid]):
			var ws syscall.WaitStatus
			syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
			delete(adopted.pids, p.pid)
		case !p.ended && marked(p.pid, mark):
			adopted.pids[p.pid] = true
		}
	}
	for sid := range adopted.sessions {
		if !inUse[sid] && !live(sid) {
			delete(adopted.sessions, sid)
		}
	}
}
