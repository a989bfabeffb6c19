// One ACP session: a harness session, its root agent, and the pump that
// turns its events into session updates.

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/approval"
	"harness/config"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

// session is one open session of the connection.
type session struct {
	id    string // the harness session's name
	conn  *sdk.AgentSideConnection
	log   func(format string, args ...any)
	cfg   *config.Config
	sess  *sessions.Session
	roots roots

	stream *rlm.Stream
	agent  Agent
	level  atomic.Int32 // config.Permission
	// turn holds a token while a prompt runs: prompts of one session run
	// one after another.
	turn chan struct{}

	mu         sync.Mutex
	always     approval.Session   // what allow_always allowed: the same command with the same arguments
	cancelTurn context.CancelFunc // stops the running turn; nil between turns

	closing  chan struct{} // closed when the session closes
	pumpDone chan struct{}
	once     sync.Once
}

func newSession(conn *sdk.AgentSideConnection, log func(string, ...any), cfg *config.Config, sess *sessions.Session, r roots) *session {
	s := &session{
		id: sess.Name(), conn: conn, log: log, cfg: cfg, sess: sess, roots: r,
		stream: rlm.NewStream(), turn: make(chan struct{}, 1),
		closing: make(chan struct{}), pumpDone: make(chan struct{}),
	}
	s.level.Store(int32(cfg.REPL.Permission))
	return s
}

// Level is the repository's permission level, read by its jail at every
// operation; session/set_mode changes it.
func (s *session) Level() config.Permission { return config.Permission(s.level.Load()) }

// send sends one update to the editor. A failure (the editor went away)
// is logged: the work and its saving go on regardless.
func (s *session) send(u sdk.SessionUpdate) {
	err := s.conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: sdk.SessionId(s.id), Update: u})
	if err != nil {
		s.log("session %s: sending an update failed: %v", s.id, err)
	}
}

// flush is emitted after a turn returns, so the prompt answers only once
// every update of the turn is sent.
type flush struct{ done chan string }

func (flush) Of() rlm.Agent { return rlm.Agent{} }

// pump sends the updates of the session's events until the stream closes.
func (s *session) pump() {
	defer close(s.pumpDone)
	m := newMapper(s.roots)
	lastAsk := "" // the call of the latest ApprovalRequested
	for {
		e, ok := s.stream.Next(context.Background())
		if !ok {
			return
		}
		switch e := e.(type) {
		case rlm.ApprovalRequested:
			lastAsk = e.ID
		case *permissionAsk:
			id := e.call
			if id == "" {
				id = lastAsk
			}
			go s.ask(e, id)
		case flush:
			e.done <- m.rootStop
		case rlm.Error:
			s.log("session %s: %s%s", s.id, who(e.Agent), e.Message)
		}
		for _, u := range m.event(e) {
			s.send(u)
		}
	}
}

func who(a rlm.Agent) string {
	if a.Depth == 0 {
		return ""
	}
	return fmt.Sprintf("subagent %q (depth %d): ", a.Name, a.Depth)
}

// prompt runs one root turn and says why it stopped.
func (s *session) prompt(ctx context.Context, text string) (sdk.PromptResponse, error) {
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		// Cancelled while another turn ran: answered at once, and saved
		// as cancelled once that turn is over.
		go s.saveCancelled(text)
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case <-s.closing:
		return sdk.PromptResponse{}, errClosed
	}
	defer func() { <-s.turn }()
	select {
	case <-s.closing:
		return sdk.PromptResponse{}, errClosed
	default:
	}
	if ctx.Err() != nil {
		// Cancelled while it waited for the turn (select picks either
		// ready case): the turn runs on the cancelled context, which
		// sends nothing to the endpoint and saves the prompt as stopped,
		// so a later session/load shows it.
		s.agent.Runner.Turn(ctx, text)
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.cancelTurn = cancel
	s.mu.Unlock()
	res, err := s.agent.Runner.Turn(ctx, text)
	s.mu.Lock()
	s.cancelTurn = nil
	s.mu.Unlock()
	stop := s.flush()
	switch {
	case res.Status == rlm.Stopped:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled, Usage: usage(res.Usage)}, nil
	case err != nil || res.Status == rlm.Failed:
		if err == nil {
			err = errors.New(res.Text)
		}
		return sdk.PromptResponse{}, &sdk.RequestError{Code: codeInternal, Message: "the turn failed: " + err.Error()}
	}
	reason := sdk.StopReasonEndTurn
	switch text := s.refusal(); {
	case text != "":
		s.send(message(text, nil))
		reason = sdk.StopReasonRefusal
	case stop == "content_filter":
		reason = sdk.StopReasonRefusal
	case stop == "length":
		reason = sdk.StopReasonMaxTokens
	}
	return sdk.PromptResponse{StopReason: reason, Usage: usage(res.Usage)}, nil
}

