// Package atomicfile replaces files atomically and cleans up after writers
// that were killed halfway.
//
// # Writing
//
// An atomic write never changes the target in place: it writes a temporary
// file in the target's directory, syncs it, renames it over the target and
// syncs the directory. A process killed at any instant leaves the old file
// or the new one, never a torn one; what it may leave besides is the
// temporary file. Write does this for a host path; jail.Root.WriteFile does
// the same inside a confined directory, naming its temporary with TempName.
//
// # Temporary names
//
// Every atomic writer of harness (session files, config.toml, files written
// by apply_patch and by the REPL's write_text) names its temporary
//
//	.NAME.harness-PID-RANDOM
//
// where NAME is the target's base name (cut, on a character boundary, so the
// whole name fits in 255 bytes), PID is the writing process's ID in decimal
// (a REPL worker's harness's, see WriteFor)
// and RANDOM is 12 lowercase hexadecimal digits. Parse recognizes exactly
// this form; anything else is never touched.
//
// # Cleaning up
//
// A temporary is an orphan when the process its name records is gone (kill
// with signal 0 reports no such process). Sweep removes the orphans of one
// directory and keeps every other temporary: a live process may be writing
// it (another harness, or a REPL worker of this one). Writers sweep a
// directory when they write into it: every time (config.toml, written
// rarely) or, through a Sweeper, at their first write there (session files,
// saved at every message; the repository and the store, where a script may
// write thousands of files into one large directory). A PID reused by an unrelated process keeps
// its orphan until that process ends, which errs on the side of keeping.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"
)

// marker separates the target's name from the writer's PID.
const marker = ".harness-"

// owner is the PID temporaries record: this process's, or the one set by
// WriteFor.
var owner atomic.Int64

func ownerPID() int {
	if p := owner.Load(); p > 0 {
		return int(p)
	}
	return os.Getpid()
}

// WriteFor makes this process record pid in its temporaries, and treat
// temporaries recording pid as its own, instead of its own PID. A REPL
// worker writes for the harness process that started it and dies with it:
// its temporaries are orphans exactly when that harness is gone, whoever
// reaps the worker (a worker outliving a killed harness may stay a zombie,
// which the null signal would call alive).
func WriteFor(pid int) { owner.Store(int64(pid)) }

// maxName is the longest file name most file systems accept, in bytes.
const maxName = 255

// TempName returns a new temporary name for an atomic write of the file
// called base, recording this process's PID.
func TempName(base string) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	suffix := marker + strconv.Itoa(ownerPID()) + "-" + hex.EncodeToString(b[:])
	if room := maxName - 1 - len(suffix); len(base) > room {
		for room > 0 && !utf8.RuneStart(base[room]) {
			room--
		}
		base = base[:room]
	}
	return "." + base + suffix
}

// Parse reports whether name is a temporary name (see TempName) and, if so,
// the base name it was made for and the PID of its writer.
func Parse(name string) (base string, pid int, ok bool) {
	i := strings.LastIndex(name, marker)
	if i < 2 || name[0] != '.' {
		return "", 0, false
	}
	num, random, found := strings.Cut(name[i+len(marker):], "-")
	if !found || len(random) != 12 || !isHex(random) || num == "" || num[0] == '0' || len(num) > 10 {
		return "", 0, false
	}
	pid, err := strconv.Atoi(num)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != num {
		return "", 0, false
	}
	return name[1:i], pid, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Orphan reports whether name is a temporary whose writing process is gone.
func Orphan(name string) bool {
	_, pid, ok := Parse(name)
	return ok && pid != ownerPID() && !alive(pid)
}

// alive reports whether a process with this PID exists (EPERM: it exists
// but belongs to someone else).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Dir is a directory tree Sweep can list and remove entries in: OS for host
// paths, or a confined root (os.Root's FS with its Remove).
type Dir interface {
	ReadDir(name string) ([]fs.DirEntry, error)
	Remove(name string) error
}

// OS is the host file system: names are host paths.
var OS Dir = osDir{}

type osDir struct{}

func (osDir) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osDir) Remove(name string) error                   { return os.Remove(name) }

// Sweep removes the orphaned temporaries (see Orphan) directly inside dir of
// d and returns their names. Regular files only: a directory or symlink with
// a temporary's name is left alone. Errors removing one orphan do not stop
// the others; the first is returned.
func Sweep(d Dir, dir string) (removed []string, err error) {
	entries, err := d.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	join := path.Join
	if _, isOS := d.(osDir); isOS {
		join = filepath.Join
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !Orphan(e.Name()) {
			continue
		}
		if rerr := d.Remove(join(dir, e.Name())); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			if err == nil {
				err = rerr
			}
			continue
		}
		removed = append(removed, e.Name())
	}
	return removed, err
}

// Sweeper sweeps each directory once, the first time Once is called for it:
// enough for temporaries left by processes that died before this one
// started writing there, without listing a large directory at every write.
// The zero value is ready; it is safe for concurrent use.
type Sweeper struct {
	mu   sync.Mutex
	done map[string]bool
}

// Once sweeps dir of d unless this Sweeper already did. Errors are ignored:
// a sweep is housekeeping, and the write that follows reports real trouble.
func (s *Sweeper) Once(d Dir, dir string) {
	s.mu.Lock()
	if s.done[dir] {
		s.mu.Unlock()
		return
	}
	if s.done == nil {
		s.done = map[string]bool{}
	}
	s.done[dir] = true
	s.mu.Unlock()
	Sweep(d, dir)
}

// Write replaces the host file path atomically with what write writes,
// giving it mode perm. The temporary file is removed when anything fails.
// Callers sweep the directory first (Sweep, or a Sweeper).
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp := filepath.Join(dir, TempName(filepath.Base(path)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm&fs.ModePerm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// SyncDir fsyncs a directory so renames in it survive a crash. File systems
// that cannot sync directories (EINVAL) are not an error.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, fs.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
