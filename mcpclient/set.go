// The Set: every MCP server of a session, started in the background.

package mcpclient

import (
	"context"
	"os"
	"sort"
	"sync"
	"time"

	"harness/failures"
	"harness/sensitive"
)

// StartupWait is how long Servers waits, once per Set, for servers still
// starting before it answers without them.
const StartupWait = 30 * time.Second

// startTimeout bounds one start (the process, the initialize handshake and
// the first tools/list); a server slower than this is reported as failed.
const startTimeout = 2 * time.Minute

// maxRestarts is how often a server that stopped, or failed to start, is
// started again on a call, per Set.
const maxRestarts = 3

// Options are what every server of a Set shares.
type Options struct {
	// RepoDir is the repository: the stdio servers' working directory and
	// the one root answered to roots/list.
	RepoDir string
	// Environ is the environment stdio servers start from, before
	// EnvFilter (default os.Environ). harness passes the app's environment
	// without the API key variables.
	Environ   func() []string
	EnvFilter []string // [commands] env_filter: names removed from it
	// LogDir receives each stdio server's stderr as NAME.log
	// ($HARNESS_HOME/mcp); "" discards it.
	LogDir string

	Failures  *failures.Log                    // failure notes; may be nil
	OnFailure func(n failures.Note, count int) // told about each note recorded; may be nil
	// OnChange, when set, is called after a server's state or tool list
	// changed (it started, failed, stopped, restarted, or sent
	// notifications/tools/list_changed).
	OnChange func(server string)

	Clock Clock // nil is the real clock

	// MaxDirectTools is how many tools, over all servers in name order,
	// are offered as direct tools (the rest are marked Indirect): 0 means
	// DefaultMaxDirectTools, a negative number none.
	MaxDirectTools int
}

// DefaultMaxDirectTools is the default of Options.MaxDirectTools (as
// [mcp] max_direct_tools): OpenAI refuses more than 128 tools a request.
const DefaultMaxDirectTools = 128

// Set is the MCP servers of one session. Start returns at once; each
// server connects on a goroutine of its own. Its methods are safe for
// concurrent use.
type Set struct {
	opts    Options
	servers []*server // by name: this Set's and those shared from the Set it extends
	owned   []*server // the ones this Set started and Close stops

	graceOnce sync.Once
	grace     chan struct{} // closed StartupWait after the first Servers call
}

// Start starts every server of specs in the background and returns their
// Set. A server that cannot start is reported (ServerInfo.Err, a failure
// note) and never stops the others.
func Start(specs []Spec, opts Options) *Set {
	if opts.Environ == nil {
		opts.Environ = os.Environ
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	return (&Set{opts: opts}).with(nil, specs)
}

// With returns a Set holding s's servers plus the servers of specs, started
// now; a spec named like one of s's servers replaces it in the new Set.
// Closing the new Set stops only the servers it started. (A front end
// passes the servers an editor gives for one session this way.)
func (s *Set) With(specs []Spec) *Set {
	return (&Set{opts: s.opts}).with(s.servers, specs)
}

func (s *Set) with(shared []*server, specs []Spec) *Set {
	s.grace = make(chan struct{})
	names := map[string]bool{}
	for _, sp := range specs {
		srv := newServer(s, sp)
		s.owned = append(s.owned, srv)
		names[sp.Name] = true
	}
	for _, srv := range shared {
		if !names[srv.spec.Name] {
			s.servers = append(s.servers, srv)
		}
	}
	s.servers = append(s.servers, s.owned...)
	sort.Slice(s.servers, func(i, j int) bool { return s.servers[i].spec.Name < s.servers[j].spec.Name })
	for _, srv := range s.owned {
		go srv.start()
	}
	return s
}

// Close stops the servers this Set started: stdio servers get their stdin
// closed, then SIGTERM and SIGKILL to their process group. It returns when
// they are gone.
func (s *Set) Close() {
	var wg sync.WaitGroup
	for _, srv := range s.owned {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.close()
		}()
	}
	wg.Wait()
}

// Servers returns every server with its tools. The first call waits for
// servers still starting, up to StartupWait (or until ctx ends); later
// calls answer at once with whatever has started by then.
func (s *Set) Servers(ctx context.Context) []ServerInfo {
	s.graceOnce.Do(func() {
		s.opts.Clock.AfterFunc(StartupWait, func() { close(s.grace) })
	})
	for _, srv := range s.servers {
		select {
		case <-srv.settled:
		case <-s.grace:
		case <-ctx.Done():
		}
	}
	out := make([]ServerInfo, len(s.servers))
	for i, srv := range s.servers {
		out[i] = srv.info()
	}
	direct := s.opts.MaxDirectTools
	if direct == 0 {
		direct = DefaultMaxDirectTools
	}
	for i := range out {
		for j := range out[i].Tools {
			out[i].Tools[j].Indirect = direct <= 0
			direct--
		}
	}
	return out
}

// find returns the server named name, or nil.
func (s *Set) find(name string) *server {
	for _, srv := range s.servers {
		if srv.spec.Name == name {
			return srv
		}
	}
	return nil
}

func (s *Set) names() []string {
	out := make([]string, len(s.servers))
	for i, srv := range s.servers {
		out[i] = srv.spec.Name
	}
	return out
}

// note records a failure note and tells OnFailure.
func (s *Set) note(session, kind, message, code string) {
	n := failures.Note{Time: time.Now().UTC(), Session: session, Kind: kind, Message: sensitive.Scrub(message), Code: code}
	count := 0
	if s.opts.Failures != nil {
		count, _ = s.opts.Failures.Record(n)
	}
	if s.opts.OnFailure != nil {
		s.opts.OnFailure(n, count)
	}
}

func (s *Set) changed(name string) {
	if s.opts.OnChange != nil {
		s.opts.OnChange(name)
	}
}
