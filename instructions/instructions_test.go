package instructions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// tree writes files (slash paths relative to root; a value "DIR" makes a
// directory, "FIFO" a named pipe, "->target" a symlink) and returns root.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, v := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case v == "DIR":
			err = os.MkdirAll(full, 0o755)
		case v == "FIFO":
			err = syscall.Mkfifo(full, 0o644)
		case strings.HasPrefix(v, "->"):
			err = os.Symlink(v[2:], full)
		default:
			err = os.WriteFile(full, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func names(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

func TestTop(t *testing.T) {
	root := tree(t, map[string]string{"repo/.git": "DIR", "repo/a/b": "DIR", "wt/.git": "gitdir: elsewhere", "wt/x": "DIR", "plain/y": "DIR"})
	for _, c := range []struct{ dir, want string }{
		{"repo", "repo"}, {"repo/a/b", "repo"}, {"wt/x", "wt"}, {"plain/y", "plain/y"},
	} {
		if got := Top(filepath.Join(root, c.dir)); got != filepath.Join(root, c.want) {
			t.Errorf("Top(%s) = %s, want %s", c.dir, got, filepath.Join(root, c.want))
		}
	}
}

func TestStartupOrderAndNames(t *testing.T) {
	root := tree(t, map[string]string{
		"home/AGENTS.md":             "mine",
		"repo/.git":                  "DIR",
		"repo/AGENTS.md":             "top",
		"repo/CLAUDE.md":             "top claude",
		"repo/a/AGENTS.md":           "  \n\n", // empty: passed over
		"repo/a/b/AGENTS.md":         "DIR",    // a directory: passed over
		"repo/a/b/CLAUDE.md":         "b claude",
		"repo/a/b/c/AGENTS.md":       "launch",
		"repo/a/b/c/d/AGENTS.md":     "below the launch directory: not read",
		"repo/a/b/c/AGENTS.override": "not a name looked for",
	})
	f := New(Options{Home: filepath.Join(root, "home"), Names: []string{"AGENTS.md", "CLAUDE.md"}}, filepath.Join(root, "repo/a/b/c"))
	files := f.Startup()
	want := []string{filepath.Join(root, "home") + "/AGENTS.md", "../../../AGENTS.md", "../CLAUDE.md", "AGENTS.md"}
	if strings.Join(names(files), " ") != strings.Join(want, " ") {
		t.Fatalf("names %q, want %q", names(files), want)
	}
	for i, text := range []string{"mine", "top", "b claude", "launch"} {
		if files[i].Text != text || files[i].Err != nil || files[i].Size != int64(len(text)) {
			t.Errorf("%s: %+v", files[i].Name, files[i])
		}
	}
	if files[1].Path != filepath.Join(root, "repo", "AGENTS.md") {
		t.Errorf("path %s", files[1].Path)
	}
	// CLAUDE.md first: the top's CLAUDE.md is used there instead.
	f = New(Options{Names: []string{"CLAUDE.md", "AGENTS.md"}}, filepath.Join(root, "repo"))
	if files := f.Startup(); len(files) != 1 || files[0].Text != "top claude" {
		t.Errorf("CLAUDE.md first: %+v", files)
	}
	if files := New(Options{Home: filepath.Join(root, "home")}, filepath.Join(root, "repo")).Startup(); len(files) != 0 {
		t.Errorf("no names: %+v", files)
	}
}

func TestStartupHomeInsideTheChain(t *testing.T) {
	root := tree(t, map[string]string{"AGENTS.md": "once"})
	files := New(Options{Home: root, Names: []string{"AGENTS.md"}}, root).Startup()
	if len(files) != 1 {
		t.Fatalf("the person's file, which is also the launch directory's, was read %d times: %+v", len(files), files)
	}
}

func TestHomeShownWithTilde(t *testing.T) {
	u, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	f := New(Options{Home: filepath.Join(u, ".harness"), Names: []string{"AGENTS.md"}}, t.TempDir())
	if f.home != "~/.harness" {
		t.Errorf("home shown as %q", f.home)
	}
}

func TestSkipped(t *testing.T) {
	root := tree(t, map[string]string{
		"outside/secret":     "secret",
		"repo/.git":          "DIR",
		"repo/AGENTS.md":     "\xff\xfe not text",
		"repo/a/AGENTS.md":   "FIFO",
		"repo/a/b/AGENTS.md": "->../../../outside/secret",
	})
	files := New(Options{Names: []string{"AGENTS.md"}}, filepath.Join(root, "repo/a/b")).Startup()
	if len(files) != 3 {
		t.Fatalf("files %+v", files)
	}
	for i, want := range []string{"not UTF-8", "not a regular file", "outside"} {
		if f := files[i]; f.Err == nil || !strings.Contains(f.Err.Error(), want) || f.Text != "" {
			t.Errorf("%s: %+v, want an error with %q", f.Name, f, want)
		} else if strings.Contains(f.Err.Error(), root) {
			t.Errorf("%s: the error names a host path: %v", f.Name, f.Err)
		}
	}
	if !errors.Is(files[0].Err, ErrNotText) {
		t.Errorf("not ErrNotText: %v", files[0].Err)
	}
	r := Render(files, nil, 100)
	for _, want := range []string{"[instruction file ../../AGENTS.md skipped: it is not UTF-8 text]", "[instruction file ../AGENTS.md skipped: it is not a regular file]"} {
		if !strings.Contains(r, want) {
			t.Errorf("Render lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "secret") {
		t.Errorf("the symlink's target was read:\n%s", r)
	}
}

func TestCap(t *testing.T) {
	long := strings.Repeat("line of ten\n", 20) // 240 bytes
	cases := []struct {
		name    string
		files   map[string]string
		max     int
		texts   []string
		omitted []int64
		note    string
	}{
		{name: "fits", files: map[string]string{"home/AGENTS.md": "aaaa", "repo/AGENTS.md": "bbbb"}, max: 8,
			texts: []string{"aaaa", "bbbb"}, omitted: []int64{0, 0}},
		{name: "second cut at a line, third left out", files: map[string]string{"home/AGENTS.md": "aaaa\n", "repo/.git": "DIR", "repo/AGENTS.md": long, "repo/sub/AGENTS.md": "cccc"},
			max: 105, texts: []string{"aaaa\n", long[:96], ""}, omitted: []int64{0, 144, 4},
			note: "[instructions cut to 105 bytes ([chat] instructions_max_bytes); left out: the last 144 of the 240 bytes of ../AGENTS.md and all 4 bytes of AGENTS.md]"},
		{name: "cut on a rune boundary", files: map[string]string{"repo/AGENTS.md": "ééééé"}, max: 5,
			texts: []string{"éé"}, omitted: []int64{6},
			note: "[instructions cut to 5 bytes ([chat] instructions_max_bytes); left out: the last 6 of the 10 bytes of AGENTS.md]"},
		{name: "byte-order mark dropped", files: map[string]string{"repo/AGENTS.md": "\ufeffbom"}, max: 3,
			texts: []string{"bom"}, omitted: []int64{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := tree(t, c.files)
			launch := filepath.Join(root, "repo")
			if _, ok := c.files["repo/sub/AGENTS.md"]; ok {
				launch = filepath.Join(launch, "sub")
			}
			files := New(Options{Home: filepath.Join(root, "home"), Names: []string{"AGENTS.md"}, MaxBytes: c.max}, launch).Startup()
			if len(files) != len(c.texts) {
				t.Fatalf("files %+v", files)
			}
			total := 0
			for i, f := range files {
				if f.Text != c.texts[i] || f.Omitted != c.omitted[i] {
					t.Errorf("%s: text %q omitted %d; want %q, %d", f.Name, f.Text, f.Omitted, c.texts[i], c.omitted[i])
				}
				total += len(f.Text)
			}
			if total > c.max {
				t.Errorf("%d bytes given, cap %d", total, c.max)
			}
			if note := cutNote(files, c.max); note != c.note {
				t.Errorf("note %q\nwant %q", note, c.note)
			}
			if c.note != "" && !strings.HasSuffix(Render(files, nil, c.max), "\n\n"+c.note) {
				t.Errorf("Render does not end with the note:\n%s", Render(files, nil, c.max))
			}
		})
	}
}

func TestLargeFileReadInPart(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	root := tree(t, map[string]string{"AGENTS.md": "é" + big})
	files := New(Options{Names: []string{"AGENTS.md"}, MaxBytes: 100}, root).Startup()
	if len(files) != 1 || len(files[0].Text) != 100 || files[0].Size != int64(len(big)+2) || files[0].Omitted != int64(len(big)+2-100) {
		t.Fatalf("%+v", files[0].Size)
	}
}

// errFS fails every Open with err.
type errFS struct{ err error }

func (e errFS) Open(string) (*os.File, error) { return nil, e.err }

func TestNested(t *testing.T) {
	root := tree(t, map[string]string{"pkg/AGENTS.md": "nested rules\n", "pkg/file.go": "x", "empty/AGENTS.md": ""})
	f := New(Options{Names: []string{"AGENTS.md"}, MaxBytes: 6}, root)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	file, ok := f.Nested(osFS{r}, "pkg")
	if !ok || file.Name != "pkg/AGENTS.md" || file.Text != "nested" || file.Omitted != 7 || file.Path != filepath.Join(root, "pkg", "AGENTS.md") {
		t.Errorf("Nested(pkg) = %+v, %v", file, ok)
	}
	for _, dir := range []string{"empty", "missing", "pkg/file.go"} {
		if file, ok := f.Nested(osFS{r}, dir); ok {
			t.Errorf("Nested(%s) = %+v", dir, file)
		}
	}
	if _, ok := f.Nested(errFS{fs.ErrNotExist}, "pkg"); ok {
		t.Error("not found is absent")
	}
	file, ok = f.Nested(errFS{syscall.EIO}, "pkg")
	if !ok || file.Err == nil || !strings.Contains(file.Err.Error(), "input/output error") {
		t.Errorf("an I/O error: %+v, %v", file, ok)
	}
	n := RenderNested(file, 6)
	if n != "Instructions for pkg/ from its instruction file (given once, as this call touched a path there; they add to the instructions given at the start and win where they disagree):\n\n[instruction file pkg/AGENTS.md skipped: it cannot be read (input/output error)]" {
		t.Errorf("RenderNested = %q", n)
	}
}

func TestRenderGiven(t *testing.T) {
	a := File{Name: "AGENTS.md", Text: "build: make\n"}
	b := File{Name: "pkg/AGENTS.md", Text: "tests: go test\n"}
	gone := File{Name: "x/AGENTS.md", Size: 9, Omitted: 9}
	text := Render([]File{a, b, gone}, map[string]bool{"pkg/AGENTS.md": true}, 30)
	want := Preamble + "\n\n" +
		"<instructions file=\"AGENTS.md\">\nbuild: make\n</instructions>\n\n" +
		"<instructions file=\"pkg/AGENTS.md\" replaces=\"the text of this file given earlier\">\ntests: go test\n</instructions>\n\n" +
		"[instructions cut to 30 bytes ([chat] instructions_max_bytes); left out: all 9 bytes of x/AGENTS.md]"
	if text != want {
		t.Fatalf("Render:\n%s\nwant:\n%s", text, want)
	}
	for _, f := range []File{a, b} {
		if !Given("before\n"+text+"\nafter", f) || !Mentioned(text, f.Name) {
			t.Errorf("%s not found in its own rendering", f.Name)
		}
		changed := f
		changed.Text += "more\n"
		if Given(text, changed) {
			t.Errorf("%s with another text counts as given", f.Name)
		}
	}
	if Given(text, gone) || Mentioned(text, "x/AGENTS.md") || Mentioned(text, "AGENTS") {
		t.Error("a file without a block is given or mentioned")
	}
	if Given(text, File{Name: "AGENTS.md", Text: "build: make"}) != true {
		t.Error("trailing newlines are not part of the text compared")
	}
	if Render([]File{gone}, nil, 30) != "" || Render(nil, nil, 30) != "" {
		t.Error("Render without a block is not empty")
	}
}

func TestInitPrompt(t *testing.T) {
	p := InitPrompt("CLAUDE.md")
	for _, want := range []string{"Write CLAUDE.md for this repository, or improve it if one exists", "/repository/CLAUDE.md", "subagent", "build", "test", "lint", "layout", "conventions", "permission level"} {
		if !strings.Contains(p, want) {
			t.Errorf("the /init prompt lacks %q", want)
		}
	}
	if strings.Contains(InitPrompt(""), "NAME") || !strings.Contains(InitPrompt(""), "AGENTS.md") {
		t.Error("InitPrompt(\"\") does not ask for AGENTS.md")
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("rules\n"), 10)
	f.Add([]byte("\ufeffé\xff"), 3)
	f.Add([]byte("é\né\né"), 4)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		max = max%200 + 1
		if max < 1 {
			max = -max + 1
		}
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		files := New(Options{Names: []string{"AGENTS.md"}, MaxBytes: max}, root).Startup()
		for _, file := range files {
			if !utf8.ValidString(file.Text) || len(file.Text) > max || file.Omitted < 0 || file.Err != nil && file.Text != "" {
				t.Fatalf("%q (max %d): %+v", data, max, file)
			}
			if file.Err == nil && int64(len(file.Text))+file.Omitted+bomLen(data) != int64(len(data)) {
				t.Fatalf("%q (max %d): %d given + %d omitted != %d", data, max, len(file.Text), file.Omitted, len(data))
			}
			if b := Block(file); b != "" && !Given(Render(files, nil, max), file) {
				t.Fatalf("%q: not given by its own rendering", data)
			}
		}
	})
}

func bomLen(data []byte) int64 {
	if strings.HasPrefix(string(data), "\ufeff") {
		return 3
	}
	return 0
}

// TestREADMEShowsInitPrompt: the README documents /init's message as it is.
func TestREADMEShowsInitPrompt(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```text\n"+InitPrompt("AGENTS.md")+"\n```") {
		t.Error("README.md does not show /init's message as InitPrompt(\"AGENTS.md\") returns it; copy it there")
	}
}
