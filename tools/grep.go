// The grep tool: walk, search files in parallel, print matches in path order.

package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
)

// GrepArgs are grep's arguments (JSON: pattern, path, fixed, ignore_case,
// context, include).
type GrepArgs struct {
	Pattern    string
	Path       string // file or directory, root-relative; "" means "."
	Fixed      bool   // pattern is a literal string
	IgnoreCase bool
	Context    int    // lines of context before and after each match
	Include    string // base-name glob selecting files at every depth
}

const maxContext = 1000

// grepJob is one walk item: a file to search, or a warning about a skipped
// entry, numbered in path order.
type grepJob struct {
	seq      int
	rel      string
	size     int64 // as listed, -1 unknown
	warn     string
	explicit bool       // named by the path argument (binary files get a warning)
	dir      *sharedDir // the file's directory, when the walk has it open
}

type grepResult struct {
	seq      int
	out      []byte
	searched bool // a text file was searched
	binary   bool // a binary file was skipped
	warn     string
	err      error // stops the search (cancellation, permission withdrawn)
}

func grep(ctx context.Context, r fileSystem, a GrepArgs, limit int) (string, error) {
	if a.Context < 0 || a.Context > maxContext {
		return "", fmt.Errorf("grep: context must be between 0 and %d lines; got %d (use read_file for long ranges)", maxContext, a.Context)
	}
	filter, err := newIncludeFilter(a.Include)
	if err != nil {
		return "", fmt.Errorf("grep: %v", err)
	}
	pat, err := compilePattern(a.Pattern, a.Fixed, a.IgnoreCase)
	if err != nil {
		return "", err
	}
	start := cleanArg(a.Path)
	info, err := r.Lstat(start)
	if err != nil {
		return "", pathError("grep", r, err)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		// A symlink named as the path is followed (inside the root only);
		// symlinks met while walking are skipped.
		if info, err = r.Stat(start); err != nil {
			return "", pathError("grep", r, err)
		}
	}
	out, err := search(ctx, r, start, info, filter, pat, a.Context, limit)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return "", fmt.Errorf("grep: cancelled")
		}
		return "", pathError("grep", r, err)
	}
	if out.matches == 0 {
		return noMatches(a, start, out) + out.warnings(), nil
	}
	return out.text(limit), nil
}

// noMatches says what was searched, so that the model can tell an absent
// text from a filter or path that selected nothing.
func noMatches(a GrepArgs, start string, out *grepOutput) string {
	what := plural(out.searched, "file") + " searched"
	if out.binary > 0 {
		what += fmt.Sprintf(", %s skipped", plural(out.binary, "binary file"))
	}
	if a.Include != "" {
		what += fmt.Sprintf(", include %q", a.Include)
	}
	return fmt.Sprintf("(no matches for %s in %s: %s)\n", showPattern(a.Pattern), quotePath(start), what)
}

// search runs the pipeline: one goroutine walks and numbers the files in
// path order, workers() goroutines search them, and the caller's goroutine
// puts the results back in order.
func search(ctx context.Context, r fileSystem, start string, info fs.FileInfo, filter includeFilter,
	pat *pattern, lines, limit int) (*grepOutput, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan grepJob, 256)
	var walkErr error
	go func() {
		defer close(jobs)
		walkErr = feed(ctx, r, start, info, filter, jobs)
	}()
	results := make(chan grepResult, 256)
	var wg sync.WaitGroup
	for range workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			searchJobs(ctx, r, pat, lines, jobs, results)
		}()
	}
	go func() { wg.Wait(); close(results) }()
	out, err := collect(results, lines > 0, limit)
	cancel()
	for range results { // drain, so that the workers end
	}
	if err == nil {
		err = walkErr // safe: the walker ended before the workers did
	}
	return out, err
}

func workers() int { return max(2, runtime.GOMAXPROCS(0)) }

