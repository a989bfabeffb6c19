// Setup: write a starter config.toml from the embedded example.

package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Example is the text of config.toml.example (kept identical to
// config/example.toml, which is what is embedded): every option, commented.
//
//go:embed example.toml
var Example string

// SetupOptions are the choices `harness setup` passes on. Empty strings keep
// the example's values; an empty APIKeyEnv leaves api_key_env commented out.
type SetupOptions struct {
	Force     bool // replace an existing config.toml
	BaseURL   string
	Model     string
	APIKeyEnv string
}

// SetupResult says what Setup did.
type SetupResult struct {
	ConfigPath   string // the config file written
	StorePath    string // the store directory [rlm.store] path points at
	Replaced     bool   // an existing config.toml was overwritten (Force)
	StoreCreated bool   // the store directory did not exist and was created
	NextSteps    []string
}

// String is the report `harness setup` prints: what was written, then the
// next steps.
func (r SetupResult) String() string {
	var b strings.Builder
	verb := "Wrote"
	if r.Replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(&b, "%s %s\n", verb, r.ConfigPath)
	if r.StoreCreated {
		fmt.Fprintf(&b, "Created the store directory %s\n", r.StorePath)
	} else {
		fmt.Fprintf(&b, "Using the existing store directory %s\n", r.StorePath)
	}
	b.WriteString("Next:\n")
	for _, s := range r.NextSteps {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	return b.String()
}

// Setup writes home/config.toml from Example with the store at home/store
// (created if needed) and the given endpoint settings. It never replaces an
// existing config.toml unless opts.Force is set; the error then wraps
// fs.ErrExist. The written file is validated before it is written.
func Setup(home string, opts SetupOptions) (SetupResult, error) {
	home, err := filepath.Abs(home)
	if err != nil {
		return SetupResult{}, fmt.Errorf("harness home %q: %w", home, err)
	}
	res := SetupResult{ConfigPath: filepath.Join(home, "config.toml"), StorePath: filepath.Join(home, "store")}
	text, err := starterText(res.ConfigPath, res.StorePath, opts)
	if err != nil {
		return SetupResult{}, err
	}
	if _, err := os.Lstat(res.ConfigPath); err == nil {
		if !opts.Force {
			return SetupResult{}, &Error{File: res.ConfigPath, Err: fs.ErrExist,
				Msg: "already exists; run `harness setup --force` to replace it with a fresh starter file (its current settings are lost)"}
		}
		res.Replaced = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return SetupResult{}, fmt.Errorf("setup: %w", err)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return SetupResult{}, fmt.Errorf("setup: create %s: %w", home, err)
	}
	if _, err := os.Stat(res.StorePath); errors.Is(err, fs.ErrNotExist) {
		res.StoreCreated = true
	}
	if err := os.MkdirAll(res.StorePath, 0o700); err != nil {
		return SetupResult{}, fmt.Errorf("setup: create the store %s: %w", res.StorePath, err)
	}
	if err := writeAtomic(res.ConfigPath, []byte(text), 0o600); err != nil {
		return SetupResult{}, fmt.Errorf("setup: %w", err)
	}
	res.NextSteps = nextSteps(res.ConfigPath, home, opts)
	return res, nil
}

func nextSteps(path, home string, opts SetupOptions) []string {
	var steps []string
	if opts.BaseURL == "" || opts.Model == "" {
		steps = append(steps, fmt.Sprintf("Edit [endpoint] base_url and model in %s to name your server and model.", path))
	}
	if opts.APIKeyEnv != "" {
		steps = append(steps, fmt.Sprintf("Put the API key in %s as %s=... (or export %s in your shell).",
			filepath.Join(home, ".env"), opts.APIKeyEnv, opts.APIKeyEnv))
	}
	return append(steps,
		"Run `harness doctor` to check that the server answers and serves the model.",
		"Run `harness` from the directory you want the agent to work in (`harness -p PROMPT` runs one turn without the UI).")
}

// starterText is Example with the store path and the options filled in,
// checked to decode without errors.
func starterText(path, store string, opts SetupOptions) (string, error) {
	text := Example
	sets := []struct{ key, val string }{{"rlm.store.path", store}, {"endpoint.base_url", opts.BaseURL}, {"endpoint.model", opts.Model}}
	for _, s := range sets {
		if s.val == "" {
			continue
		}
		var err error
		if text, err = setString(text, s.key, s.val); err != nil {
			return "", err
		}
	}
	if opts.APIKeyEnv != "" {
		if !validEnvName(opts.APIKeyEnv) {
			return "", fmt.Errorf("--api-key-env: not an environment variable name; give the variable's name (for example OPENAI_API_KEY), not the key")
		}
		var err error
		if text, err = uncommentAPIKeyEnv(text, opts.APIKeyEnv); err != nil {
			return "", err
		}
	}
	if _, _, err := decode(path, []byte(text)); err != nil {
		return "", fmt.Errorf("setup: nothing written; the starter config would be invalid:\n%w", err)
	}
	return text, nil
}

// setString replaces the string value of key in text, keeping all else.
func setString(text, key, val string) (string, error) {
	sp, ok := locate(text).spans[key]
	if !ok || sp.ValStart < 0 {
		return "", fmt.Errorf("setup: %s not found in the example config", key)
	}
	q, rest := quoteTOML(val), text[sp.ValEnd:]
	// Keep a trailing comment in its column when there is room.
	if pad := sp.ValEnd - sp.ValStart - len(q); pad > 0 && strings.HasPrefix(strings.TrimLeft(rest, " "), "#") {
		q += strings.Repeat(" ", pad)
	} else if pad < 0 && strings.HasPrefix(strings.TrimLeft(rest, " "), "#") {
		rest = strings.TrimLeft(rest, " ")
		rest = strings.Repeat(" ", max(1, len(text[sp.ValEnd:])-len(rest)+pad)) + rest
	}
	return text[:sp.ValStart] + q + rest, nil
}

// uncommentAPIKeyEnv turns the example's "# api_key_env = ..." line in
// [endpoint] into an active setting naming name.
func uncommentAPIKeyEnv(text, name string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	inEndpoint := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			inEndpoint = t == "[endpoint]"
			continue
		}
		if inEndpoint && strings.HasPrefix(t, "# api_key_env =") {
			set := "api_key_env = " + quoteTOML(name)
			set += strings.Repeat(" ", max(1, strings.LastIndex(l, " #")+1-len(set)))
			lines[i] = set + "# the variable that holds the API key (shell first, then .env)\n"
			return strings.Join(lines, ""), nil
		}
	}
	return "", errors.New("setup: no commented api_key_env line in [endpoint] of the example config")
}

// quoteTOML writes s as a TOML basic string.
func quoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
