package sessions

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"harness/llm"
	"harness/redact"
)

func fixedNow() time.Time { return time.Date(2026, 9, 25, 14, 30, 12, 0, time.Local) }

func rootFile(msgs ...string) *File {
	f := &File{Local: Local{Repository: "/repo"}}
	for _, m := range msgs {
		f.Append(llm.Message{Role: "user", Content: m})
	}
	return f
}

func TestCreateLazilyAndNameTaken(t *testing.T) {
	st := Store{Dir: filepath.Join(t.TempDir(), "sessions"), Now: fixedNow}
	s1 := st.New(nil)
	if s1.Name() != "" || s1.Dir() != "" {
		t.Fatal("a new session exists before its first save")
	}
	if _, err := os.Stat(st.Dir); err == nil {
		t.Fatal("New created the sessions directory")
	}
	if err := s1.Save(0, "", rootFile("one")); err != nil {
		t.Fatal(err)
	}
	s2 := st.New(nil)
	if err := s2.Save(0, "", rootFile("two")); err != nil {
		t.Fatal(err)
	}
	s3 := st.New(nil)
	s3.Create()
	if got := []string{s1.Name(), s2.Name(), s3.Name()}; got[0] != "20260925-143012" || got[1] != "20260925-143012-2" || got[2] != "20260925-143012-3" {
		t.Fatalf("names %v", got)
	}
	if _, err := os.Stat(filepath.Join(st.Dir, "20260925-143012", "library", "root.json")); err != nil {
		t.Fatal(err)
	}
}

func TestPaths(t *testing.T) {
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(nil)
	if s.Path(1, "X") != "" {
		t.Fatal("path before creation")
	}
	sub := &File{Local: Local{Repository: "/r", Depth: 1, Parent: RootParent}}
	if err := s.Save(1, "ID1", sub); err != nil {
		t.Fatal(err)
	}
	deep := &File{Local: Local{Repository: "/r", Depth: 2, Parent: "ID1"}}
	if err := s.Save(2, "ID2", deep); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"library/ID1.json", "deep/ID2.json"} {
		if _, err := Load(filepath.Join(s.Dir(), p)); err != nil {
			t.Error(err)
		}
	}
	if err := s.Save(1, "../x", sub); err == nil {
		t.Error("a call ID with a path separator was accepted")
	}
	// A session without root.json is not listed and cannot be opened.
	if l, _ := st.List(); len(l) != 0 {
		t.Errorf("listed %v", l)
	}
	if _, err := st.Open(s.Name(), nil); err == nil {
		t.Error("opened a session without library/root.json")
	}
}

func TestListOrderAndPreview(t *testing.T) {
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	old := st.New(nil)
	long := strings.Repeat("word ", 40)
	f := &File{Local: Local{Repository: "/r"}}
	f.Append(llm.Message{Role: "assistant", Content: "not this"}, llm.Message{Role: "user", Content: "fix\n the   bug " + long})
	old.Save(0, "", f)
	recent := st.New(nil)
	recent.Save(0, "", rootFile("second"))
	os.MkdirAll(filepath.Join(st.Dir, "junk", "library"), 0o700)
	os.Chtimes(old.RootPath(), time.Now(), time.Now().Add(time.Hour))
	l, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 2 || l[0].Name != recent.Name() || l[1].Name != old.Name() {
		t.Fatalf("list %+v", l)
	}
	if !strings.HasPrefix(l[1].Preview, "fix the bug word") || len([]rune(l[1].Preview)) != PreviewRunes || !strings.HasSuffix(l[1].Preview, "…") {
		t.Errorf("preview %q", l[1].Preview)
	}
	if l[0].Preview != "second" {
		t.Errorf("preview %q", l[0].Preview)
	}
	if l[1].Repository != "/r" {
		t.Errorf("repository %q, want /r", l[1].Repository)
	}
	// Both are held open by this process (each Session holds its lock).
	if !l[0].InUse || !l[1].InUse || l[0].PID != os.Getpid() {
		t.Errorf("in use: %+v", l)
	}
	old.Close()
	if l, _ := st.List(); l[1].InUse || l[1].PID != 0 || !l[0].InUse {
		t.Errorf("after Close: %+v", l)
	}
	s, err := st.Open(old.Name(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadRoot()
	if err != nil || len(got.Items) != 2 {
		t.Fatal(got, err)
	}
}

// TestRepositoryOf reads the repository from the end of files of every
// size, including ones whose messages hold the member's name and whose
// token cache is longer than the first read.
func TestRepositoryOf(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		turns int
		text  string
	}{
		{"small", 1, "hello"},
		{"text holding the marker", 3, `],"_harness_local":{"repository":"/fake"}`},
		{"long cache", 3000, "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &File{Local: Local{Repository: "/home/me/src/proj \"q\""}}
			for i := 0; i < tc.turns; i++ {
				f.Append(llm.Message{Role: "user", Content: tc.text})
				f.Local.TurnTokenCache = append(f.Local.TurnTokenCache, llm.TurnCount{Key: strings.Repeat("k", 40), Tokens: i})
			}
			path := filepath.Join(dir, tc.name+".json")
			if err := WriteFile(path, f); err != nil {
				t.Fatal(err)
			}
			fi, _ := os.Stat(path)
			if got := repositoryOf(path, fi.Size()); got != f.Local.Repository {
				t.Errorf("got %q, want %q", got, f.Local.Repository)
			}
		})
	}
	if got := repositoryOf(filepath.Join(dir, "missing"), 10); got != "" {
		t.Errorf("missing file: %q", got)
	}
}

