// Session directories: creation, naming, saving, listing and renaming.

package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Store is the directory holding every session ($HARNESS_HOME/sessions).
type Store struct {
	Dir string
	// Now returns the time used to name new sessions; nil means time.Now.
	Now func() time.Time
}

// Session is one session directory. The zero value is not usable; get one
// from Store.New (created lazily, on the first Save) or Store.Open. Its
// methods are safe for concurrent use.
type Session struct {
	mu     sync.Mutex
	store  Store
	name   string // "" until created
	redact *Redactor
}

// New returns a session that does not exist yet: its directory is created
// and named by the first Save.
func (st Store) New(r *Redactor) *Session { return &Session{store: st, redact: r} }

// Open returns the existing session name; it must hold library/root.json.
func (st Store) Open(name string, r *Redactor) (*Session, error) {
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("open session %q: %w", name, err)
	}
	s := &Session{store: st, name: name, redact: r}
	if _, err := os.Stat(s.RootPath()); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no session named %q in %s (run harness --resume to list them)", name, st.Dir)
		}
		return nil, fmt.Errorf("open session %q: %w", name, err)
	}
	s.removeStaleTemps()
	return s, nil
}

// removeStaleTemps removes temporary files a killed process left behind
// (older than a minute, so a save in progress elsewhere is never touched).
func (s *Session) removeStaleTemps() {
	for _, sub := range []string{"library", "deep"} {
		tmps, _ := filepath.Glob(filepath.Join(s.Dir(), sub, ".*.json.*.tmp"))
		for _, t := range tmps {
			if fi, err := os.Lstat(t); err == nil && time.Since(fi.ModTime()) > time.Minute {
				os.Remove(t)
			}
		}
	}
}

// Name returns the session's name, "" before it is created.
func (s *Session) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// Dir returns the session's directory, "" before it is created.
func (s *Session) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dirLocked()
}

func (s *Session) dirLocked() string {
	if s.name == "" {
		return ""
	}
	return filepath.Join(s.store.Dir, s.name)
}

// LibraryDir returns the directory holding root.json and the depth-1 files.
func (s *Session) LibraryDir() string {
	if d := s.Dir(); d != "" {
		return filepath.Join(d, "library")
	}
	return ""
}

// RootPath returns the path of the root's conversation file.
func (s *Session) RootPath() string { return s.Path(0, "") }

// Path returns the file of the agent at depth started by rlm call id
// (id is ignored for the root): library/root.json, library/<id>.json at
// depth 1, deep/<id>.json deeper. It is "" before the session is created.
func (s *Session) Path(depth int, id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pathLocked(depth, id)
}

func (s *Session) pathLocked(depth int, id string) string {
	d := s.dirLocked()
	switch {
	case d == "":
		return ""
	case depth == 0:
		return filepath.Join(d, "library", "root.json")
	case depth == 1:
		return filepath.Join(d, "library", id+".json")
	}
	return filepath.Join(d, "deep", id+".json")
}

// Save writes the file of the agent at depth started by rlm call id,
// creating the session first when needed. Secrets are redacted from f in
// place before it is written.
func (s *Session) Save(depth int, id string, f *File) error {
	if depth > 0 && (id == "" || strings.ContainsAny(id, `/\.`) || id == RootParent) {
		return fmt.Errorf("save subagent: bad call ID %q", id)
	}
	s.redact.File(f)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.name == "" {
		if err := s.createLocked(); err != nil {
			return err
		}
	}
	path := s.pathLocked(depth, id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return WriteFile(path, f)
}

// Create creates the session's directory now (it is otherwise created by
// the first Save) and returns its name.
func (s *Session) Create() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.name == "" {
		if err := s.createLocked(); err != nil {
			return "", err
		}
	}
	return s.name, nil
}

func (s *Session) createLocked() error {
	if err := os.MkdirAll(s.store.Dir, 0o700); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	now := time.Now
	if s.store.Now != nil {
		now = s.store.Now
	}
	base := now().Local().Format("20060102-150405")
	for n := 1; ; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		err := os.Mkdir(filepath.Join(s.store.Dir, name), 0o700)
		if err == nil {
			s.name = name
			return nil
		}
		if !errors.Is(err, fs.ErrExist) || n >= 1000 {
			return fmt.Errorf("create session %s: %w", name, err)
		}
	}
}

// LoadRoot loads the root's conversation file, which must be a root's
// (depth 0).
func (s *Session) LoadRoot() (*File, error) {
	p := s.RootPath()
	if p == "" {
		return nil, errors.New("load session: the session has not been created yet")
	}
	f, err := Load(p)
	if err == nil && f.Local.Depth != 0 {
		return nil, fmt.Errorf("parse %s: _harness_local: depth is %d, but the root's file has depth 0 (is it a subagent's file?)", p, f.Local.Depth)
	}
	return f, err
}

// CheckName reports why name cannot name a session, or nil.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator):
		return fmt.Errorf("the name %q contains %q", name, "/")
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("the name %q starts with %q", name, ".")
	case strings.ContainsRune(name, 0):
		return errors.New("the name contains a NUL byte")
	}
	return nil
}

// Rename renames the session's directory to name, following the /rename
// rules: refused while a subagent is running, for a name CheckName rejects,
// for a name already taken, and before the session exists.
func (s *Session) Rename(name string, subagentRunning bool) error {
	if subagentRunning {
		return errors.New("cannot rename while a subagent is running; wait for it to finish or press Esc")
	}
	if err := CheckName(name); err != nil {
		return fmt.Errorf("cannot rename: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.name == "" {
		return errors.New("cannot rename yet: the session is created when its first message is sent")
	}
	if name == s.name {
		return nil
	}
	dst := filepath.Join(s.store.Dir, name)
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("cannot rename: the name %q is taken", name)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot rename: %w", err)
	}
	if err := os.Rename(s.dirLocked(), dst); err != nil {
		return fmt.Errorf("cannot rename: %w", err)
	}
	s.name = name
	return syncDir(s.store.Dir)
}

// Info describes a saved session for the --resume list.
type Info struct {
	Name    string
	Updated time.Time // modification time of library/root.json
	Preview string    // start of the first user message, on one line
}

// List returns the saved sessions, least recently updated first. Only
// directories holding library/root.json count. A missing store directory
// is an empty list.
func (st Store) List() ([]Info, error) {
	entries, err := os.ReadDir(st.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []Info
	for _, e := range entries {
		if !e.IsDir() || CheckName(e.Name()) != nil {
			continue
		}
		root := filepath.Join(st.Dir, e.Name(), "library", "root.json")
		fi, err := os.Stat(root)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, Info{Name: e.Name(), Updated: fi.ModTime(), Preview: preview(root)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.Before(out[j].Updated)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
