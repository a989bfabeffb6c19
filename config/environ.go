// The environment host processes start from, without the configured secrets.

package config

import (
	"os"
	"strings"
)

// Environ returns the process environment without the API key variables
// (api_key_env of [endpoint] and [approval_description.endpoint]) and
// without any variable whose value holds one of Secrets. REPL commands and
// stdio MCP servers start from it, before [commands] env_filter; values
// from .env are never in it, since they are never exported.
func (c *Config) Environ() []string {
	names := map[string]bool{}
	if c.Endpoint.APIKeyEnv != "" {
		names[c.Endpoint.APIKeyEnv] = true
	}
	if ad := c.ApprovalDescription; ad != nil && ad.Endpoint.APIKeyEnv != "" {
		names[ad.Endpoint.APIKeyEnv] = true
	}
	secrets := c.Secrets()
	var out []string
next:
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if names[name] {
			continue
		}
		for _, s := range secrets {
			if strings.Contains(val, s) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
