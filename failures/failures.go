// Package failures records app denials and unsupported REPL operations in
// $HARNESS_HOME/failures.jsonl and counts how often a failure recurs.
//
// The file is append-only JSON Lines, one Note per line:
//
//	{"time":"2026-11-29T17:40:00Z","session":"…","kind":"denied","message":"…","code":"…"}
//
// session is the session name for the root and the call ID for a subagent;
// kind is one of the Kind constants; message is the error the model was
// given; code is the tool input that caused it (REPL code, for example).
// Notes are for the user (the UI shows a failure's first line and how often
// it has occurred); they are never sent to the model or saved in
// conversation files. Lines that do not parse are skipped when counting, so
// a damaged line never hides the rest of the file.
package failures

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"harness/sensitive"
)

// Kinds of failure.
const (
	KindDenied      = "denied"      // the app refused an operation (permission, escape, deny list, refused approval)
	KindUnsupported = "unsupported" // the code used something the REPL does not offer
	KindMCP         = "mcp"         // an MCP server failed to start or stopped
)

// FileName is the log's name inside $HARNESS_HOME.
const FileName = "failures.jsonl"

// Note is one recorded failure.
type Note struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Kind    string    `json:"kind"`
	Message string    `json:"message"`
	Code    string    `json:"code"`
}

// Log appends Notes to one file. Its methods are safe for concurrent use
// within a process; across processes each Append is a single write to a file
// opened with O_APPEND, so lines do not interleave.
type Log struct {
	path   string
	mu     sync.Mutex
	redact func(string) string // nil keeps text as it is
}

// Open returns the log $home/failures.jsonl. The file is created on the
// first Append.
func Open(home string) *Log { return &Log{path: filepath.Join(home, FileName)} }

// Redacting makes l pass every note's session, message and code through
// redact before it is written or counted (harness removes API key values
// this way), and returns l.
func (l *Log) Redacting(redact func(string) string) *Log {
	l.redact = redact
	return l
}

// clean removes the secrets harness knows (redact) and the values that
// look like secrets (sensitive.Scrub: a URL's access_token, a --token=
// argument) from a note.
func (l *Log) clean(n Note) Note {
	if l.redact != nil {
		n.Session, n.Message, n.Code = l.redact(n.Session), l.redact(n.Message), l.redact(n.Code)
	}
	n.Message, n.Code = sensitive.Scrub(n.Message), sensitive.Scrub(n.Code)
	return n
}

// Path returns the log's file path.
func (l *Log) Path() string { return l.path }

// Append writes n as one line. A zero Time is replaced by the current time.
func (l *Log) Append(n Note) error {
	n = l.clean(n)
	if n.Time.IsZero() {
		n.Time = time.Now().UTC()
	}
	line, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("encode failure note: %w", err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("record failure: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("record failure: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("record failure in %s: %w", l.path, err)
	}
	return f.Close()
}

// Record appends n and returns how often n's first message line has now
// occurred in the whole log, across sessions (at least 1).
func (l *Log) Record(n Note) (int, error) {
	n = l.clean(n)
	if err := l.Append(n); err != nil {
		return 0, err
	}
	return l.Count(n.Message)
}

// Count returns how many notes in the log have the same first message line
// as message. A missing log counts zero.
func (l *Log) Count(message string) (int, error) {
	want := FirstLine(l.clean(Note{Message: message}).Message)
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.Open(l.path)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("count failures: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	count := 0
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"message"`)) {
			continue
		}
		var n Note
		if json.Unmarshal(line, &n) != nil {
			continue
		}
		if FirstLine(n.Message) == want {
			count++
		}
	}
	if err := sc.Err(); err != nil {
		return count, fmt.Errorf("count failures in %s: %w", l.path, err)
	}
	return count, nil
}

// FirstLine returns the first line of s without surrounding spaces.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
