// Finding and reading instruction files: the repository's top, the
// start-up files, a nested directory's file.

package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// DefaultMaxBytes is the cap used when Options.MaxBytes is 0.
const DefaultMaxBytes = 32768

// Options say what a Finder looks for.
type Options struct {
	// Home is $HARNESS_HOME, whose file is the person's own; "" skips it.
	Home string
	// Names are the file names looked for in each directory; the first
	// that exists is used there. Empty finds nothing.
	Names []string
	// MaxBytes caps the text of the start-up files together, and of each
	// nested file alone (0 means DefaultMaxBytes).
	MaxBytes int
}

// File is one instruction file found.
type File struct {
	Name string // as agents are shown it: ~/.harness/AGENTS.md, AGENTS.md, ../AGENTS.md, pkg/AGENTS.md
	Path string // its host path (for harness doctor; never shown to agents)
	Size int64  // its size on disk, in bytes
	// Text is what is given: valid UTF-8, without a byte-order mark, cut
	// by the cap; "" when Err is set or the cap left the whole file out.
	Text string
	// Omitted is how many bytes of the file the cap left out.
	Omitted int64
	// Err says why the file was skipped: it could not be read, or is not
	// UTF-8 text. Its message names no host path.
	Err error
}

// ErrNotText is File.Err for a file that is not UTF-8 text.
var ErrNotText = errors.New("it is not UTF-8 text")

// FS opens files for reading by slash-separated relative paths
// (*jail.Root and *os.Root have this method). A path whose directory does
// not exist, or is not a directory, must give an error satisfying
// errors.Is(err, fs.ErrNotExist) or syscall.ENOTDIR.
type FS interface {
	Open(name string) (*os.File, error)
}

// Finder finds the instruction files of one launch directory.
type Finder struct {
	opts   Options
	launch string
	top    string
	home   string // how the person's own files are named: "~/.harness"
}

// New returns a Finder for launchDir (a canonical absolute path).
func New(opts Options, launchDir string) *Finder {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	f := &Finder{opts: opts, launch: launchDir, top: Top(launchDir), home: opts.Home}
	if u, err := os.UserHomeDir(); err == nil && opts.Home != "" {
		if rel, err := filepath.Rel(u, opts.Home); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			f.home = filepath.ToSlash(filepath.Join("~", rel))
		}
	}
	return f
}

// Top returns the repository's top for dir: the nearest directory at or
// above it holding a .git entry (a directory, or the file of a worktree),
// else dir itself.
func Top(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Top returns the repository's top this Finder reads from.
func (f *Finder) Top() string { return f.top }

// Names returns the file names looked for in each directory.
func (f *Finder) Names() []string { return f.opts.Names }

// MaxBytes returns the cap on the text given.
func (f *Finder) MaxBytes() int { return f.opts.MaxBytes }

// Startup reads the person's own file, then the file of every directory
// from the repository's top down to the launch directory, and caps their
// text together at MaxBytes (see the package documentation). Only files
// that exist are returned, in that order.
func (f *Finder) Startup() []File {
	var files []File
	seen := map[string]bool{}
	add := func(fsys FS, dir, rel, shownDir string) {
		if file, ok := f.find(fsys, dir, rel, shownDir, -1); ok && !seen[file.Path] {
			seen[file.Path] = true
			files = append(files, file)
		}
	}
	if f.opts.Home != "" {
		if r, err := os.OpenRoot(f.opts.Home); err == nil {
			add(osFS{r}, f.opts.Home, ".", f.home)
			r.Close()
		}
	}
	if r, err := os.OpenRoot(f.top); err == nil {
		for _, rel := range chain(f.top, f.launch) {
			dir := filepath.Join(f.top, filepath.FromSlash(rel))
			shown, err := filepath.Rel(f.launch, dir)
			if err != nil {
				continue
			}
			add(osFS{r}, dir, rel, filepath.ToSlash(shown))
		}
		r.Close()
	}
	return capAll(files, f.opts.MaxBytes)
}

// Nested reads the instruction file of dir, a slash-separated directory
// relative to the launch directory, through fsys. ok is false when dir
// has none (or is not a directory).
func (f *Finder) Nested(fsys FS, dir string) (File, bool) {
	file, ok := f.find(fsys, filepath.Join(f.launch, filepath.FromSlash(dir)), dir, dir, f.opts.MaxBytes)
	return file, ok
}

// chain lists the directories from top down to launch, relative to top
// ("." first).
func chain(top, launch string) []string {
	rel, err := filepath.Rel(top, launch)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	out := []string{"."}
	if rel == "." {
		return out
	}
	cur := "."
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		cur = path.Join(cur, part)
		out = append(out, cur)
	}
	return out
}

