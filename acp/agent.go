// Serve, and the ACP methods: initialize, the session methods, prompts.

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/config"
	"harness/mcpclient"
	"harness/prompts"
	"harness/redact"
	"harness/rlm"
	"harness/sessions"
)

// Options are what Serve needs; cmd/harness wires them.
type Options struct {
	// Load loads and checks config.toml and .env for the repository dir
	// (config.Load); "" skips the rules about the repository (initialize
	// has none yet).
	Load func(dir string) (*config.Config, error)
	// Start builds a session's root agent.
	Start func(Setup) (Agent, error)
	// Log receives diagnostics, one line each (stderr: stdout carries
	// protocol messages only).
	Log     io.Writer
	Version string
}

// Setup is what one session's root agent is built from.
type Setup struct {
	Config   *config.Config
	Dir      string            // the repository: the session's cwd, canonical
	Session  *sessions.Session // created (session/new) or opened and locked (session/load)
	Conv     *sessions.File    // the saved root conversation; nil for a new session
	Redactor *redact.Redactor
	Level    func() config.Permission // the session's mode, for the repository's jail
	Approver rlm.Approver             // asks the editor
	Events   *rlm.Stream              // the session's events, mapped to updates
	MCP      []mcpclient.Spec         // the editor's servers, beside the configured ones
}

// Agent is a session's root agent as cmd/harness built it.
type Agent struct {
	Runner Runner
	// Describe explains an operation waiting for approval
	// ([approval_description]); nil without one.
	Describe func(ctx context.Context, operation json.RawMessage) (string, error)
	Close    func() // stops the session's MCP servers and closes its roots
	// Commands are /init and the repository's prompt files, offered as
	// available_commands_update; a prompt "/NAME args" sends the
	// expanded text. nil offers none.
	Commands *prompts.Set
}

// Runner runs a session's root turns (*rlm.Runner).
type Runner interface {
	Turn(ctx context.Context, prompt string) (rlm.Result, error)
	Conversation() []sessions.Item
}

// JSON-RPC error codes harness answers with besides the SDK's.
const (
	codeInternal = -32603
	codeNotFound = -32002 // ACP's "resource not found"
)

// invalidParams is the -32602 error for bad params, the reason in its
// message (which editors show) as well as in its data.
func invalidParams(reason string) *sdk.RequestError {
	return &sdk.RequestError{Code: -32602, Message: "Invalid params: " + reason, Data: map[string]any{"error": reason}}
}

// Serve speaks ACP on in and out until in ends or ctx is cancelled, then
// stops every turn, saves and closes every session.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	log := logger(opts.Log)
	a := &server{opts: opts, log: log, sessions: map[string]*session{}, out: w}
	conn := sdk.NewAgentSideConnection(a, w, pr)
	conn.SetLogger(slog.New(slog.NewTextHandler(opts.Log, nil)))
	a.conn = conn
	// Input flows only now: no handler runs before the connection is set up.
	go filter(in, pw, w, log)
	select {
	case <-conn.Done():
	case <-ctx.Done():
	}
	a.closeAll()
	pr.Close()
	return nil
}

func logger(w io.Writer) func(string, ...any) {
	var mu sync.Mutex
	return func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "harness acp: "+format+"\n", args...)
	}
}

// server is the agent side of one connection.
type server struct {
	opts Options
	log  func(string, ...any)
	conn *sdk.AgentSideConnection
	out  *lockedWriter // stdout, for what must follow an answer

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
}

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

// Initialize loads the configuration: a bad one is this request's error,
// naming the file, line and fix.
func (a *server) Initialize(ctx context.Context, req sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	if _, err := a.opts.Load(""); err != nil {
		a.log("%v", err)
		return sdk.InitializeResponse{}, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "harness", Title: sdk.Ptr("harness"), Version: a.opts.Version},
		AuthMethods:     []sdk.AuthMethod{},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List: &sdk.SessionListCapabilities{}, Close: &sdk.SessionCloseCapabilities{},
				Resume: &sdk.SessionResumeCapabilities{},
			},
		},
	}, nil
}

// Authenticate has nothing to do: the endpoint's key is in config.toml or .env.
func (a *server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession creates a harness session in cwd, named as the UI names one.
func (a *server) NewSession(ctx context.Context, req sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	s, err := a.open(req.Cwd, "", req.McpServers, false)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(s.id), Modes: s.modes()}, nil
}