// feed sends the files to search, in path order, and warnings for skipped
// entries.
func feed(ctx context.Context, r fileSystem, start string, info fs.FileInfo, filter includeFilter, jobs chan<- grepJob) error {
	seq := 0
	send := func(j grepJob) error {
		j.seq = seq
		seq++
		select {
		case jobs <- j:
			return nil
		case <-ctx.Done():
			j.dir.release()
			return ctx.Err()
		}
	}
	if !info.IsDir() {
		if w := skipReason(info.Mode()); w != "" {
			return send(grepJob{rel: start, warn: w})
		}
		return send(grepJob{rel: start, size: info.Size(), explicit: true})
	}
	visit := func(rel string, d fs.DirEntry, dir *sharedDir) error {
		if d.IsDir() || !filter.match(d.Name()) {
			return nil
		}
		if w := skipReason(d.Type()); w != "" {
			return send(grepJob{rel: rel, warn: w})
		}
		// Entries listed in an os.Root carry their metadata already.
		size := int64(-1)
		if info, err := d.Info(); err == nil {
			size = info.Size()
		}
		return send(grepJob{rel: rel, size: size, dir: dir.acquire()})
	}
	dirErr := func(rel string, err error) error {
		if err == errDirLoop {
			return send(grepJob{rel: rel, warn: "skipped " + err.Error()})
		}
		if err := denied(r, "grep"); err != nil {
			return err
		}
		return send(grepJob{rel: rel, warn: fmt.Sprintf("cannot read directory: %v", err)})
	}
	return walk(ctx, r, start, info, true, visit, dirErr)
}

// skipReason says why a non-regular file is skipped ("" for a regular file).
func skipReason(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeSymlink != 0:
		return "skipped symlink (symlinks are not followed; name its target as path to search it)"
	}
	return "skipped " + kindName(m)
}

// kindName names the kind of a non-regular file.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

func searchJobs(ctx context.Context, r fileSystem, pat *pattern, context int, jobs <-chan grepJob, results chan<- grepResult) {
	fs := &fileSearch{m: newMatcher(pat), context: context}
	for j := range jobs {
		res := grepResult{seq: j.seq, warn: j.warn}
		if j.warn == "" {
			if err := ctx.Err(); err != nil {
				res.err = err
			} else {
				res.out, res.err = fs.search(ctx, r, j, j.size)
				res.searched = res.err == nil
				res.binary = errors.Is(res.err, errBinary)
				res.warn, res.err = explainSkip(r, j, res.err)
			}
		}
		j.dir.release()
		if res.warn != "" {
			res.warn = quotePath(j.rel) + ": " + res.warn
		}
		results <- res
	}
}

// explainSkip turns a file's search error into a warning, or keeps it as an
// error that stops the search.
func explainSkip(r fileSystem, j grepJob, err error) (string, error) {
	switch {
	case err == nil:
		return "", nil
	case errors.Is(err, errBinary):
		if j.explicit {
			return "skipped binary file (it contains a NUL byte)", nil
		}
		return "", nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "", err
	}
	if err := denied(r, "grep"); err != nil {
		return "", err
	}
	return fmt.Sprintf("skipped: %v", err), nil
}

// grepOutput gathers results in path order, keeping at most limit bytes of
// the match text (the rest is counted for the truncation notice).
type grepOutput struct {
	parts    [][]byte
	kept     int
	total    int
	matches  int // files with matches
	searched int // text files searched
	binary   int // binary files skipped
	warns    []string
}

func collect(results <-chan grepResult, separate bool, limit int) (*grepOutput, error) {
	o := &grepOutput{}
	pending := map[int]grepResult{}
	next := 0
	for res := range results {
		if res.err != nil {
			return o, res.err
		}
		pending[res.seq] = res
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			o.add(r, separate, limit)
		}
	}
	return o, nil
}

var separator = []byte("--\n")

func (o *grepOutput) add(r grepResult, separate bool, limit int) {
	if r.searched {
		o.searched++
	}
	if r.binary {
		o.binary++
	}
	if r.warn != "" {
		o.warns = append(o.warns, r.warn)
	}
	if len(r.out) == 0 {
		return
	}
	if separate && o.matches > 0 {
		o.write(separator, limit)
	}
	o.matches++
	o.write(r.out, limit)
}

func (o *grepOutput) write(b []byte, limit int) {
	o.total += len(b)
	if room := limit - o.kept; limit > 0 && room < len(b) {
		b = b[:max(room, 0)]
	}
	if len(b) > 0 {
		o.parts = append(o.parts, b)
		o.kept += len(b)
	}
}

func (o *grepOutput) warnings() string {
	var b strings.Builder
	for _, w := range o.warns {
		b.WriteString("warning: " + w + "\n")
	}
	return b.String()
}

func (o *grepOutput) text(limit int) string {
	w := o.warnings()
	var b strings.Builder
	b.Grow(o.kept + len(w))
	for _, p := range o.parts {
		b.Write(p)
	}
	b.WriteString(w)
	return truncatePrefix(b.String(), o.total+len(w), limit, func(string) string {
		return "Narrow the search with path or include, or a more specific pattern."
	})
}
