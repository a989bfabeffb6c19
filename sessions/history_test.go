package sessions

import (
	"os"
	"strings"
	"testing"
	"time"

	"harness/llm"
)

// TestHistory: the user messages of the sessions started in a repository,
// oldest session first, except the one named, the newest limit of them.
func TestHistory(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	at := time.Date(2026, 1, 1, 9, 0, 0, 0, time.Local)
	save := func(repo string, msgs ...string) {
		st.Now = func() time.Time { return at }
		s := st.New(nil)
		f := &File{Local: Local{Repository: repo}}
		for _, m := range msgs {
			f.Append(llm.Message{Role: "user", Content: m}, llm.Message{Role: "assistant", Content: "ok " + m})
		}
		if err := s.Save(0, "", f); err != nil {
			t.Fatal(err)
		}
		s.Close()
		os.Chtimes(s.RootPath(), at, at)
		at = at.Add(time.Minute)
	}
	save("/repo", "first", "second")
	save("/other", "elsewhere")
	save("/repo", "third", "  ")
	save("/repo", "this session's")
	if got := st.History("/repo", "", 0); strings.Join(got, "|") != "first|second|third|this session's" {
		t.Errorf("History = %q", got)
	}
	list, _ := st.List()
	except := list[len(list)-1].Name
	if got := st.History("/repo", except, 2); strings.Join(got, "|") != "second|third" {
		t.Errorf("History except %s, limit 2 = %q", except, got)
	}
	if got := st.History("/nowhere", "", 0); len(got) != 0 {
		t.Errorf("History of another repository = %q", got)
	}
}
