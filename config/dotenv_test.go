// Tests for .env parsing and the private lookup of its values.

package config

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseDotenv(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]string
	}{
		{"empty", "", map[string]string{}},
		{"plain", "A=1\nB=two words\n", map[string]string{"A": "1", "B": "two words"}},
		{"comments and blanks", "# c\n\n   \n  # indented\nA=1\n", map[string]string{"A": "1"}},
		{"export prefix", "export A=1\nexport\tB=2\n", map[string]string{"A": "1", "B": "2"}},
		{"spaces around", "  A  =  1  \n", map[string]string{"A": "1"}},
		{"trailing comment", "A=sk-123 # my key\nB=x#y\n", map[string]string{"A": "sk-123", "B": "x#y"}},
		{"double quotes", `A="a b # not comment"` + "\n" + `B="q\"x\n\t\\ \$"`, map[string]string{"A": "a b # not comment", "B": "q\"x\n\t\\ $"}},
		{"single quotes", `A='lit $HOME \n "x"' # c`, map[string]string{"A": `lit $HOME \n "x"`}},
		{"empty values", "A=\nB=\"\"\nC=''\n", map[string]string{"A": "", "B": "", "C": ""}},
		{"equals in value", "A=b=c\n", map[string]string{"A": "b=c"}},
		{"crlf", "A=1\r\nB=\"2\"\r\n", map[string]string{"A": "1", "B": "2"}},
		{"bom", "\ufeffA=1\n", map[string]string{"A": "1"}},
		{"later wins", "A=1\nA=2\n", map[string]string{"A": "2"}},
		{"exported name", "exported=1\n", map[string]string{"exported": "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseDotenv(".env", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestParseDotenvErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		line int
		key  string
		msg  string
	}{
		{"no equals", "A=1\nsk-secretvalue\n", 2, "", "expected NAME=value"},
		{"bad name", "A=1\n\n1A=2\n", 3, "", "not a variable name"},
		{"name with dash", "MY-KEY=2\n", 1, "", "not a variable name"},
		{"empty name", "=2\n", 1, "", "not a variable name"},
		{"unclosed double", "A=\"abc\n", 1, "A", "double quote is not closed"},
		{"unclosed single", "# c\nB='abc\n", 2, "B", "single quote is not closed"},
		{"text after quote", "A=\"abc\"def\n", 1, "A", "after the closing quote"},
		{"export without name", "export\n", 1, "", "expected NAME=value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDotenv("/h/.env", tc.text)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v; want *Error", err)
			}
			if e.File != "/h/.env" || e.Line != tc.line || e.Key != tc.key {
				t.Errorf("got file %q line %d key %q; want /h/.env line %d key %q", e.File, e.Line, e.Key, tc.line, tc.key)
			}
			if !strings.Contains(e.Error(), tc.msg) || !strings.HasPrefix(e.Error(), "/h/.env:") {
				t.Errorf("message %q lacks the file or %q", e.Error(), tc.msg)
			}
			if strings.Contains(e.Error(), "secret") || strings.Contains(e.Error(), "abc") {
				t.Errorf("message %q shows the line's text", e.Error())
			}
		})
	}
}

// TestLoadDotenv checks that .env values reach Lookup and APIKey, that the
// process environment wins, and that nothing is exported.
func TestLoadDotenv(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store)+
		"[approval_description]\nenabled = true\nprompt = \"${command}\"\n[approval_description.endpoint]\n"+
		"base_url = \"http://x/v1\"\nmodel = \"s\"\napi_key_env = \"HARNESS_TEST_DESC_KEY\"\n")
	mustWrite(t, filepath.Join(d.home, ".env"), "HARNESS_TEST_DOTENV_ONLY=from-file\nexport HARNESS_TEST_BOTH=file\nHARNESS_TEST_DESC_KEY='k2'\n")
	t.Setenv("HARNESS_TEST_BOTH", "shell")
	cfg, err := Load(d.home, d.launch)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := cfg.Lookup("HARNESS_TEST_DOTENV_ONLY"); !ok || v != "from-file" {
		t.Errorf("Lookup(dotenv only) = %q, %v", v, ok)
	}
	if v, _ := cfg.Lookup("HARNESS_TEST_BOTH"); v != "shell" {
		t.Errorf("Lookup(both) = %q; the shell should win", v)
	}
	if _, ok := os.LookupEnv("HARNESS_TEST_DOTENV_ONLY"); ok {
		t.Error(".env value was exported to the process environment")
	}
	if got := cfg.Secrets(); len(got) != 1 || got[0] != "k2" {
		t.Errorf("Secrets() = %q, want [k2]", got)
	}
	out, err := exec.Command("env").Output()
	if err == nil && strings.Contains(string(out), "HARNESS_TEST_DOTENV_ONLY") {
		t.Error("a child process inherited a .env value")
	}
}

func TestLoadDotenvError(t *testing.T) {
	d := newDirs(t)
	writeConfig(t, d.home, strings.ReplaceAll(baseConfig, "STORE", d.store))
	mustWrite(t, filepath.Join(d.home, ".env"), "OK=1\nnot a setting\n")
	_, err := Load(d.home, d.launch)
	var e *Error
	if !errors.As(err, &e) || e.File != filepath.Join(d.home, ".env") || e.Line != 2 {
		t.Fatalf("err = %v; want an error at .env line 2", err)
	}
}
