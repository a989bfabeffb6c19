// Tests for Setup: the starter config, the store, --force and the options.

package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetup(t *testing.T) {
	tests := []struct {
		name      string
		opts      SetupOptions
		homeName  string
		wantURL   string
		wantModel string
		wantKey   string
		wantNext  []string
	}{
		{name: "defaults", wantURL: "http://localhost:8000/v1", wantModel: "your-model-name",
			wantNext: []string{"Edit [endpoint] base_url and model", "Run `harness`"}},
		{name: "endpoint given", opts: SetupOptions{BaseURL: "http://127.0.0.1:9/v1", Model: "m"},
			wantURL: "http://127.0.0.1:9/v1", wantModel: "m", wantNext: []string{"Run `harness doctor`", "Run `harness` from", "`harness -p PROMPT`"}},
		{name: "api key env", opts: SetupOptions{BaseURL: "https://api.example.com/v1", Model: "big/model:1", APIKeyEnv: "EXAMPLE_KEY"},
			wantURL: "https://api.example.com/v1", wantModel: "big/model:1", wantKey: "EXAMPLE_KEY", wantNext: []string{".env as EXAMPLE_KEY=..."}},
		{name: "odd home path", homeName: `we"ird\ home`, opts: SetupOptions{Model: `quote"d`},
			wantURL: "http://localhost:8000/v1", wantModel: `quote"d`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			name := tc.homeName
			if name == "" {
				name = ".harness"
			}
			home := filepath.Join(root, name, "nested") // does not exist yet
			res, err := Setup(home, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.ConfigPath != filepath.Join(home, "config.toml") || res.StorePath != filepath.Join(home, "store") || !res.StoreCreated || res.Replaced {
				t.Errorf("result = %+v", res)
			}
			if fi, err := os.Stat(res.ConfigPath); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("config file: %v, %v; want mode 0600", fi, err)
			}
			launch := filepath.Join(root, "project")
			mustMkdir(t, launch)
			cfg, err := Load(home, launch)
			if err != nil {
				t.Fatalf("the written config does not load: %v", err)
			}
			if cfg.Endpoint.BaseURL != tc.wantURL || cfg.Endpoint.Model != tc.wantModel || cfg.Endpoint.APIKeyEnv != tc.wantKey {
				t.Errorf("endpoint = %+v", cfg.Endpoint)
			}
			if cfg.RLM.StorePath != res.StorePath {
				t.Errorf("store = %q, want %q", cfg.RLM.StorePath, res.StorePath)
			}
			written, _ := os.ReadFile(res.ConfigPath)
			got, want := strings.Split(string(written), "\n"), strings.Split(Example, "\n")
			if len(got) != len(want) {
				t.Fatalf("wrote %d lines, the example has %d", len(got), len(want))
			}
			for i := range got {
				changed := got[i] != want[i]
				setting := strings.HasPrefix(got[i], "base_url = ") || strings.HasPrefix(got[i], "model = ") ||
					strings.HasPrefix(got[i], "path = ") || strings.HasPrefix(got[i], "api_key_env = ")
				if changed && !setting || setting && !strings.Contains(got[i], "#") && strings.Contains(want[i], "#") {
					t.Errorf("line %d: %q, example has %q", i+1, got[i], want[i])
				}
			}
			report := res.String()
			for _, want := range append([]string{"Wrote " + res.ConfigPath, "Created the store directory " + res.StorePath}, tc.wantNext...) {
				if !strings.Contains(report, want) {
					t.Errorf("report lacks %q:\n%s", want, report)
				}
			}
		})
	}
}

func TestSetupRefusesToOverwrite(t *testing.T) {
	home := t.TempDir()
	if _, err := Setup(home, SetupOptions{Model: "first"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "config.toml")
	mustWrite(t, path, "# my own settings\n")
	_, err := Setup(home, SetupOptions{Model: "second"})
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "--force") || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v; want fs.ErrExist naming the file and --force", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "# my own settings\n" {
		t.Fatalf("the file was changed: %q", got)
	}
	res, err := Setup(home, SetupOptions{Force: true, Model: "third"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Replaced || res.StoreCreated || !strings.HasPrefix(res.String(), "Replaced "+path) {
		t.Errorf("result = %+v", res)
	}
	cfg, err := Load(home, t.TempDir())
	if err != nil || cfg.Endpoint.Model != "third" {
		t.Fatalf("after --force: %v, %+v", err, cfg)
	}
}

func TestSetupRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts SetupOptions
		msg  string
	}{
		{"key instead of name", SetupOptions{APIKeyEnv: "sk-abc def"}, "not an environment variable name"},
		{"bad url", SetupOptions{BaseURL: "localhost:8000"}, "endpoint.base_url"},
		{"blank model", SetupOptions{Model: "  "}, "endpoint.model"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			_, err := Setup(home, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v; want it to mention %q", err, tc.msg)
			}
			if strings.Contains(err.Error(), "sk-abc") {
				t.Errorf("the error shows the value: %v", err)
			}
			if _, err := os.Stat(home); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Setup created %s despite the error", home)
			}
		})
	}
}
