// The exported entry points: each tool over a *jail.Root.

package tools

import (
	"context"

	"harness/jail"
)

var _ fileSystem = (*jail.Root)(nil)

// ReadFile runs read_file: the numbered lines StartLine..EndLine of the file
// a.Path in r, capped at limit bytes. A returned error's message is the tool
// result the model sees.
func ReadFile(ctx context.Context, r *jail.Root, a ReadFileArgs, limit int) (string, error) {
	return readFile(ctx, r, a, limit)
}

// Grep runs grep: the matching lines (and context) of the files under a.Path
// in r, in path order, capped at limit bytes. A returned error's message is
// the tool result the model sees.
func Grep(ctx context.Context, r *jail.Root, a GrepArgs, limit int) (string, error) {
	return grep(ctx, r, a, limit)
}

// List runs list: the entries at a.Path in r (all below it when
// a.Recursive), one per line, capped at limit bytes. A returned error's
// message is the tool result the model sees.
func List(ctx context.Context, r *jail.Root, a ListArgs, limit int) (string, error) {
	return list(ctx, r, a, limit)
}
