// Golden tests: testdata/*.txtar cases (files, a call, the expected output or error).

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"harness/config"
	"harness/goldentest"
	"harness/jail"
)

// goldenTime is the modification time every entry of a case's tree gets.
var goldenTime = time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)

// callArgs holds the JSON arguments of every tool, as the model sends them.
type callArgs struct {
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	Pattern    string `json:"pattern"`
	Fixed      bool   `json:"fixed"`
	IgnoreCase bool   `json:"ignore_case"`
	Context    int    `json:"context"`
	Include    string `json:"include"`
	Recursive  bool   `json:"recursive"`
}

// goldenCase is a parsed testdata file; see testdata/README.md.
type goldenCase struct {
	tool   string
	args   callArgs
	limit  int
	level  config.Permission
	root   string
	cancel bool
}

func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txtar", func(t *testing.T, c *goldentest.Case) {
		t.Parallel()
		runGolden(t, c)
	})
}

func runGolden(t *testing.T, gc *goldentest.Case) {
	ar := gc.Archive
	dir := t.TempDir()
	c := goldenCase{limit: 100000, level: config.PermReadOnly, root: jail.Repository}
	sections := map[string]int{}
	for i, f := range ar.Files {
		sections[f.Name] = i
		if name, ok := strings.CutPrefix(f.Name, "in/"); ok {
			writeFile(t, filepath.Join(dir, name), f.Data)
		}
	}
	if i, ok := sections["setup"]; ok {
		for _, line := range strings.Split(strings.TrimSpace(string(ar.Files[i].Data)), "\n") {
			setup(t, dir, &c, line)
		}
	}
	call, ok := sections["call"]
	if !ok {
		t.Fatal("no call section")
	}
	tool, js, _ := strings.Cut(strings.TrimSpace(string(ar.Files[call].Data)), " ")
	c.tool = tool
	if err := json.Unmarshal([]byte(js), &c.args); err != nil {
		t.Fatalf("call arguments: %v", err)
	}
	touchAll(t, dir)
	out, err := runCall(t, dir, c)
	if strings.Contains(out, dir) || strings.Contains(out, os.TempDir()+"/") {
		t.Errorf("output contains a host path:\n%s", out)
	}
	want, section := out, "want"
	if err != nil {
		want, section = err.Error()+"\n", "error"
		if strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), os.TempDir()+"/") {
			t.Errorf("error contains a host path: %v", err)
		}
	}
	if c.tool == "list" {
		want = normalizeDirSizes(want)
	}
	gc.CheckOne(section, want, "want", "error")
}

func runCall(t *testing.T, dir string, c goldenCase) (string, error) {
	level := c.level
	root, err := jail.Open(c.root, dir, func() config.Permission { return level })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if c.cancel {
		cancel()
	}
	a := c.args
	switch c.tool {
	case "read_file":
		return ReadFile(ctx, root, ReadFileArgs{Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine}, c.limit)
	case "grep":
		return Grep(ctx, root, GrepArgs{Pattern: a.Pattern, Path: a.Path, Fixed: a.Fixed,
			IgnoreCase: a.IgnoreCase, Context: a.Context, Include: a.Include}, c.limit)
	case "list":
		return List(ctx, root, ListArgs{Path: a.Path, Recursive: a.Recursive, Include: a.Include}, c.limit)
	}
	t.Fatalf("unknown tool %q", c.tool)
	return "", nil
}

func setup(t *testing.T, dir string, c *goldenCase, line string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	p := func(i int) string { return filepath.Join(dir, f[i]) }
	var err error
	switch {
	case f[0] == "write" && len(f) >= 3:
		writeQuoted(t, dir, strings.TrimSpace(strings.TrimPrefix(line, "write")))
	case f[0] == "symlink" && len(f) == 3:
		os.MkdirAll(filepath.Dir(p(1)), 0o755)
		err = os.Symlink(f[2], p(1))
	case f[0] == "fifo" && len(f) == 2:
		err = syscall.Mkfifo(p(1), 0o644)
	case f[0] == "mkdir" && len(f) == 2:
		err = os.MkdirAll(p(1), 0o755)
	case f[0] == "level" && len(f) == 2:
		var ok bool
		if c.level, ok = config.ParsePermission(f[1]); !ok {
			err = fmt.Errorf("bad level")
		}
	case f[0] == "root" && len(f) == 2:
		c.root = f[1]
	case f[0] == "limit" && len(f) == 2:
		c.limit, err = strconv.Atoi(f[1])
	case f[0] == "cancel":
		c.cancel = true
	default:
		err = fmt.Errorf("unknown setup line")
	}
	if err != nil {
		t.Fatalf("setup %q: %v", line, err)
	}
}

// writeQuoted handles `write PATH "content"`, where PATH may itself be a
// Go-quoted string (for names with spaces, tabs or invalid UTF-8).
func writeQuoted(t *testing.T, dir, args string) {
	name, rest, _ := strings.Cut(args, " ")
	if strings.HasPrefix(args, `"`) {
		q, err := strconv.QuotedPrefix(args)
		if err != nil {
			t.Fatalf("write %s: %v", args, err)
		}
		name, _ = strconv.Unquote(q)
		rest = args[len(q):]
	}
	data, err := strconv.Unquote(strings.TrimSpace(rest))
	if err != nil {
		t.Fatalf("write %s: %v", args, err)
	}
	writeFile(t, filepath.Join(dir, name), []byte(data))
}

func writeFile(t *testing.T, name string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// touchAll gives every entry (symlinks themselves included) goldenTime.
func touchAll(t *testing.T, dir string) {
	ts := []unix.Timespec{unix.NsecToTimespec(goldenTime.UnixNano()), unix.NsecToTimespec(goldenTime.UnixNano())}
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A directory's size depends on the file system, so list output shows it as DIRSIZE.
var dirSize = regexp.MustCompile(`(?m)^(.*/"?) \d+ (\S+)$`)

func normalizeDirSizes(s string) string { return dirSize.ReplaceAllString(s, "$1 DIRSIZE $2") }
