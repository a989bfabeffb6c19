// The editor's MCP servers (session/new's mcpServers) as mcpclient specs.

package acp

import (
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"harness/mcpclient"
	"harness/sensitive"
)

// minSecret is the shortest header or env value treated as a credential
// (config.MCPSecrets uses the same bound): shorter ones would garble
// unrelated text when redacted.
const minSecret = 8

// mcpSpecs converts the editor's servers: stdio (command, args, env) and
// Streamable HTTP (url, headers); SSE and ACP-transport servers are
// refused, as initialize does not advertise them. Names become valid
// server names (characters other than letters, digits, - and _ become _,
// and a repeated name gets -2, -3, …). The values of headers, and of env
// variables whose names look like credentials, are returned as secrets to
// redact from what is saved (for "Bearer TOKEN", TOKEN too).
func mcpSpecs(servers []sdk.McpServer) ([]mcpclient.Spec, []string, error) {
	var specs []mcpclient.Spec
	var secrets []string
	taken := map[string]bool{}
	for i, s := range servers {
		var sp mcpclient.Spec
		var name string
		switch {
		case s.Stdio != nil:
			name = s.Stdio.Name
			if s.Stdio.Command == "" {
				return nil, nil, fmt.Errorf("mcpServers[%d] (%q): command is empty", i, name)
			}
			sp.Command, sp.Args = s.Stdio.Command, s.Stdio.Args
			sp.Env = map[string]string{}
			for _, e := range s.Stdio.Env {
				sp.Env[e.Name] = e.Value
				if secretName(e.Name) && len(e.Value) >= minSecret {
					secrets = append(secrets, e.Value)
				}
			}
		case s.Http != nil:
			name = s.Http.Name
			if s.Http.Url == "" {
				return nil, nil, fmt.Errorf("mcpServers[%d] (%q): url is empty", i, name)
			}
			sp.URL = s.Http.Url
			sp.Headers = map[string]string{}
			for _, h := range s.Http.Headers {
				sp.Headers[h.Name] = h.Value
				secrets = append(secrets, headerSecrets(h.Value)...)
			}
		case s.Sse != nil:
			return nil, nil, fmt.Errorf("mcpServers[%d] (%q): SSE servers are not supported (harness speaks stdio and Streamable HTTP to MCP servers)", i, s.Sse.Name)
		case s.Acp != nil:
			return nil, nil, fmt.Errorf("mcpServers[%d] (%q): MCP over ACP is not supported (harness speaks stdio and Streamable HTTP to MCP servers)", i, s.Acp.Name)
		default:
			return nil, nil, fmt.Errorf("mcpServers[%d]: neither a stdio nor an HTTP server", i)
		}
		sp.Name = uniqueName(serverName(name), taken)
		specs = append(specs, sp)
	}
	return specs, secrets, nil
}

// serverName keeps letters, digits, - and _ ("editor" for an empty name).
func serverName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "editor"
	}
	return b.String()
}

func uniqueName(name string, taken map[string]bool) string {
	out := name
	for n := 2; taken[out]; n++ {
		out = fmt.Sprintf("%s-%d", name, n)
	}
	taken[out] = true
	return out
}

// secretName tells whether an env variable's name looks like it holds a
// credential: sensitive's rule, and more widely any name with KEY or
// SESSION in it, since a value given here is known and only redacted.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	return sensitive.SecretName(name) || strings.Contains(n, "KEY") || strings.Contains(n, "SESSION")
}

// headerSecrets are a header value and, for "Scheme credentials" (Bearer
// TOKEN), the credentials alone, when long enough to be one.
func headerSecrets(v string) []string {
	var out []string
	if len(v) >= minSecret {
		out = append(out, v)
	}
	if _, cred, ok := strings.Cut(v, " "); ok && len(strings.TrimSpace(cred)) >= minSecret {
		out = append(out, strings.TrimSpace(cred))
	}
	return out
}
