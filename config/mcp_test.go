// Tests for [mcp.servers.NAME]: validation with positions, and ${NAME} expansion.

package config

import (
	"strings"
	"testing"
	"time"
)

// mcpLoadCases are the [mcp] rules, run by TestLoadErrors.
func mcpLoadCases() []loadCase {
	srv := func(body string) func(string, dirs) string {
		return appendText("[mcp.servers.s]\n" + body)
	}
	return []loadCase{
		{name: "mcp unknown key in [mcp]", edit: appendText("[mcp]\nserver = 1\n"), key: "mcp.server", at: "server = 1", msg: `did you mean "servers"`},
		{name: "mcp max_direct_tools negative", edit: appendText("[mcp]\nmax_direct_tools = -1\n"), key: "mcp.max_direct_tools", at: "max_direct_tools = -1", msg: "must be 0 or more"},
		{name: "mcp max_direct_tools a string", edit: appendText("[mcp]\nmax_direct_tools = \"128\"\n"), key: "mcp.max_direct_tools", at: "max_direct_tools =", msg: "must be an integer"},
		{name: "mcp servers not a table", edit: appendText("[mcp]\nservers = 3\n"), key: "mcp.servers", at: "servers = 3", msg: "must be a table"},
		{name: "mcp server not a table", edit: appendText("[mcp.servers]\ns = \"npx\"\n"), key: "mcp.servers.s", at: `s = "npx"`, msg: "must be a table"},
		{name: "mcp bad server name", edit: appendText("[mcp.servers.\"my server\"]\ncommand = \"x\"\n"), key: `mcp.servers."my server"`, at: `[mcp.servers."my server"]`, msg: "letters, digits, - and _"},
		{name: "mcp neither command nor url", edit: srv("allow = []\n"), key: "mcp.servers.s.command", at: "[mcp.servers.s]", msg: "missing required key"},
		{name: "mcp both command and url", edit: srv("command = \"x\"\nurl = \"http://h/mcp\"\n"), key: "mcp.servers.s.url", at: "url = \"http://h", msg: "not both"},
		{name: "mcp unknown key", edit: srv("command = \"x\"\ncomand = \"y\"\n"), key: "mcp.servers.s.comand", at: "comand =", msg: `did you mean "command"`},
		{name: "mcp unknown key far", edit: srv("command = \"x\"\ncolour = 1\n"), key: "mcp.servers.s.colour", at: "colour =", msg: "known in [mcp.servers.s]: command, args"},
		{name: "mcp command not a string", edit: srv("command = [\"npx\"]\n"), key: "mcp.servers.s.command", at: "command =", msg: "must be a string"},
		{name: "mcp command empty", edit: srv("command = \" \"\n"), key: "mcp.servers.s.command", at: "command =", msg: "is empty"},
		{name: "mcp command relative path", edit: srv("command = \"bin/server\"\n"), key: "mcp.servers.s.command", at: "command =", msg: "relative path"},
		{name: "mcp args not strings", edit: srv("command = \"x\"\nargs = [\"a\", 2]\n"), key: "mcp.servers.s.args", at: "args =", msg: "element 2 is an integer"},
		{name: "mcp args with url", edit: srv("url = \"http://h/mcp\"\nargs = [\"a\"]\n"), key: "mcp.servers.s.args", at: "args =", msg: "only for stdio servers"},
		{name: "mcp env with url", edit: srv("url = \"http://h/mcp\"\nenv = { A = \"b\" }\n"), key: "mcp.servers.s.env", at: "env =", msg: "only for stdio servers"},
		{name: "mcp headers with command", edit: srv("command = \"x\"\nheaders = { A = \"b\" }\n"), key: "mcp.servers.s.headers", at: "headers =", msg: "only for Streamable HTTP servers"},
		{name: "mcp env not a table", edit: srv("command = \"x\"\nenv = [\"A=b\"]\n"), key: "mcp.servers.s.env", at: "env =", msg: "must be a table"},
		{name: "mcp env bad name", edit: srv("command = \"x\"\nenv = { \"A-B\" = \"c\", \"A.B\" = \"d\" }\n"), key: "mcp.servers.s.env.A-B", at: "env =", msg: "not an environment variable name"},
		{name: "mcp env value not a string", edit: srv("command = \"x\"\n[mcp.servers.s.env]\nPORT = 80\n"), key: "mcp.servers.s.env.PORT", at: "PORT = 80", msg: "must be a string"},
		{name: "mcp env unclosed reference", edit: srv("command = \"x\"\nenv = { T = \"${TOKEN\" }\n"), key: "mcp.servers.s.env.T", at: "env =", msg: "without its closing }"},
		{name: "mcp env bad reference", edit: srv("command = \"x\"\nenv = { T = \"${1X}\" }\n"), key: "mcp.servers.s.env.T", at: "env =", msg: "does not name a variable"},
		{name: "mcp args bad reference", edit: srv("command = \"x\"\nargs = [\"--t=${}\"]\n"), key: "mcp.servers.s.args", at: "args =", msg: "does not name a variable"},
		{name: "mcp url not http", edit: srv("url = \"ftp://h/mcp\"\n"), key: "mcp.servers.s.url", at: "url = \"ftp", msg: "not an http:// or https:// URL"},
		{name: "mcp url without host", edit: srv("url = \"http:///mcp\"\n"), key: "mcp.servers.s.url", at: "url = \"http:///", msg: "not an http:// or https:// URL"},
		{name: "mcp url variable scheme", edit: srv("url = \"ws://${HOST}/mcp\"\n"), key: "mcp.servers.s.url", at: "url = \"ws", msg: "not an http:// or https:// URL"},
		{name: "mcp header bad name", edit: srv("url = \"http://h/mcp\"\nheaders = { \"X Y\" = \"1\" }\n"), key: `mcp.servers.s.headers."X Y"`, at: "headers =", msg: "not an HTTP header name"},
		{name: "mcp header unclosed reference", edit: srv("url = \"http://h/mcp\"\n[mcp.servers.s.headers]\nAuthorization = \"Bearer ${T\"\n"), key: "mcp.servers.s.headers.Authorization", at: "Authorization =", msg: "closing }"},
		{name: "mcp allow not an array", edit: srv("command = \"x\"\nallow = \"echo\"\n"), key: "mcp.servers.s.allow", at: "allow =", msg: "must be an array of strings"},
		{name: "mcp allow empty name", edit: srv("command = \"x\"\nallow = [\"\"]\n"), key: "mcp.servers.s.allow", at: "allow =", msg: "empty tool name"},
		{name: "mcp timeout zero", edit: srv("command = \"x\"\ntimeout_s = 0\n"), key: "mcp.servers.s.timeout_s", at: "timeout_s =", msg: "at least 1"},
		{name: "mcp timeout string", edit: srv("command = \"x\"\ntimeout_s = \"60\"\n"), key: "mcp.servers.s.timeout_s", at: "timeout_s =", msg: "must be an integer"},
		{name: "mcp second server bad", edit: appendText("[mcp.servers.a]\ncommand = \"x\"\n[mcp.servers.b]\nurl = 1\n"), key: "mcp.servers.b.url", at: "url = 1", msg: "must be a string"},
	}
}