// find returns the first of the names that exists in rel (read through
// fsys): its text read up to limit bytes (limit < 0 reads up to the cap
// applied later by capAll). hostDir and shownDir name the directory on the
// host and to agents.
func (f *Finder) find(fsys FS, hostDir, rel, shownDir string, limit int) (File, bool) {
	for _, name := range f.opts.Names {
		file := File{Name: path.Join(shownDir, name), Path: filepath.Join(hostDir, name)}
		found, err := file.read(fsys, path.Join(rel, name), limit, f.opts.MaxBytes)
		if !found {
			continue
		}
		if err != nil {
			file.Err, file.Text = err, ""
		}
		if file.Err == nil && strings.TrimSpace(file.Text) == "" && file.Omitted == 0 {
			return File{}, false // empty: nothing to give
		}
		return file, true
	}
	return File{}, false
}

// read fills f.Size and f.Text from the file p of fsys, reading at most
// limit bytes (maxBytes when limit < 0) and setting f.Omitted for the
// rest. found is false when there is no such file, or it is a directory.
func (f *File) read(fsys FS, p string, limit, maxBytes int) (found bool, err error) {
	file, err := fsys.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return false, nil
		}
		return true, readError(err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return true, readError(err)
	}
	switch {
	case fi.IsDir():
		return false, nil
	case !fi.Mode().IsRegular():
		return true, errors.New("it is not a regular file")
	}
	f.Size = fi.Size()
	if limit < 0 {
		limit = maxBytes
	}
	// A few bytes more than kept: the cut is then made on a rune boundary
	// that is known to be one.
	data, err := io.ReadAll(io.LimitReader(file, int64(limit)+utf8.UTFMax+3))
	if err != nil {
		return true, readError(err)
	}
	content := f.Size
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		data, content = data[3:], content-3
	}
	if int64(len(data)) < content {
		// Only a part was read: a rune it cuts is not an error.
		for n := 1; n < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); n++ {
			data = data[:len(data)-1]
		}
	}
	if !utf8.Valid(data) {
		return true, ErrNotText
	}
	f.Text = string(data)
	f.Omitted = max(content-int64(len(data)), 0)
	if len(f.Text) > limit {
		f.cut(limit)
	}
	return true, nil
}

// cut keeps at most n bytes of f.Text, ending at its last line break when
// one lies in the second half, else on a rune boundary.
func (f *File) cut(n int) {
	if len(f.Text) <= n {
		return
	}
	keep := f.Text[:n]
	if i := strings.LastIndexByte(keep, '\n'); i >= n/2 {
		keep = keep[:i+1]
	} else {
		for len(keep) > 0 && !utf8.ValidString(keep) {
			keep = keep[:len(keep)-1]
		}
	}
	f.Omitted += int64(len(f.Text) - len(keep))
	f.Text = keep
}

// capAll keeps files' texts within max bytes together: the first files
// whole, the one passing the limit cut, the rest left out.
func capAll(files []File, max int) []File {
	left := max
	for i := range files {
		f := &files[i]
		if f.Err != nil {
			continue
		}
		f.cut(left)
		left -= len(f.Text)
		if f.Omitted > 0 {
			left = 0 // the files after one that was cut are left out
		}
	}
	return files
}

// readError words a read failure without a host path.
func readError(err error) error {
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrPermission) && strings.Contains(err.Error(), "outside"):
		return errors.New("its path leads outside the repository")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	case strings.Contains(err.Error(), "escapes from parent"):
		return errors.New("it is a symlink leading outside the repository")
	case errors.As(err, &errno):
		return fmt.Errorf("it cannot be read (%v)", errno)
	}
	return errors.New("it cannot be read")
}

// RootFS returns an FS opening the files of r without blocking on a named
// pipe.
func RootFS(r *os.Root) FS { return osFS{r} }

// osFS opens files of an os.Root without blocking on a named pipe.
type osFS struct{ r *os.Root }

func (o osFS) Open(name string) (*os.File, error) {
	return o.r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
