// Applying parsed operations to files inside a jail.Root, and reporting partial application.

package patch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"harness/jail"
)

// keptMode is the part of a file's mode an update keeps.
const keptMode = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Apply parses text as a whole, then validates and applies each operation
// in order against the files under r, and returns the result: one line per
// change, then numbered views of the changed regions, capped at limit bytes
// (limit ≤ 0: no cap). An error's message is written for the model: it says
// what failed and what to do, never names a host path, and after a partial
// application lists the operations applied and those not applied.
func Apply(ctx context.Context, r *jail.Root, text string, limit int) (string, error) {
	p, err := Parse(text)
	if err != nil {
		return "", errors.New(capText(err.Error()+"\nNothing was changed; fix the patch and send all of it again.", limit, ""))
	}
	if err := r.CheckWrite("apply_patch", "."); err != nil {
		var je *jail.Error
		if errors.As(err, &je) && je.Reason != "" {
			err = errors.New(je.Reason)
		}
		return "", errors.New(capText("apply_patch cannot write here: "+err.Error()+". Nothing was changed.", limit, ""))
	}
	done := make([]*change, 0, len(p.Ops))
	for i, op := range p.Ops {
		if err := ctx.Err(); err != nil {
			return "", errors.New(capText(failure(p, i, done, "apply_patch was cancelled before this operation started."), limit, ""))
		}
		c, err := applyOp(r, op)
		if err != nil {
			err = explain(err)
			return "", errors.New(capText(failure(p, i, done, err.Error()), limit, ""))
		}
		done = append(supersede(done, c), c)
	}
	return render(done, limit), nil
}

// failure writes the message for operation i failing after done were
// applied: the status first (it survives the output cap), then the reason,
// then what was and was not applied.
func failure(p *Patch, i int, done []*change, msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Operation %d of %d failed: %s (patch line %d). ", i+1, len(p.Ops), opName(p.Ops[i]), p.Ops[i].Line)
	if len(done) == 0 {
		b.WriteString("Nothing was changed.\n" + msg)
		return b.String()
	}
	before := "The operation before it"
	if len(done) > 1 {
		before = fmt.Sprintf("The %d operations before it", len(done))
	}
	after := "this one was not applied"
	if rest := len(p.Ops) - i - 1; rest > 0 {
		after = fmt.Sprintf("it and the %s after it were not applied", plural(rest, "operation"))
	}
	fmt.Fprintf(&b, "%s stayed applied; %s.\n%s\n", before, after, msg)
	b.WriteString("Applied:\n")
	for _, c := range done {
		b.WriteString("  " + c.summary() + "\n")
	}
	b.WriteString("Not applied:\n")
	for _, op := range p.Ops[i:] {
		b.WriteString("  " + opName(op) + "\n")
	}
	b.WriteString("Send a new patch with only the operations not applied, corrected.")
	return b.String()
}

func opName(op *Op) string {
	if op.MoveTo != "" {
		return op.Header() + " -> " + op.MoveTo
	}
	return op.Header()
}

func applyOp(r *jail.Root, op *Op) (*change, error) {
	switch op.Kind {
	case Add:
		return addFile(r, op)
	case Delete:
		return deleteFile(r, op)
	case Replace:
		return rewrite(r, op)
	case Update:
		if len(op.Hunks) == 0 {
			return rename(r, op)
		}
		return rewrite(r, op)
	}
	return nil, fmt.Errorf("unknown operation kind %v", op.Kind)
}

// absent checks that p does not exist (not even as a dangling symlink);
// hint says what to do when it does.
func absent(r *jail.Root, p, hint string) error {
	_, err := r.Lstat(p)
	switch {
	case err == nil:
		return fmt.Errorf("%s already exists; %s", p, hint)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// makeParent creates p's parent folders.
func makeParent(r *jail.Root, p string) error {
	if d := path.Dir(p); d != "." {
		return r.MkdirAll(d, 0o755)
	}
	return nil
}

func addFile(r *jail.Root, op *Op) (*change, error) {
	if err := absent(r, op.Path, "use *** Update File or *** Replace File to change it, or *** Delete File it first"); err != nil {
		return nil, err
	}
	if err := makeParent(r, op.Path); err != nil {
		return nil, err
	}
	if err := r.WriteFile(op.Path, addedText(op.Lines), 0o644); err != nil {
		return nil, err
	}
	return &change{code: "A", path: op.Path, text: textOf(op.Lines), regions: []span{{0, len(op.Lines)}}}, nil
}

// existing returns the Lstat info of the file p, refusing missing files and directories.
func existing(r *jail.Root, p string, op *Op) (fs.FileInfo, error) {
	fi, err := r.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		hint := map[Kind]string{Update: "; use *** Add File to create it", Replace: "; use *** Add File to create it",
			Delete: ""}[op.Kind]
		return nil, fmt.Errorf("%s does not exist%s", p, hint)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory; apply_patch %s files only", p,
			map[bool]string{true: "deletes", false: "edits"}[op.Kind == Delete])
	}
	return fi, nil
}

