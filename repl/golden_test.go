package repl

import (
	"flag"
	"os"
	"regexp"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
	"golang.org/x/tools/txtar"

	"harness/config"
)

var protectionLine = regexp.MustCompile(`(?m)^Protection: .*$`)

var update = flag.Bool("update", false, "rewrite testdata/*.txtar golden files")

// TestHelpGolden compares help() at depth 2 with testdata/help.txtar; run
// with -update to rewrite it after an intended change.
func TestHelpGolden(t *testing.T) {
	e := newEnv(t, withDepth(2), withLimit(100000), withCommands(config.Commands{
		Deny: []string{"git", "rm"}, Allow: map[string]string{"go": "/usr/local/go/bin/go", "make": "/usr/bin/make"},
	}))
	e.perm.Store(int32(config.PermReadOnly))
	// The Protection line depends on the kernel and on whether the REPL
	// runs in a worker; TestHelpProtection checks it.
	got := protectionLine.ReplaceAllString(e.exec("help()"), "Protection: (see TestHelpProtection)") + "\n"
	const file = "testdata/help.txtar"
	if *update {
		a := &txtar.Archive{
			Comment: []byte("help() at depth 2, permission read-only, output_limit 100000, shipped helpers.\n"),
			Files:   []txtar.File{{Name: "help", Data: []byte(got)}},
		}
		if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := string(a.Files[0].Data)
	if got != want {
		dmp := diffmatchpatch.New()
		t.Errorf("help() differs from %s (run go test -run TestHelpGolden -update):\n%s", file,
			dmp.DiffPrettyText(dmp.DiffMain(want, got, false)))
	}
}