func TestLoadMCP(t *testing.T) {
	d := newDirs(t)
	text := strings.ReplaceAll(baseConfig, "STORE", d.store) + `
[mcp.servers.files]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}"]
env = { GITHUB_TOKEN = "${GITHUB_TOKEN}", LEVEL = "debug" }
allow = ["read_file", "list_directory"]
timeout_s = 30

[mcp.servers.Remote_1]
url = "https://tracker.example.com/mcp"
headers = { Authorization = "Bearer ${TRACKER_TOKEN}" }
`
	writeConfig(t, d.home, text)
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.MCP) != 2 {
		t.Fatalf("servers = %+v", cfg.MCP)
	}
	r, f := cfg.MCP[0], cfg.MCP[1] // sorted by name: "Remote_1" < "files"
	if r.Name != "Remote_1" || r.URL != "https://tracker.example.com/mcp" || r.Headers["Authorization"] != "Bearer ${TRACKER_TOKEN}" || r.Command != "" || r.Timeout != 0 {
		t.Errorf("remote = %+v", r)
	}
	if f.Name != "files" || f.Command != "npx" || len(f.Args) != 3 || f.Args[2] != "${HOME}" || f.Env["LEVEL"] != "debug" ||
		f.Env["GITHUB_TOKEN"] != "${GITHUB_TOKEN}" || len(f.Allow) != 2 || f.Timeout != 30*time.Second {
		t.Errorf("files = %+v", f)
	}
}

