// Tests for Load: one case per validation rule, each checking key and line.

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// baseConfig is a small valid config; STORE is replaced by the store path.
const baseConfig = `[endpoint]
base_url = "http://localhost:8000/v1"
model = "m"

[chat]

[repl]
tool_description = "run code"
permission = "read-only"
max_memory_mb = 512
output_limit = 1000

[rlm]
max_depth = 2

[rlm.store]
path = "STORE"

[commands]
deny = ["sudo"]
env_filter = ["TOKEN"]

[commands.allow]
go = "/usr/local/go/bin/go"

[theme]
system = "#000000"
user = "#111111"
assistant = "#222222"
reasoning = "#333333"
tool_call = "#444444"
tool_result = "#555555"
approval = "#666666"
warning = "#777777"
error = "#888888"
status = "#999999"
input = "#aaaaaa"
context_turn = "#bbbbbb"
context_tokens = "#cccccc"
context_role = "#dddddd"
context_message_tokens = "#EEEEEE"
`

// dirs is one test's layout: home, store and launch directory, all distinct.
type dirs struct{ root, home, store, launch string }

func newDirs(t *testing.T) dirs {
	t.Helper()
	root := t.TempDir()
	d := dirs{root: root, home: filepath.Join(root, "home"), store: filepath.Join(root, "store"), launch: filepath.Join(root, "repo")}
	for _, p := range []string{d.home, d.store, d.launch} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func writeConfig(t *testing.T, home, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// lineOf returns the 1-based line of the first occurrence of sub in text.
func lineOf(t *testing.T, text, sub string) int {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in config text:\n%s", sub, text)
	}
	return strings.Count(text[:i], "\n") + 1
}

// replace replaces old (which must occur) in the base config.
func replace(old, new string) func(string, dirs) string {
	return func(text string, _ dirs) string {
		if !strings.Contains(text, old) {
			panic(fmt.Sprintf("%q not in base config", old))
		}
		return strings.Replace(text, old, new, 1)
	}
}

func appendText(s string) func(string, dirs) string {
	return func(text string, _ dirs) string { return text + s }
}

func withStore(p func(d dirs) string) func(string, dirs) string {
	return func(text string, d dirs) string {
		return strings.Replace(text, `path = "STORE"`, `path = "`+p(d)+`"`, 1)
	}
}

type loadCase struct {
	name   string
	edit   func(string, dirs) string
	setup  func(t *testing.T, d dirs) // extra filesystem preparation
	launch func(d dirs) string        // launch directory; default d.launch
	key    string                     // the key the error names
	at     string                     // text on the expected line; "$EOF" for the last line; "" for no line
	msg    string                     // a fragment of the message
}

func loadCases() []loadCase {
	cases := []loadCase{
		{name: "malformed TOML", edit: replace(`model = "m"`, `model = "m`), key: "endpoint.model", at: `model = "m`, msg: "invalid TOML"},
		{name: "duplicate key", edit: replace(`model = "m"`, "model = \"m\"\nmodel = \"n\""), key: "endpoint.model", at: `model = "n"`, msg: "invalid TOML"},
		{name: "missing table", edit: replace("[chat]\n", ""), key: "chat", at: "$EOF", msg: "missing required table [chat]"},
		{name: "missing theme table", edit: func(s string, _ dirs) string { return s[:strings.Index(s, "[theme]")] }, key: "theme", at: "$EOF", msg: "missing required table [theme]"},
		{name: "missing subtable", edit: replace("[rlm.store]\npath = \"STORE\"\n", ""), key: "rlm.store", at: "[rlm]", msg: "missing required table [rlm.store]"},
		{name: "missing allow table", edit: replace("[commands.allow]\ngo = \"/usr/local/go/bin/go\"\n", ""), key: "commands.allow", at: "[commands]", msg: "missing required table"},
		{name: "missing key", edit: replace("model = \"m\"\n", ""), key: "endpoint.model", at: "[endpoint]", msg: "missing required key"},
		{name: "missing store path", edit: replace("path = \"STORE\"\n", ""), key: "rlm.store.path", at: "[rlm.store]", msg: "missing required key"},
		{name: "missing permission", edit: replace("permission = \"read-only\"\n", ""), key: "repl.permission", at: "[repl]", msg: "missing required key"},
		{name: "missing max_depth", edit: replace("max_depth = 2\n", ""), key: "rlm.max_depth", at: "[rlm]", msg: "missing required key"},
		{name: "missing deny", edit: replace("deny = [\"sudo\"]\n", ""), key: "commands.deny", at: "[commands]", msg: "missing required key"},
		{name: "missing colour", edit: replace("input = \"#aaaaaa\"\n", ""), key: "theme.input", at: "[theme]", msg: "missing required key"},
		{name: "unknown table", edit: appendText("[extra]\nx = 1\n"), key: "extra", at: "[extra]", msg: "unknown key"},
		{name: "unknown top-level key", edit: func(s string, _ dirs) string { return "verbose = true\n" + s }, key: "verbose", at: "verbose =", msg: "unknown key"},
		{name: "unknown key in table", edit: replace(`permission = "read-only"`, "permission = \"read-only\"\npermision = \"none\""), key: "repl.permision", at: "permision =", msg: `did you mean "permission"`},
		{name: "unknown nested key", edit: replace(`path = "STORE"`, "path = \"STORE\"\nsize = 3"), key: "rlm.store.size", at: "size = 3", msg: "unknown key"},
		{name: "unknown key in inline table", edit: replace("\n[rlm.store]\npath = \"STORE\"", "store = { path = \"STORE\", size = 1 }"), key: "rlm.store.size", at: "store = {", msg: "unknown key"},
		{name: "unknown nested table", edit: appendText("[rlm.cache]\nx = 1\n"), key: "rlm.cache", at: "[rlm.cache]", msg: "unknown key"},
		{name: "unknown key wrong case", edit: replace(`model = "m"`, "model = \"m\"\nModel = \"x\""), key: "endpoint.Model", at: "Model =", msg: `did you mean "model"`},
		{name: "unknown approval key", edit: appendText("[approval_description]\nenabled = false\ncolor = 1\n"), key: "approval_description.color", at: "color = 1", msg: "unknown key"},
		{name: "wrong type integer", edit: replace("max_memory_mb = 512", `max_memory_mb = "512"`), key: "repl.max_memory_mb", at: "max_memory_mb", msg: "must be an integer, not a string"},
		{name: "wrong type float for integer", edit: replace("output_limit = 1000", "output_limit = 1000.5"), key: "repl.output_limit", at: "output_limit", msg: "must be an integer, not a float"},
		{name: "wrong type string", edit: replace(`model = "m"`, "model = 3"), key: "endpoint.model", at: "model = 3", msg: "must be a string"},
		{name: "wrong type table", edit: func(s string, _ dirs) string { return "chat = 3\n" + strings.Replace(s, "[chat]\n", "", 1) }, key: "chat", at: "chat = 3", msg: "must be a table"},
		{name: "wrong type array", edit: replace(`deny = ["sudo"]`, `deny = "sudo"`), key: "commands.deny", at: "deny", msg: "must be an array of strings"},
		{name: "wrong element type", edit: replace(`deny = ["sudo"]`, `deny = ["sudo", 3]`), key: "commands.deny", at: "deny", msg: "element 2 is an integer"},
		{name: "wrong type prompt", edit: replace("[chat]\n", "[chat]\nprompt = 1\n"), key: "chat.prompt", at: "prompt = 1", msg: "must be a string"},
		{name: "instruction_files not a list", edit: replace("[chat]\n", "[chat]\ninstruction_files = \"AGENTS.md\"\n"), key: "chat.instruction_files", at: "instruction_files =", msg: "must be an array of strings"},
		{name: "instruction file with a slash", edit: replace("[chat]\n", "[chat]\ninstruction_files = [\"AGENTS.md\", \"docs/AGENTS.md\"]\n"), key: "chat.instruction_files", at: "instruction_files =", msg: `"docs/AGENTS.md" is not a file name`},
		{name: "instruction file empty", edit: replace("[chat]\n", "[chat]\ninstruction_files = [\"\"]\n"), key: "chat.instruction_files", at: "instruction_files =", msg: `"" is not a file name`},
		{name: "context_window small", edit: replace("[endpoint]\n", "[endpoint]\ncontext_window = 100\n"), key: "endpoint.context_window", at: "context_window =", msg: "at least 256"},
		{name: "context_window string", edit: replace("[endpoint]\n", "[endpoint]\ncontext_window = \"12k\"\n"), key: "endpoint.context_window", at: "context_window =", msg: "must be an integer, not a string"},
		{name: "parallel zero", edit: replace("max_depth = 2", "max_depth = 2\nparallel = 0"), key: "rlm.parallel", at: "parallel", msg: "at least 1"},
		{name: "parallel too many", edit: replace("max_depth = 2", "max_depth = 2\nparallel = 65"), key: "rlm.parallel", at: "parallel", msg: "at most 64"},
		{name: "parallel string", edit: replace("max_depth = 2", "max_depth = 2\nparallel = \"4\""), key: "rlm.parallel", at: "parallel", msg: "must be an integer"},
		{name: "compact_at over 1", edit: replace("[chat]\n", "[chat]\ncompact_at = 1.5\n"), key: "chat.compact_at", at: "compact_at =", msg: "between 0.1 and 1"},
		{name: "compaction unknown", edit: replace("[chat]\n", "[chat]\ncompaction = \"drop\"\n"), key: "chat.compaction", at: "compaction =", msg: "\"summary\", \"hide\" or \"off\""},
		{name: "instructions_max_bytes zero", edit: replace("[chat]\n", "[chat]\ninstructions_max_bytes = 0\n"), key: "chat.instructions_max_bytes", at: "instructions_max_bytes =", msg: "at least 1"},
		{name: "instructions_max_bytes string", edit: replace("[chat]\n", "[chat]\ninstructions_max_bytes = \"32k\"\n"), key: "chat.instructions_max_bytes", at: "instructions_max_bytes =", msg: "must be an integer, not a string"},
		{name: "wrong type allow entry", edit: replace(`go = "/usr/local/go/bin/go"`, "go = 1"), key: "commands.allow.go", at: "go = 1", msg: "must be a string"},
		{name: "bad colour short", edit: replace(`system = "#000000"`, `system = "#00000"`), key: "theme.system", at: "system =", msg: "not a colour"},
		{name: "bad colour name", edit: replace(`user = "#111111"`, `user = "blue"`), key: "theme.user", at: "user =", msg: "#RRGGBB"},
		{name: "bad colour hex", edit: replace(`error = "#888888"`, `error = "#88888g"`), key: "theme.error", at: "error =", msg: "not a colour"},
		{name: "bad optional colour", edit: replace(`error = "#888888"`, "error = \"#888888\"\ndiff_add = \"green\""), key: "theme.diff_add", at: "diff_add =", msg: "not a colour"},
		{name: "optional colour not a string", edit: replace(`error = "#888888"`, "error = \"#888888\"\ndiff_remove = 5"), key: "theme.diff_remove", at: "diff_remove =", msg: "must be a string"},
		{name: "bad permission", edit: replace(`permission = "read-only"`, `permission = "rw"`), key: "repl.permission", at: "permission =", msg: "not a permission level"},
		{name: "max_depth zero", edit: replace("max_depth = 2", "max_depth = 0"), key: "rlm.max_depth", at: "max_depth", msg: "at least 1"},
		{name: "max_depth negative", edit: replace("max_depth = 2", "max_depth = -3"), key: "rlm.max_depth", at: "max_depth", msg: "at least 1"},
		{name: "max_memory_mb zero", edit: replace("max_memory_mb = 512", "max_memory_mb = 0"), key: "repl.max_memory_mb", at: "max_memory_mb", msg: "at least 1"},
		{name: "relative allow path", edit: replace(`go = "/usr/local/go/bin/go"`, `go = "bin/go"`), key: "commands.allow.go", at: `go = "bin/go"`, msg: "not an absolute path"},
		{name: "bad sandbox", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nsandbox = \"strict\""), key: "commands.sandbox", at: "sandbox =", msg: `"strict" is not a sandbox; use "none"`},
		{name: "sandbox wrong type", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nsandbox = true"), key: "commands.sandbox", at: "sandbox =", msg: "must be a string"},
		{name: "network wrong type", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nnetwork = \"no\""), key: "commands.network", at: "network =", msg: "must be true or false"},
		{name: "network off without the sandbox", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nnetwork = false"), key: "commands.network", at: "network =", msg: `false blocks the network only for sandboxed commands, and commands run unsandboxed (sandbox = "none"); add sandbox = "workspace"`},
		{name: "network off with sandbox none", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nsandbox = \"none\"\nnetwork = false"), key: "commands.network", at: "network =", msg: "false blocks the network only for sandboxed commands"},
		{name: "writable wrong type", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nwritable = \"/tmp\""), key: "commands.writable", at: "writable =", msg: "must be an array of strings"},
		{name: "writable relative", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nwritable = [\"cache\"]"), key: "commands.writable", at: "writable =", msg: `"cache" is not an absolute path`},
		{name: "writable tilde", edit: replace(`env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nwritable = [\"~/.cache\"]"), key: "commands.writable", at: "writable =", msg: "starts with ~"},
		{name: "writable missing", edit: func(s string, d dirs) string {
			return strings.Replace(s, `env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nwritable = [\""+filepath.Join(d.root, "nope")+"\"]", 1)
		}, key: "commands.writable", at: "writable =", msg: "does not exist"},
		{name: "writable is a file", edit: func(s string, d dirs) string {
			return strings.Replace(s, `env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nwritable = [\""+filepath.Join(d.root, "file")+"\"]", 1)
		}, setup: func(t *testing.T, d dirs) { mustWrite(t, filepath.Join(d.root, "file"), "x") }, key: "commands.writable", at: "writable =", msg: "is not a directory"},
		{name: "allow name is a path", edit: replace(`go = "/usr/local/go/bin/go"`, `"./go" = "/usr/local/go/bin/go"`), key: `commands.allow."./go"`, at: `"./go"`, msg: "not a command name"},
		{name: "base_url not a URL", edit: replace(`base_url = "http://localhost:8000/v1"`, `base_url = "localhost:8000"`), key: "endpoint.base_url", at: "base_url", msg: "not an http:// or https:// URL"},
		{name: "empty model", edit: replace(`model = "m"`, `model = ""`), key: "endpoint.model", at: "model =", msg: "is empty"},
		{name: "api_key_env holds a key", edit: replace(`model = "m"`, "model = \"m\"\napi_key_env = \"sk-secret value\""), key: "endpoint.api_key_env", at: "api_key_env =", msg: "not an environment variable name"},
		{name: "parameter nan", edit: appendText("[endpoint.parameters]\ntemperature = nan\n"), key: "endpoint.parameters.temperature", at: "temperature = nan", msg: "nan and inf"},
		{name: "parameter inf", edit: appendText("[endpoint.parameters]\ntop_p = +inf\n"), key: "endpoint.parameters.top_p", at: "top_p = +inf", msg: "nan and inf"},
		{name: "parameter nested -inf", edit: appendText("[endpoint.parameters]\nextra = { a = { b = -inf } }\n"), key: "endpoint.parameters.extra.a.b", at: "extra =", msg: "nan and inf"},
		{name: "parameter date", edit: appendText("[endpoint.parameters]\nwhen = 1979-05-27\n"), key: "endpoint.parameters.when", at: "when = 1979", msg: "dates and times"},
		{name: "parameter local time nested", edit: appendText("[endpoint.parameters.a]\nok = 1\n[endpoint.parameters.a.b]\nat = 07:32:00\n"), key: "endpoint.parameters.a.b.at", at: "at = 07", msg: "dates and times"},
		{name: "parameter datetime in array", edit: appendText("[endpoint.parameters]\nstop = [\"x\",\n  1979-05-27T07:32:00Z]\n"), key: "endpoint.parameters.stop[1]", at: "stop =", msg: "dates and times"},
		{name: "parameter datetime in array of tables", edit: appendText("[[endpoint.parameters.list]]\nx = 1\n[[endpoint.parameters.list]]\nwhen = 1979-05-27T00:00:00\n"), key: "endpoint.parameters.list[1].when", at: "when = 1979-05-27T00", msg: "dates and times"},
		{name: "store relative", edit: withStore(func(dirs) string { return "store" }), key: "rlm.store.path", at: "path =", msg: "not an absolute path"},
		{name: "store with tilde", edit: withStore(func(dirs) string { return "~/store" }), key: "rlm.store.path", at: "path =", msg: "~"},
		{name: "store missing", edit: withStore(func(d dirs) string { return filepath.Join(d.root, "nope") }), key: "rlm.store.path", at: "path =", msg: "does not exist"},
		{name: "store is a file", edit: withStore(func(d dirs) string { return filepath.Join(d.root, "file") }),
			setup: func(t *testing.T, d dirs) { mustWrite(t, filepath.Join(d.root, "file"), "x") }, key: "rlm.store.path", at: "path =", msg: "not a directory"},
		{name: "store inside launch dir", edit: withStore(func(d dirs) string { return filepath.Join(d.launch, "store") }),
			setup: func(t *testing.T, d dirs) { mustMkdir(t, filepath.Join(d.launch, "store")) }, key: "rlm.store.path", at: "path =", msg: "lies inside (or is) the launch directory"},
		{name: "store is launch dir", edit: withStore(func(d dirs) string { return d.launch }), key: "rlm.store.path", at: "path =", msg: "lies inside (or is) the launch directory"},
		{name: "store contains launch dir", edit: withStore(func(d dirs) string { return d.store }),
			launch: func(d dirs) string { return filepath.Join(d.store, "repo") },
			setup:  func(t *testing.T, d dirs) { mustMkdir(t, filepath.Join(d.store, "repo")) }, key: "rlm.store.path", at: "path =", msg: "contains the launch directory"},
		{name: "store inside launch dir via symlink", edit: withStore(func(d dirs) string { return filepath.Join(d.root, "link") }),
			setup: func(t *testing.T, d dirs) {
				mustMkdir(t, filepath.Join(d.launch, "in"))
				if err := os.Symlink(filepath.Join(d.launch, "in"), filepath.Join(d.root, "link")); err != nil {
					t.Fatal(err)
				}
			}, key: "rlm.store.path", at: "path =", msg: "lies inside (or is) the launch directory"},
		{name: "store contains sessions", edit: withStore(func(d dirs) string { return d.home }), key: "rlm.store.path", at: "path =", msg: "contains harness's sessions folder"},
		{name: "store is sessions", edit: withStore(func(d dirs) string { return filepath.Join(d.home, "sessions") }),
			setup: func(t *testing.T, d dirs) { mustMkdir(t, filepath.Join(d.home, "sessions")) }, key: "rlm.store.path", at: "path =", msg: "contains harness's sessions folder"},
		{name: "launch dir contains sessions", launch: func(d dirs) string { return d.root }, edit: withStore(func(d dirs) string { return d.store }),
			key: "", at: "", msg: "contains harness's sessions folder"},
		{name: "approval enabled without prompt", edit: appendText("[approval_description]\nenabled = true\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\nmodel = \"s\"\n"),
			key: "approval_description.prompt", at: "[approval_description]", msg: "missing required key"},
		{name: "approval enabled without endpoint", edit: appendText("[approval_description]\nenabled = true\nprompt = \"say ${command}\"\n"),
			key: "approval_description.endpoint", at: "[approval_description]", msg: "missing required table"},
		{name: "approval prompt without command", edit: appendText("[approval_description]\nenabled = true\nprompt = \"say it\"\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\nmodel = \"s\"\n"),
			key: "approval_description.prompt", at: "prompt =", msg: "${command}"},
		{name: "approval enabled wrong type", edit: appendText("[approval_description]\nenabled = \"yes\"\n"), key: "approval_description.enabled", at: `enabled = "yes"`, msg: "must be true or false"},
		{name: "approval endpoint missing model", edit: appendText("[approval_description]\nenabled = true\nprompt = \"${command}\"\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\n"),
			key: "approval_description.endpoint.model", at: "[approval_description.endpoint]", msg: "missing required key"},
	}
	for _, r := range reserved {
		cases = append(cases, loadCase{name: "reserved parameter " + r, edit: appendText("[endpoint.parameters]\n" + r + " = 1\n"),
			key: "endpoint.parameters." + r, at: r + " = 1", msg: "reserved"})
	}
	for _, c := range []struct{ name, line, msg string }{
		{"max_retries negative", "max_retries = -1", "must be 0 or more"},
		{"max_retries string", `max_retries = "4"`, "must be an integer"},
		{"max_retries float", "max_retries = 2.5", "must be an integer"},
		{"max_retries huge", "max_retries = 1000", "too many"},
		{"idle_timeout_s negative", "idle_timeout_s = -5", "must be 0 or more"},
		{"idle_timeout_s string", `idle_timeout_s = "300"`, "must be a number"},
		{"idle_timeout_s nan", "idle_timeout_s = nan", "must be 0 or more"},
		{"idle_timeout_s too long", "idle_timeout_s = 1e9", "too long"},
		{"idle_timeout_s below a millisecond", "idle_timeout_s = 0.0000001", "shorter than a millisecond"},
	} {
		key := "endpoint." + strings.Fields(c.line)[0]
		cases = append(cases, loadCase{name: c.name, edit: replace(`model = "m"`, "model = \"m\"\n"+c.line), key: key, at: c.line, msg: c.msg})
		cases = append(cases, loadCase{name: "approval " + c.name,
			edit: appendText("[approval_description]\nenabled = true\nprompt = \"${command}\"\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\nmodel = \"s\"\n" + c.line + "\n"),
			key:  "approval_description." + key, at: c.line, msg: c.msg})
	}
	cases = append(cases, loadCase{name: "reserved approval parameter",
		edit: appendText("[approval_description]\nenabled = true\nprompt = \"${command}\"\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\nmodel = \"s\"\n[approval_description.endpoint.parameters]\nstream = false\n"),
		key:  "approval_description.endpoint.parameters.stream", at: "stream = false", msg: "reserved"})
	return append(cases, mcpLoadCases()...)
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range loadCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDirs(t)
			text := tc.edit(baseConfig, d)
			text = strings.ReplaceAll(text, "STORE", d.store)
			if tc.setup != nil {
				tc.setup(t, d)
			}
			writeConfig(t, d.home, text)
			launch := d.launch
			if tc.launch != nil {
				launch = tc.launch(d)
			}
			_, err := Load(d.home, launch)
			if err == nil {
				t.Fatalf("Load succeeded; want an error about %q", tc.key)
			}
			e := findError(err, tc.key)
			if e == nil {
				t.Fatalf("no error for key %q in:\n%v", tc.key, err)
			}
			msg := e.Error()
			t.Log(msg)
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not contain %q", msg, tc.msg)
			}
			if tc.key != "" && !strings.Contains(msg, tc.key+": ") {
				t.Errorf("message %q does not name the key %q", msg, tc.key)
			}
			if tc.at == "" {
				return
			}
			want := lines(text)
			if tc.at != "$EOF" {
				want = lineOf(t, text, tc.at)
			}
			if e.Line != want {
				t.Errorf("line = %d, want %d (%q)\n%s", e.Line, want, tc.at, msg)
			}
			prefix := fmt.Sprintf("%s:%d", filepath.Join(d.home, "config.toml"), want)
			if !strings.HasPrefix(msg, prefix) {
				t.Errorf("message %q does not start with %q", msg, prefix)
			}
		})
	}
}

// findError returns the *Error in err whose Key is key.
func findError(err error, key string) *Error {
	var list Errors
	if errors.As(err, &list) {
		for _, e := range list {
			if e.Key == key {
				return e
			}
		}
		return nil
	}
	var e *Error
	if errors.As(err, &e) && e.Key == key {
		return e
	}
	return nil
}

func lines(text string) int { return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1 }

func TestLoadSecretNotEchoed(t *testing.T) {
	d := newDirs(t)
	text := strings.ReplaceAll(baseConfig, "STORE", d.store)
	text = strings.Replace(text, `model = "m"`, "model = \"m\"\napi_key_env = \"sk-verysecret\"", 1)
	writeConfig(t, d.home, text)
	_, err := Load(d.home, d.launch)
	if err == nil || strings.Contains(err.Error(), "sk-verysecret") {
		t.Fatalf("err = %v; want an error that does not show the value", err)
	}
}

func TestLoadSeveralErrorsInLineOrder(t *testing.T) {
	d := newDirs(t)
	text := strings.ReplaceAll(baseConfig, "STORE", d.store)
	text = strings.Replace(text, `system = "#000000"`, `system = "red"`, 1)
	text = strings.Replace(text, `model = "m"`, `model = 1`, 1)
	writeConfig(t, d.home, text)
	_, err := Load(d.home, d.launch)
	var list Errors
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("err = %v; want two errors", err)
	}
	if list[0].Key != "endpoint.model" || list[1].Key != "theme.system" {
		t.Errorf("keys = %s, %s; want endpoint.model then theme.system", list[0].Key, list[1].Key)
	}
	var first *Error
	if !errors.As(err, &first) || first != list[0] {
		t.Errorf("errors.As did not find the first error")
	}
}

func TestLoadMissingFile(t *testing.T) {
	home := t.TempDir()
	_, err := Load(home, t.TempDir())
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v; want fs.ErrNotExist", err)
	}
	for _, want := range []string{filepath.Join(home, "config.toml"), "harness setup"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not mention %q", err, want)
		}
	}
}

func TestLoadValues(t *testing.T) {
	d := newDirs(t)
	text := strings.ReplaceAll(baseConfig, "STORE", d.store)
	text = strings.Replace(text, "[chat]\n", "[chat]\nprompt = \"\"\"\nBe brief.\"\"\"\n", 1)
	text = strings.Replace(text, "max_depth = 2", "max_depth = 3\nsubagent_prompt = 'sub'", 1)
	text += `[endpoint.parameters]
temperature = 0.5
stop = ["a", "b"]
extra = { nested = { deep = true } }
[[endpoint.parameters.tools_list]]
name = "a"
[[endpoint.parameters.tools_list]]
name = "b"

[approval_description]
enabled = true
prompt = "Explain ${command}"

[approval_description.endpoint]
base_url = "https://desc.example/v1"
model = "small"
api_key_env = "DESC_KEY"
`
	writeConfig(t, d.home, text)
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("Path", cfg.Path, filepath.Join(d.home, "config.toml"))
	check("Home", cfg.Home, d.home)
	check("BaseURL", cfg.Endpoint.BaseURL, "http://localhost:8000/v1")
	check("Model", cfg.Endpoint.Model, "m")
	check("APIKeyEnv", cfg.Endpoint.APIKeyEnv, "")
	check("temperature", cfg.Endpoint.Parameters["temperature"], 0.5)
	check("stop", cfg.Endpoint.Parameters["stop"], []any{"a", "b"})
	check("extra", cfg.Endpoint.Parameters["extra"], map[string]any{"nested": map[string]any{"deep": true}})
	if list, ok := cfg.Endpoint.Parameters["tools_list"].([]any); !ok || len(list) != 2 || list[1].(map[string]any)["name"] != "b" {
		t.Errorf("tools_list = %#v; want []any of two tables", cfg.Endpoint.Parameters["tools_list"])
	}
	check("Prompt", *cfg.Chat.Prompt, "Be brief.")
	check("InstructionFiles", cfg.Chat.InstructionFiles, []string{"AGENTS.md"}) // absent: the default
	check("InstructionsMaxBytes", cfg.Chat.InstructionsMaxBytes, DefaultInstructionsMaxBytes)
	check("ToolDescription", cfg.REPL.ToolDescription, "run code")
	check("Permission", cfg.REPL.Permission, PermReadOnly)
	check("MaxMemoryMB", cfg.REPL.MaxMemoryMB, 512)
	check("OutputLimit", cfg.REPL.OutputLimit, 1000)
	check("MaxDepth", cfg.RLM.MaxDepth, 3)
	check("SubagentPrompt", *cfg.RLM.SubagentPrompt, "sub")
	check("StorePath", cfg.RLM.StorePath, d.store)
	check("Deny", cfg.Commands.Deny, []string{"sudo"})
	check("EnvFilter", cfg.Commands.EnvFilter, []string{"TOKEN"})
	check("Allow", cfg.Commands.Allow, map[string]string{"go": "/usr/local/go/bin/go"})
	check("Sandbox", cfg.Commands.Sandbox, SandboxNone)
	check("Network", cfg.Commands.Network, true)
	check("Writable", len(cfg.Commands.Writable), 0)
	check("Theme.System", cfg.Theme.System, "#000000")
	check("Theme.ContextMessageTokens", cfg.Theme.ContextMessageTokens, "#EEEEEE")
	check("Theme.Input", cfg.Theme.Input, "#aaaaaa")
	check("Theme.DiffRemove", cfg.Theme.DiffRemove, DefaultDiffRemove) // absent: the default
	check("Theme.DiffAdd", cfg.Theme.DiffAdd, DefaultDiffAdd)
	if cfg.ApprovalDescription == nil {
		t.Fatal("ApprovalDescription is nil; want enabled")
	}
	check("ApprovalDescription.Prompt", cfg.ApprovalDescription.Prompt, "Explain ${command}")
	check("ApprovalDescription.Endpoint", cfg.ApprovalDescription.Endpoint.Model+" "+cfg.ApprovalDescription.Endpoint.APIKeyEnv, "small DESC_KEY")
}

func TestLoadSandbox(t *testing.T) {
	d := newDirs(t)
	text := strings.ReplaceAll(baseConfig, "STORE", d.store)
	text = strings.Replace(text, `env_filter = ["TOKEN"]`, "env_filter = [\"TOKEN\"]\nsandbox = \"workspace\"\nnetwork = false\nwritable = [\""+d.root+"\"]", 1)
	writeConfig(t, d.home, text)
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Commands; c.Sandbox != SandboxWorkspace || c.Network || len(c.Writable) != 1 || c.Writable[0] != d.root {
		t.Errorf("Commands = %+v", c)
	}
}

func TestLoadInstructionKeys(t *testing.T) {
	for _, c := range []struct {
		keys  string
		files []string
		max   int
	}{
		{"", []string{"AGENTS.md"}, 32768},
		{"instruction_files = [\"CLAUDE.md\", \"AGENTS.md\"]\ninstructions_max_bytes = 100\n", []string{"CLAUDE.md", "AGENTS.md"}, 100},
		{"instruction_files = []\n", []string{}, 32768},
	} {
		d := newDirs(t)
		text := strings.ReplaceAll(baseConfig, "STORE", d.store)
		text = strings.Replace(text, "[chat]\n", "[chat]\n"+c.keys, 1)
		writeConfig(t, d.home, text)
		cfg, err := Load(d.home, d.launch)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(cfg.Chat.InstructionFiles) != fmt.Sprint(c.files) || cfg.Chat.InstructionsMaxBytes != c.max {
			t.Errorf("%q: InstructionFiles %q, InstructionsMaxBytes %d; want %q, %d", c.keys, cfg.Chat.InstructionFiles, cfg.Chat.InstructionsMaxBytes, c.files, c.max)
		}
	}
}

func TestLoadParallel(t *testing.T) {
	for _, c := range []struct {
		keys string
		want int
	}{
		{"", 1},
		{"parallel = 1\n", 1},
		{"parallel = 4\n", 4},
		{"parallel = 64\n", 64},
	} {
		d := newDirs(t)
		text := strings.ReplaceAll(baseConfig, "STORE", d.store)
		text = strings.Replace(text, "max_depth = 2\n", "max_depth = 2\n"+c.keys, 1)
		writeConfig(t, d.home, text)
		cfg, err := Load(d.home, d.launch)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.RLM.Parallel != c.want {
			t.Errorf("%q: Parallel %d, want %d", c.keys, cfg.RLM.Parallel, c.want)
		}
	}
}

func TestLoadContextKeys(t *testing.T) {
	for _, c := range []struct {
		endpoint, chat string
		window         int
		at             float64
		compaction     string
	}{
		{"", "", 0, 0.8, "summary"},
		{"context_window = 12288\n", "compact_at = 0.5\ncompaction = \"hide\"\n", 12288, 0.5, "hide"},
		{"", "compact_at = 1\ncompaction = \"off\"\n", 0, 1, "off"},
	} {
		d := newDirs(t)
		text := strings.ReplaceAll(baseConfig, "STORE", d.store)
		text = strings.Replace(text, "[chat]\n", "[chat]\n"+c.chat, 1)
		text = strings.Replace(text, "[endpoint]\n", "[endpoint]\n"+c.endpoint, 1)
		writeConfig(t, d.home, text)
		cfg, err := Load(d.home, d.launch)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Endpoint.ContextWindow != c.window || cfg.Chat.CompactAt != c.at || cfg.Chat.Compaction != c.compaction {
			t.Errorf("%q %q: window %d, compact_at %v, compaction %q", c.endpoint, c.chat, cfg.Endpoint.ContextWindow, cfg.Chat.CompactAt, cfg.Chat.Compaction)
		}
	}
}

func TestLoadApprovalDisabled(t *testing.T) {
	for name, extra := range map[string]string{
		"absent":   "",
		"disabled": "[approval_description]\nenabled = false\n",
		"disabled with unfinished settings": "[approval_description]\nenabled = false\nprompt = \"no placeholder\"\n" +
			"[approval_description.endpoint]\nbase_url = \"not a url\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			d := newDirs(t)
			writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store)+extra)
			cfg, err := Load(d.home, d.launch)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.ApprovalDescription != nil {
				t.Errorf("ApprovalDescription = %+v, want nil", cfg.ApprovalDescription)
			}
		})
	}
}

func TestLoadEmptyLaunchDirSkipsLaunchRules(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store))
	if _, err := Load(d.home, ""); err != nil {
		t.Fatal(err)
	}
}

// TestEndpointRetryKeys checks the defaults and accepted values of
// max_retries and idle_timeout_s in both endpoint tables.
func TestEndpointRetryKeys(t *testing.T) {
	approval := "[approval_description]\nenabled = true\nprompt = \"${command}\"\n[approval_description.endpoint]\nbase_url = \"http://x/v1\"\nmodel = \"s\"\n"
	for _, tc := range []struct {
		name      string
		endpoint  string // lines added to [endpoint]
		approval  string // lines added to [approval_description.endpoint]
		retries   int
		idle      time.Duration
		adRetries int
		adIdle    time.Duration
	}{
		{"defaults", "", "", DefaultMaxRetries, DefaultIdleTimeout, DefaultMaxRetries, DefaultIdleTimeout},
		{"zero", "max_retries = 0\nidle_timeout_s = 0", "", 0, 0, DefaultMaxRetries, DefaultIdleTimeout},
		{"set", "max_retries = 7\nidle_timeout_s = 90", "max_retries = 1\nidle_timeout_s = 2.5", 7, 90 * time.Second, 1, 2500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirs(t)
			text := strings.ReplaceAll(baseConfig, "STORE", d.store)
			text = strings.Replace(text, `model = "m"`, "model = \"m\"\n"+tc.endpoint, 1)
			text += approval + tc.approval + "\n"
			writeConfig(t, d.home, text)
			cfg, err := Load(d.home, d.launch)
			if err != nil {
				t.Fatal(err)
			}
			ep, ad := cfg.Endpoint, cfg.ApprovalDescription.Endpoint
			if ep.MaxRetries != tc.retries || ep.IdleTimeout != tc.idle || ad.MaxRetries != tc.adRetries || ad.IdleTimeout != tc.adIdle {
				t.Errorf("endpoint %d %v, approval %d %v; want %d %v, %d %v", ep.MaxRetries, ep.IdleTimeout, ad.MaxRetries, ad.IdleTimeout,
					tc.retries, tc.idle, tc.adRetries, tc.adIdle)
			}
		})
	}
}

func TestKeySource(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store))
	mustWrite(t, filepath.Join(d.home, ".env"), "HARNESS_TEST_DOTENV_KEY=k1\nHARNESS_TEST_EMPTY_KEY=\n")
	t.Setenv("HARNESS_TEST_ENV_KEY", "k2")
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	for env, want := range map[string]string{
		"":                        "",
		"HARNESS_TEST_DOTENV_KEY": filepath.Join(d.home, ".env"),
		"HARNESS_TEST_ENV_KEY":    "the environment",
		"HARNESS_TEST_EMPTY_KEY":  "",
		"HARNESS_TEST_NO_KEY":     "",
	} {
		if got := cfg.KeySource(Endpoint{APIKeyEnv: env}); got != want {
			t.Errorf("KeySource(%q) = %q, want %q", env, got, want)
		}
	}
}