// saveCancelled saves a prompt cancelled before it ran, when the turn is
// free: its turn runs on a cancelled context (nothing is sent to the
// endpoint; the prompt is saved as stopped).
func (s *session) saveCancelled(text string) {
	select {
	case s.turn <- struct{}{}:
	case <-s.closing:
		return
	}
	defer func() { <-s.turn }()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.agent.Runner.Turn(ctx, text)
}

// flush waits until the pump has sent every update emitted so far and
// returns the finish_reason of the root's latest reply when it was cut at
// the token limit ("length") or stopped by the content filter
// ("content_filter"), else "".
func (s *session) flush() string {
	f := flush{done: make(chan string, 1)}
	s.stream.Emit(f)
	select {
	case stop := <-f.done:
		return stop
	case <-s.pumpDone:
		return ""
	}
}

// refusal is the refusal text of the root's latest reply, "" when it did
// not refuse.
func (s *session) refusal() string {
	items := s.agent.Runner.Conversation()
	for i := len(items) - 1; i >= 0; i-- {
		if m := items[i].Message; !items[i].Hidden && m.Role == "assistant" {
			return refusalText(m)
		}
	}
	return ""
}

// refusalText is the text that shows a reply's refusal after its content
// (on a paragraph of its own when there is content), "" without one.
func refusalText(m llm.Message) string {
	raw, _ := m.Get("refusal")
	var s string
	json.Unmarshal(raw, &s)
	if s != "" && m.Content != "" {
		s = "\n\n" + s
	}
	return s
}

// close stops the running turn, waits for it to save, stops the agent's
// servers and releases the session's lock. A session that never got a
// prompt leaves nothing behind.
func (s *session) close() {
	s.once.Do(func() {
		close(s.closing)
		s.mu.Lock()
		if s.cancelTurn != nil {
			s.cancelTurn()
		}
		s.mu.Unlock()
		s.turn <- struct{}{} // the running turn has returned
		s.stream.Close()
		<-s.pumpDone
		if s.agent.Close != nil {
			s.agent.Close()
		}
		discard(s.sess)
	})
}

// discard closes sess, removing its directory when it holds no
// conversation (a session that never got a prompt).
func discard(sess *sessions.Session) {
	_, err := os.Stat(sess.RootPath())
	unused := errors.Is(err, fs.ErrNotExist)
	sess.Close()
	if unused && sess.Dir() != "" {
		os.Remove(filepath.Join(sess.Dir(), sessions.LockName))
		os.Remove(sess.Dir())
	}
}

// modes are the permission levels as session modes.
func (s *session) modes() *sdk.SessionModeState {
	return &sdk.SessionModeState{AvailableModes: availableModes, CurrentModeId: sdk.SessionModeId(s.Level().String())}
}

var availableModes = []sdk.SessionMode{
	{Id: "none", Name: "No file access", Description: sdk.Ptr("Agents can neither read nor write the repository.")},
	{Id: "read-only", Name: "Read-only", Description: sdk.Ptr("Agents read the repository; every write is refused.")},
	{Id: "read-write", Name: "Read-write", Description: sdk.Ptr("Agents read and write the repository.")},
}

// setMode changes the permission level at once, even during a call, and
// saves it to config.toml as the UI's Shift+Tab does. A failed save keeps
// the level for this session and says so.
func (s *session) setMode(id string) error {
	p, ok := config.ParsePermission(id)
	if !ok {
		return invalidParams(fmt.Sprintf("unknown mode %q; the modes are none, read-only and read-write", id))
	}
	s.level.Store(int32(p))
	if err := config.SavePermission(s.cfg.Path, p); err != nil {
		s.log("session %s: %v", s.id, err)
		s.send(message(fmt.Sprintf("Permission is %s for this session, but saving it failed: %v\n", p, err), nil))
	}
	return nil
}

// info is the session_info_update after a turn: the time, and the first
// prompt as the title.
func (s *session) info(title string) sdk.SessionUpdate {
	u := sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{
		UpdatedAt: sdk.Ptr(time.Now().UTC().Format(time.RFC3339)),
	}}
	if title != "" {
		u.SessionInfoUpdate.Title = sdk.Ptr(title)
	}
	return u
}