// LoadSession reopens a saved session and replays it.
func (a *server) LoadSession(ctx context.Context, req sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if err := savedName(req.SessionId); err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	s, err := a.open(req.Cwd, string(req.SessionId), req.McpServers, true)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	return sdk.LoadSessionResponse{Modes: s.modes()}, nil
}

// ResumeSession reopens a saved session without replaying it.
func (a *server) ResumeSession(ctx context.Context, req sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	if err := savedName(req.SessionId); err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	s, err := a.open(req.Cwd, string(req.SessionId), req.McpServers, false)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	return sdk.ResumeSessionResponse{Modes: s.modes()}, nil
}

// savedName refuses the sessionId of a session/load or session/resume
// that names no session: empty (open would create one, under a name the
// editor never learns) is invalid params, before anything starts.
func savedName(id sdk.SessionId) error {
	if strings.TrimSpace(string(id)) == "" {
		return invalidParams("sessionId is empty; give the name of a saved session (session/list lists them), or create one with session/new")
	}
	return nil
}

// open creates (name "") or opens a session in cwd with the editor's MCP
// servers, builds its agent, replays it when asked, and starts its pump.
func (a *server) open(cwd, name string, servers []sdk.McpServer, replayIt bool) (*session, error) {
	dir, err := repository(cwd)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	cfg, err := a.opts.Load(dir)
	if err != nil {
		a.log("%v", err)
		if _, cerr := a.opts.Load(""); cerr == nil {
			// The configuration is good: it is this directory it refuses
			// (the store or the sessions folder inside it).
			return nil, invalidParams(fmt.Sprintf("cwd %s cannot be a session's repository: %v", dir, err))
		}
		return nil, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	specs, secrets, err := mcpSpecs(servers)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	if name != "" {
		a.closeSession(name) // loaded again: the new load replaces it
	}
	red := redact.New(append(append(cfg.Secrets(), cfg.MCPSecrets()...), secrets...))
	sess, conv, err := openSession(sessions.Store{Dir: cfg.SessionsDir()}, name, red)
	if err != nil {
		return nil, err
	}
	if conv != nil && conv.Local.Repository != dir {
		a.log("note: session %s was started in %s; its agents now work in %s", name, conv.Local.Repository, dir)
	}
	s := newSession(a.conn, a.log, cfg, sess, roots{repository: dir, store: cfg.RLM.StorePath, library: sess.LibraryDir()})
	s.agent, err = a.opts.Start(Setup{Config: cfg, Dir: dir, Session: sess, Conv: conv, Redactor: red,
		Level: s.Level, Approver: s, Events: s.stream, MCP: specs})
	if err != nil {
		discard(sess)
		return nil, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	if replayIt {
		for _, u := range replay(sess, s.agent.Runner.Conversation(), s.roots) {
			s.send(u)
		}
	}
	a.announceCommands(s, name == "")
	go s.pump()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		go s.close()
		return nil, errClosed
	}
	a.sessions[s.id] = s
	return s, nil
}

// repository checks that cwd is an absolute directory and returns it with
// symlinks resolved.
func repository(cwd string) (string, error) {
	if !filepath.IsAbs(cwd) {
		return "", fmt.Errorf("cwd %q is not an absolute path; give the repository's absolute path", cwd)
	}
	dir, err := filepath.EvalSymlinks(cwd)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("cwd %s does not exist; give the repository's absolute path", cwd)
	}
	if err != nil {
		return "", fmt.Errorf("cwd %s: %v", cwd, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("cwd %s is not a directory", cwd)
	}
	return dir, nil
}

// openSession creates a session (name "") or opens the saved one, locked:
// a session open in another harness is refused.
func openSession(st sessions.Store, name string, red *redact.Redactor) (*sessions.Session, *sessions.File, error) {
	if name == "" {
		s := st.New(red)
		if _, err := s.Create(); err != nil {
			return nil, nil, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
		}
		return s, nil, nil
	}
	if err := sessions.CheckName(name); err != nil {
		return nil, nil, invalidParams(fmt.Sprintf("sessionId: %v", err))
	}
	if _, err := os.Stat(filepath.Join(st.Dir, name, "library", "root.json")); errors.Is(err, os.ErrNotExist) {
		return nil, nil, invalidParams(fmt.Sprintf("sessionId: no session named %q in %s; session/list lists the saved ones", name, st.Dir))
	}
	s, err := st.Open(name, red)
	if err != nil {
		return nil, nil, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	conv, err := s.LoadRoot()
	if err != nil {
		s.Close()
		return nil, nil, &sdk.RequestError{Code: codeInternal, Message: fmt.Sprintf("cannot load session %s: %v", name, err)}
	}
	return s, conv, nil
}

func (a *server) session(id sdk.SessionId) (*session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.sessions[string(id)]; s != nil {
		return s, nil
	}
	return nil, &sdk.RequestError{Code: codeNotFound, Message: fmt.Sprintf("no open session %q; create one with session/new or open it with session/load", id)}
}

// ListSessions lists the saved sessions, most recently updated first;
// with cwd, those of that repository only.
func (a *server) ListSessions(ctx context.Context, req sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	cfg, err := a.opts.Load("")
	if err != nil {
		return sdk.ListSessionsResponse{}, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	want := ""
	if req.Cwd != nil {
		if want, err = repository(*req.Cwd); err != nil {
			return sdk.ListSessionsResponse{}, invalidParams(err.Error())
		}
	}
	st := sessions.Store{Dir: cfg.SessionsDir()}
	list, err := st.List()
	if err != nil {
		return sdk.ListSessionsResponse{}, &sdk.RequestError{Code: codeInternal, Message: err.Error()}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Updated.After(list[j].Updated) })
	out := []sdk.SessionInfo{}
	for _, info := range list {
		repo := info.Repository
		if repo == "" {
			// session/load would refuse it too; a cwd is required.
			a.log("session/list: session %s is left out: its conversation file cannot be read", info.Name)
			continue
		}
		if want != "" && repo != want {
			continue
		}
		si := sdk.SessionInfo{SessionId: sdk.SessionId(info.Name), Cwd: repo,
			UpdatedAt: sdk.Ptr(info.Updated.UTC().Format(time.RFC3339))}
		if info.Preview != "" {
			si.Title = sdk.Ptr(info.Preview)
		}
		out = append(out, si)
	}
	return sdk.ListSessionsResponse{Sessions: out}, nil
}

// CloseSession stops the session's turn and closes it.
func (a *server) CloseSession(ctx context.Context, req sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	if _, err := a.session(req.SessionId); err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	a.closeSession(string(req.SessionId))
	return sdk.CloseSessionResponse{}, nil
}

func (a *server) closeSession(id string) {
	a.mu.Lock()
	s := a.sessions[id]
	delete(a.sessions, id)
	a.mu.Unlock()
	if s != nil {
		s.close()
	}
}

// closeAll closes every session (at the end of the connection).
func (a *server) closeAll() {
	a.mu.Lock()
	a.closed = true
	list := make([]*session, 0, len(a.sessions))
	for _, s := range a.sessions {
		list = append(list, s)
	}
	a.sessions = map[string]*session{}
	a.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.close()
		}()
	}
	wg.Wait()
}

// SetSessionMode sets the session's permission level.
func (a *server) SetSessionMode(ctx context.Context, req sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	s, err := a.session(req.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, s.setMode(string(req.ModeId))
}

// SetSessionConfigOption: harness offers no config options.
func (a *server) SetSessionConfigOption(ctx context.Context, req sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// Prompt runs one root turn. session/cancel cancels ctx (the SDK does),
// which stops the turn like Esc.
func (a *server) Prompt(ctx context.Context, req sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.session(req.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	text, err := promptText(req.Prompt, s.roots.repository)
	if err != nil {
		return sdk.PromptResponse{}, invalidParams(err.Error())
	}
	if resp, ok, err := s.contextCommand(ctx, text); ok {
		return resp, err
	}
	if msg, ok := s.agent.Commands.Resolve(text); ok {
		text = msg
	}
	resp, err := s.prompt(ctx, text)
	if err == nil {
		s.send(s.info(title(s.agent.Runner.Conversation())))
	}
	return resp, err
}

// Cancel needs nothing more: the SDK has cancelled the prompt's context,
// which also cancels its pending permission requests.
func (a *server) Cancel(ctx context.Context, req sdk.CancelNotification) error { return nil }