func TestRename(t *testing.T) {
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(nil)
	if err := s.Rename("early", false); err == nil {
		t.Error("renamed a session that does not exist yet")
	}
	s.Save(0, "", rootFile("a"))
	other := st.New(nil)
	other.Save(0, "", rootFile("b"))
	for _, tc := range []struct {
		name    string
		running bool
		want    string
	}{
		{"", false, "empty"},
		{"a/b", false, "contains"},
		{".hidden", false, "starts with"},
		{other.Name(), false, "taken"},
		{"fine", true, "subagent is running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Rename(tc.name, tc.running)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Rename(%q) = %v, want %q", tc.name, err, tc.want)
			}
		})
	}
	if err := s.Rename("my-work", false); err != nil {
		t.Fatal(err)
	}
	if s.Name() != "my-work" {
		t.Fatal(s.Name())
	}
	if err := s.Save(0, "", rootFile("a", "b")); err != nil {
		t.Fatal(err)
	}
	if f, err := Load(filepath.Join(st.Dir, "my-work", "library", "root.json")); err != nil || len(f.Items) != 2 {
		t.Fatal(f, err)
	}
}

func TestRedactor(t *testing.T) {
	const key = "sk-secret<&>key"
	r := redact.New([]string{key, ""})
	m := llm.Message{
		Role:      "assistant",
		Content:   "the key is " + key,
		ToolCalls: []llm.ToolCall{{ID: "i", Name: "repl", Arguments: `{"code":"print('` + key + `')"}`}},
	}
	esc, _ := json.Marshal("r " + key)
	m.Set("reasoning", esc)
	m.Set("raw", json.RawMessage(`{"k":"`+key+`"}`))
	orig := m.ToolCalls[0].Arguments
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(r)
	f := rootFile("my key " + key)
	f.Append(m)
	entry := &Compaction{Turns: []int{0}, Summary: "the person gave the key " + key}
	f.Items = append(f.Items, Item{Hidden: true, Compaction: entry})
	if err := s.Save(0, "", f); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.RootPath())
	if strings.Contains(string(data), "sk-secret") {
		t.Fatalf("secret written:\n%s", data)
	}
	if !strings.Contains(string(data), redact.Marker) {
		t.Fatal("no redaction marker")
	}
	if _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
	if m.ToolCalls[0].Arguments != orig {
		t.Error("Redactor modified the caller's tool calls")
	}
	if !strings.Contains(entry.Summary, key) {
		t.Error("Redactor modified a compaction entry others hold")
	}
	var nilR *redact.Redactor
	if nilR.String(key) != key {
		t.Error("nil Redactor changed text")
	}
}

// TestSaveRemovesOrphanTemps: the first save into library/ and deep/
// removes the temporaries of writers that are gone, and only those.
func TestSaveRemovesOrphanTemps(t *testing.T) {
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(nil)
	s.Save(0, "", rootFile("x"))
	os.MkdirAll(filepath.Join(s.Dir(), "deep"), 0o700)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	orphan := func(dir, base string) string {
		return filepath.Join(s.Dir(), dir, fmt.Sprintf(".%s.harness-%d-0123456789ab", base, dead.Process.Pid))
	}
	lib, deep := orphan("library", "root.json"), orphan("deep", "X.json")
	live := filepath.Join(s.Dir(), "library", ".root.json.harness-1-0123456789ab")
	old := filepath.Join(s.Dir(), "library", ".root.json.123.tmp") // not ours: kept
	for _, p := range []string{lib, deep, live, old} {
		os.WriteFile(p, nil, 0o600)
	}
	s.Close()
	s, err := st.Open(s.Name(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(0, "", rootFile("y")); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(2, "X", &File{Local: Local{Repository: "/r", Depth: 2, Parent: "P"}}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{lib: false, deep: false, live: true, old: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// TestLoadRootRefusesSubagentFile: a subagent's file copied over root.json
// is not resumed as the root's conversation.
func TestLoadRootRefusesSubagentFile(t *testing.T) {
	st := Store{Dir: t.TempDir(), Now: fixedNow}
	s := st.New(nil)
	if err := s.Save(0, "", rootFile("a")); err != nil {
		t.Fatal(err)
	}
	sub := &File{Local: Local{Repository: "/r", Depth: 1, Parent: RootParent}}
	if err := WriteFile(s.RootPath(), sub); err != nil {
		t.Fatal(err)
	}
	_, err := s.LoadRoot()
	if err == nil || !strings.Contains(err.Error(), s.RootPath()) || !strings.Contains(err.Error(), "depth") {
		t.Fatalf("LoadRoot of a depth-1 file: %v", err)
	}
}
