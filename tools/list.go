// The list tool: one line per entry with its size and modification time.

package tools

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// ListArgs are the list tool's arguments (JSON: path, recursive, include).
type ListArgs struct {
	Path      string // root-relative; "" means "."
	Recursive bool
	Include   string // base-name glob filtering the output, not the descent
}

func list(ctx context.Context, r fileSystem, a ListArgs, limit int) (string, error) {
	filter, err := newIncludeFilter(a.Include)
	if err != nil {
		return "", fmt.Errorf("list: %v", err)
	}
	start := cleanArg(a.Path)
	info, err := r.Lstat(start)
	if err != nil {
		return "", pathError("list", r, err)
	}
	var b strings.Builder
	n, total := 0, 0
	add := func(rel string, info fs.FileInfo) {
		total++
		if filter.match(info.Name()) {
			n++
			b.WriteString(listLine(rel, info))
		}
	}
	if !info.IsDir() {
		add(start, info)
	} else {
		visit := func(rel string, d fs.DirEntry, _ *sharedDir) error {
			// Entries read from a directory opened in an os.Root carry
			// their metadata, read relative to that directory (lstatat).
			info, err := d.Info()
			if err != nil {
				info, err = r.Lstat(rel)
			}
			if err != nil {
				if err := denied(r, "list"); err != nil {
					return err
				}
				fmt.Fprintf(&b, "warning: cannot read %s: %v\n", quotePath(rel), err)
				return nil
			}
			add(rel, info)
			return nil
		}
		dirErr := func(rel string, err error) error {
			if err == errDirLoop {
				fmt.Fprintf(&b, "warning: %s: %v\n", quotePath(rel+"/"), err)
				return nil
			}
			if err := denied(r, "list"); err != nil {
				return err
			}
			fmt.Fprintf(&b, "warning: cannot list %s: %v\n", quotePath(rel+"/"), err)
			return nil
		}
		if err := walk(ctx, r, start, info, a.Recursive, visit, dirErr); err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("list %s: cancelled", quotePath(start))
			}
			return "", pathError("list", r, err)
		}
	}
	if n == 0 {
		return emptyListing(start, info, total, a.Include), nil
	}
	return Truncate(b.String(), limit, "List a subdirectory, turn recursive off, or narrow include."), nil
}

func emptyListing(start string, info fs.FileInfo, total int, include string) string {
	switch {
	case total > 0:
		return fmt.Sprintf("(no entries in %s match include %q; %d entries skipped)\n", quotePath(start), include, total)
	case info.IsDir():
		return fmt.Sprintf("(%s is an empty directory)\n", quotePath(start))
	}
	return ""
}

// listLine renders one entry: path, size in bytes from the entry's own
// metadata, and modification time. Directories end in "/"; symlinks and
// other non-regular entries carry a [symlink] or [special] marker after the
// path.
func listLine(rel string, info fs.FileInfo) string {
	name := rel
	marker := ""
	switch m := info.Mode(); {
	case m.IsDir():
		name += "/"
	case m&fs.ModeSymlink != 0:
		marker = " [symlink]"
	case !m.IsRegular():
		marker = " [special]"
	}
	return quotePath(name) + marker + " " + strconv.FormatInt(info.Size(), 10) + " " + formatTime(info.ModTime()) + "\n"
}
