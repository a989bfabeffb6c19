// Fuzz targets for config parsing and the in-place permission rewrite.

package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzDecode feeds arbitrary text to the config parser. It must never
// panic, every error must carry the file and a line within the text, and
// whenever the text holds a string [repl] permission, rewriting it must
// succeed and change nothing else. `go test` runs only the seeds; run
// `go test -fuzz=FuzzDecode ./config` to explore.
func FuzzDecode(f *testing.F) {
	f.Add(Example)
	f.Add(baseConfig)
	f.Add(strings.ReplaceAll(baseConfig, "\n", "\r\n"))
	f.Add("repl = { permission = 'none' }")
	f.Add("[repl]\n\"permission\" = \"\"\"none\"\"\"\n[endpoint.parameters]\nx = nan\nd = 1979-05-27")
	f.Add("[\"repl\"]\npermission = \"n\\u006fne\" # c\n[[a.b]]\n[a]")
	f.Add("a = [1, [2, {x = '''y'''}], \"\"\"\n]\"\"\"]\n[repl]\npermission=''")
	f.Add("[repl\npermission = ")
	f.Add("\ufeff[repl]\r\npermission='none'")
	f.Fuzz(func(t *testing.T, text string) {
		_, _, err := decode("config.toml", []byte(text))
		if err != nil {
			checkErrors(t, text, err)
		}
		var tree map[string]any
		if _, err := toml.Decode(text, &tree); err != nil {
			return
		}
		repl, _ := tree["repl"].(map[string]any)
		if _, ok := repl["permission"].(string); !ok {
			return
		}
		out, err := withPermission("config.toml", text, PermReadWrite)
		if err != nil {
			t.Fatalf("rewrite failed: %v", err)
		}
		sp := locate(text).spans["repl.permission"]
		if out[:sp.ValStart] != text[:sp.ValStart] || !strings.HasSuffix(out, text[sp.ValEnd:]) {
			t.Fatalf("rewrite changed bytes outside the value")
		}
	})
}

func checkErrors(t *testing.T, text string, err error) {
	var list Errors
	if !errors.As(err, &list) {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is not an *Error", err)
		}
		list = Errors{e}
	}
	max := strings.Count(text, "\n") + 1
	for _, e := range list {
		if e.File != "config.toml" || e.Line < 1 || e.Line > max || e.Msg == "" {
			t.Fatalf("bad error position: %+v (text has %d lines)", e, max)
		}
	}
}
