// What the runtime (package pyrt) reads of the REPL's options: it reaches
// these through pyrt.Host (pyrt_host_gen.go), never Options itself.

package repl

import "slices"

// maxMemoryMB is max_memory_mb, 0 for no limit.
func (r *interp) maxMemoryMB() int { return r.opts.MaxMemoryMB }

// commandDenied reports whether [commands] deny names the command.
func (r *interp) commandDenied(name string) bool { return slices.Contains(r.opts.Commands.Deny, name) }

// commandAllowed returns the executable [commands] allow gives the command.
func (r *interp) commandAllowed(name string) (string, bool) {
	p, ok := r.opts.Commands.Allow[name]
	return p, ok
}
