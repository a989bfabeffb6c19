// The mcp check: start each [mcp.servers] server, list its tools, time it.

package doctor

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"harness/config"
	"harness/mcpclient"
)

// mcpTimeout bounds one server's start in the check.
const mcpTimeout = 90 * time.Second

// checkMCP starts each configured MCP server as harness would, in
// launchDir, lists its tools and times its start, then stops it. No tool
// is called, with --full or without.
func checkMCP(ctx context.Context, p *printer, cfg *config.Config, launchDir string) {
	for _, spec := range mcpclient.FromConfig(cfg) {
		sctx, cancel := context.WithTimeout(ctx, mcpTimeout)
		info, took := mcpclient.Probe(sctx, spec, mcpclient.Options{
			RepoDir: launchDir, Environ: cfg.Environ, EnvFilter: cfg.Commands.EnvFilter,
			LogDir: filepath.Join(cfg.Home, "mcp"),
		})
		cancel()
		table := "[mcp.servers." + spec.Name + "]"
		if info.Err != "" {
			fix := "check command, args and env in " + table
			if spec.URL != "" {
				fix = "check url and headers in " + table + ", and that the server is running"
			}
			p.fail("mcp", spec.Name+": "+info.Err, fix)
			continue
		}
		var names []string
		for _, t := range info.Tools {
			names = append(names, t.Name)
		}
		p.ok("mcp", "%s: started in %v; %d tools: %s", spec.Name, took.Round(time.Millisecond), len(names), listed(names))
		for _, a := range spec.Allow {
			if !slices.Contains(names, a) {
				p.warn("mcp", "%s: %s allow lists %q, which the server does not offer (its tools are listed above)", spec.Name, table, a)
			}
		}
	}
}

// listed joins names, cut after about 300 characters.
func listed(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	s := strings.Join(names, ", ")
	if i := strings.LastIndex(s[:min(len(s), 300)], ", "); len(s) > 300 && i > 0 {
		s = s[:i] + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return s
}