func TestLoadNoMCP(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store)+"\n[mcp]\n")
	cfg, err := Load(d.home, d.launch)
	if err != nil || cfg.MCP != nil || cfg.MCPMaxDirectTools != DefaultMaxDirectTools {
		t.Fatalf("cfg.MCP = %v, max %d, err = %v", cfg.MCP, cfg.MCPMaxDirectTools, err)
	}
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store)+"\n[mcp]\nmax_direct_tools = 0\n")
	if cfg, err := Load(d.home, d.launch); err != nil || cfg.MCPMaxDirectTools != 0 {
		t.Fatalf("max_direct_tools = 0: %d, %v", cfg.MCPMaxDirectTools, err)
	}
}

func TestExpand(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store))
	mustWrite(t, d.home+"/.env", "FROM_DOTENV=dot\nBOTH=dotenv-loses\n")
	t.Setenv("BOTH", "shell")
	t.Setenv("EMPTY", "")
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want, err string }{
		{in: "plain", want: "plain"},
		{in: "cost $5 and ${", err: "closing }"},
		{in: "$HOME stays", want: "$HOME stays"},
		{in: "Bearer ${FROM_DOTENV}", want: "Bearer dot"},
		{in: "${BOTH}-${FROM_DOTENV}${EMPTY}!", want: "shell-dot!"},
		{in: "${NOT_SET_ANYWHERE_42}", err: "${NOT_SET_ANYWHERE_42} is not set in the environment or in .env"},
		{in: "${a b}", err: "does not name a variable"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := cfg.Expand(tc.in)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("Expand(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("Expand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// FuzzExpand: expansion never panics, text without "${" is unchanged, and
// a successful expansion replaces every reference.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "a${B}c", "${", "${}", "$${A}}", "${A}${B", "}${A}{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := expand(s, func(n string) (string, bool) { return "<" + n + ">", n != "UNSET" })
		if !strings.Contains(s, "${") && (err != nil || got != s) {
			t.Fatalf("expand(%q) = %q, %v", s, got, err)
		}
		if err == nil && strings.Contains(got, "${") {
			t.Fatalf("expand(%q) = %q left a reference", s, got) // the values hold no "${"
		}
	})
}

func TestEnviron(t *testing.T) {
	d := newDirs(t)
	text := strings.Replace(strings.ReplaceAll(baseConfig, "STORE", d.store), `model = "m"`, "model = \"m\"\napi_key_env = \"HARNESS_TEST_KEY\"", 1)
	writeConfig(t, d.home, text)
	t.Setenv("HARNESS_TEST_KEY", "sk-test-environ-1234")
	t.Setenv("HOLDS_THE_KEY", "Bearer sk-test-environ-1234")
	t.Setenv("HARNESS_TEST_PLAIN", "kept")
	mustWrite(t, d.home+"/.env", "ONLY_IN_DOTENV=private\n")
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(cfg.Environ(), "\n")
	for _, gone := range []string{"HARNESS_TEST_KEY", "HOLDS_THE_KEY", "ONLY_IN_DOTENV", "sk-test-environ"} {
		if strings.Contains(env, gone) {
			t.Errorf("Environ holds %s", gone)
		}
	}
	if !strings.Contains(env, "HARNESS_TEST_PLAIN=kept") {
		t.Error("Environ lost an ordinary variable")
	}
}

func TestMCPSecrets(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store)+`
[mcp.servers.a]
command = "x"
args = ["${ARG_VALUE}"]
env = { T = "${DOTENV_TOKEN}", P = "${SHELL_VALUE}", S = "${SHORT}" }

[mcp.servers.b]
url = "https://h/mcp"
headers = { Authorization = "Bearer ${SHELL_TOKEN}" }
`)
	mustWrite(t, d.home+"/.env", "DOTENV_TOKEN=dotenv-token-1\nSHORT=abc\n")
	t.Setenv("SHELL_VALUE", "/usr/local/share/thing")
	t.Setenv("SHELL_TOKEN", "shell-token-2")
	t.Setenv("ARG_VALUE", "an-argument-value")
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cfg.MCPSecrets(), " ")
	if got != "dotenv-token-1 shell-token-2" {
		t.Errorf("MCPSecrets = %q; want the .env token of env and the header token", got)
	}
}
