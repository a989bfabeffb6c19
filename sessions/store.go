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

	"harness/atomicfile"
	"harness/redact"
)

// Store is the directory holding every session ($HARNESS_HOME/sessions).
type Store struct {
	Dir string
	// Now returns the time used to name new sessions; nil means time.Now.
	Now func() time.Time
}

// Session is one session directory, held open by this process: from its
// creation (or Open) until Close, it holds the session's lock (see
// LockName), so no other process can open it. The zero value is not
// usable; get one from Store.New (created lazily, on the first Save) or
// Store.Open. Its methods are safe for concurrent use.
type Session struct {
	mu       sync.Mutex
	store    Store
	name     string // "" until created
	redactor *redact.Redactor
	lock     *os.File // nil before creation, after Close, or without locking
	noLock   error    // why the session could not be locked, when it could not
	closed   bool
	sweeper  atomicfile.Sweeper
}

// New returns a session that does not exist yet: its directory is created
// and named by the first Save.
func (st Store) New(r *redact.Redactor) *Session { return &Session{store: st, redactor: r} }

// Open returns the existing session name, which must hold
// library/root.json, and takes its lock. A session another process has open
// is refused with an *InUseError naming the holder's PID.
func (st Store) Open(name string, r *redact.Redactor) (*Session, error) {
	s, err := st.existing(name)
	if err != nil {
		return nil, err
	}
	s.redactor = r
	if err := s.lockLocked(); err != nil {
		return nil, err
	}
	return s, nil
}

// LibraryDir returns the library directory of the existing session name
// (the folder holding library/root.json), without opening the session:
// reading it needs no lock.
func (st Store) LibraryDir(name string) (string, error) {
	s, err := st.existing(name)
	if err != nil {
		return "", err
	}
	return s.LibraryDir(), nil
}

// existing returns the session name, not opened, once its name is valid
// and its library/root.json exists.
func (st Store) existing(name string) (*Session, error) {
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("open session %q: %w", name, err)
	}
	s := &Session{store: st, name: name}
	if _, err := os.Stat(s.RootPath()); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no session named %q in %s (run harness --resume to list them)", name, st.Dir)
		}
		return nil, fmt.Errorf("open session %q: %w", name, err)
	}
	return s, nil
}

// lockLocked takes the lock of the session's directory; the caller holds
// mu (or owns s alone). A file system without locks is not an error: the
// session opens unlocked and LockProblem says why.
func (s *Session) lockLocked() error {
	f, err := acquire(s.dirLocked(), s.name)
	if errors.Is(err, errNoLocking) {
		s.noLock = err
		return nil
	}
	if err != nil {
		return err
	}
	s.lock = f
	return nil
}

// LockProblem returns why the session could not be locked against other
// processes (a file system without locks), or nil when it is locked or not
// created yet.
func (s *Session) LockProblem() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.noLock
}

// Close releases the session's lock, so another process may open it. The
// session cannot be saved or renamed afterwards. Close is idempotent.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	release(s.lock)
	s.lock, s.closed = nil, true
	return nil
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
	redactFile(s.redactor, f)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("save: session %s was closed", s.name)
	}
	if s.name == "" {
		if err := s.createLocked(); err != nil {
			return err
		}
	}
	path := s.pathLocked(depth, id)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	s.sweeper.Once(atomicfile.OS, dir)
	return WriteFile(path, f)
}

// Create creates the session's directory now (it is otherwise created by
// the first Save) and returns its name.
func (s *Session) Create() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errors.New("create session: the session was closed")
	}
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
			// No one can hold the lock of a directory just made: no
			// root.json yet, so Open refuses it.
			if err := s.lockLocked(); err != nil {
				s.name = ""
				os.Remove(filepath.Join(s.store.Dir, name, LockName))
				os.Remove(filepath.Join(s.store.Dir, name))
				return fmt.Errorf("create session %s: %w", name, err)
			}
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
// for a name already taken, and before the session exists. The lock moves
// with the directory (it is held on the lock file itself), so the session
// stays locked under its new name.
func (s *Session) Rename(name string, subagentRunning bool) error {
	if subagentRunning {
		return errors.New("cannot rename while a subagent is running; wait for it to finish or press Esc")
	}
	if err := CheckName(name); err != nil {
		return fmt.Errorf("cannot rename: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("cannot rename: the session was closed")
	}
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
	Name       string
	Updated    time.Time // modification time of library/root.json
	Preview    string    // start of the first user message, on one line
	Repository string    // the directory it was started in ("" when unreadable)
	InUse      bool      // another process has it open (see InUse)
	PID        int       // that process's PID, 0 when unknown
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
		info := Info{Name: e.Name(), Updated: fi.ModTime(), Preview: preview(root), Repository: repositoryOf(root, fi.Size())}
		info.InUse, info.PID = InUse(filepath.Join(st.Dir, e.Name()))
		out = append(out, info)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.Before(out[j].Updated)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// redactFile redacts every message of f in place, and the summary of
// every compaction entry: an entry with a secret is replaced by a
// redacted copy, since others may hold the old one.
func redactFile(r *redact.Redactor, f *File) {
	if !r.Active() {
		return
	}
	for i := range f.Items {
		it := &f.Items[i]
		if c := it.Compaction; c != nil {
			if s := r.String(c.Summary); s != c.Summary {
				cp := *c
				cp.Summary = s
				it.Compaction = &cp
			}
			continue
		}
		if !it.Hidden {
			it.Message = it.Message.Redact(r)
		}
	}
}