func deleteFile(r *jail.Root, op *Op) (*change, error) {
	if _, err := existing(r, op.Path, op); err != nil {
		return nil, err
	}
	if err := r.Remove(op.Path); err != nil {
		return nil, err
	}
	return &change{code: "D", path: op.Path}, nil
}

// rename moves the entry itself without reading it.
func rename(r *jail.Root, op *Op) (*change, error) {
	if _, err := existing(r, op.Path, op); err != nil {
		return nil, err
	}
	if err := absent(r, op.MoveTo, "choose another destination, or *** Delete File it first"); err != nil {
		return nil, err
	}
	if err := makeParent(r, op.MoveTo); err != nil {
		return nil, err
	}
	if err := r.Rename(op.Path, op.MoveTo); err != nil {
		return nil, err
	}
	return &change{code: "R", path: op.MoveTo, from: op.Path}, nil
}

// rewrite applies an Update with hunks or a Replace: it reads the file
// (through in-root symlinks), computes the new text and writes it with the
// same permission bits, replacing the file's identity.
func rewrite(r *jail.Root, op *Op) (*change, error) {
	fi, err := existing(r, op.Path, op)
	if err != nil {
		return nil, err
	}
	target, note := op.Path, ""
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = r.Resolve(op.Path); err != nil {
			return nil, err
		}
		if fi, err = r.Stat(target); err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a symlink to the directory %s; apply_patch edits files only", op.Path, target)
		}
		note = "through the symlink to " + target
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; apply_patch edits regular files only", op.Path)
	}
	data, err := r.ReadFile(target)
	if err != nil {
		return nil, err
	}
	if len(data) > maxText {
		return nil, fmt.Errorf("%s is too large for apply_patch (%d bytes; the limit is 2 GiB)", op.Path, len(data))
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%s is a binary file (it contains a NUL byte); apply_patch edits text files only", op.Path)
	}
	t := bytesText(data) // data is not modified after this
	var out []byte
	var next *text
	var regions []span
	if op.Kind == Replace {
		out = t.replaceWith(op.Lines)
		next = bytesText(out)
		regions = []span{diffRegion(t, op.Lines)}
	} else {
		ms, err := locate(op.Path, t, op.Hunks)
		if err != nil {
			return nil, err
		}
		out, next, regions = splice(t, op.Hunks, ms)
	}
	c := &change{code: "M", path: op.Path, note: note, regions: regions}
	mode := fi.Mode() & keptMode
	if op.MoveTo != "" {
		if err := moveRewritten(r, op, out, mode); err != nil {
			return nil, err
		}
		c.code, c.from, c.path, c.note = "R", op.Path, op.MoveTo, ""
	} else if next.data == t.data {
		c.code, c.regions = "=", nil
		return c, nil
	} else if err := r.WriteFile(target, out, mode); err != nil {
		return nil, err
	}
	c.text = next
	return c, nil
}

// moveRewritten writes the updated text to the destination with the
// source's mode, then removes the source entry.
func moveRewritten(r *jail.Root, op *Op, out []byte, mode fs.FileMode) error {
	if err := absent(r, op.MoveTo, "choose another destination, or *** Delete File it first"); err != nil {
		return err
	}
	if err := makeParent(r, op.MoveTo); err != nil {
		return err
	}
	if err := r.WriteFile(op.MoveTo, out, mode); err != nil {
		return err
	}
	if err := r.Remove(op.Path); err != nil {
		return fmt.Errorf("wrote the updated text to %s but could not remove %s: %v; delete it with *** Delete File", op.MoveTo, op.Path, err)
	}
	return nil
}

// explain adds what to do to filesystem errors from the jail.
func explain(err error) error {
	switch jail.KindOf(err) {
	case jail.KindNotDir:
		return fmt.Errorf("%v (a folder in the path is a file)", err)
	case jail.KindEscape:
		return fmt.Errorf("%v; apply_patch stays inside the root", err)
	}
	return err
}

// supersede keeps one view per file: a later change to a path drops the
// view an earlier change gave it, and a rename without edits carries the
// earlier view to the new path.
func supersede(done []*change, c *change) []*change {
	for _, d := range done {
		if d.regions == nil {
			continue
		}
		switch {
		case c.code == "R" && c.regions == nil && d.path == c.from:
			c.text, c.regions = d.text, d.regions
			d.text, d.regions = nil, nil
		case c.code != "=" && (d.path == c.path || c.code == "R" && d.path == c.from):
			d.text, d.regions = nil, nil
		}
	}
	return done
}
