// Writes the permission level refuses: the refusal, or a question first.

package jail

import (
	"errors"
	"fmt"
	"strings"

	"harness/config"
)

// ErrNotAsked, returned by a WriteAsk, refuses a write with the level's
// usual reason: there was no one to ask.
var ErrNotAsked = errors.New("not asked")

// WriteAsk is asked about a write to the repository that the permission
// level refuses, before it is refused: op is the operation ("write",
// "remove", "rename", "mkdir", "open", …), paths the root-relative paths
// it writes, level the level in force. nil lets this one operation
// through; an error refuses it, its text saying why.
type WriteAsk func(op string, paths []string, level config.Permission) error

// Asking returns a view of the repository root r whose writes refused by
// the level are put to ask first: the UI asks the person instead of
// refusing at once. The view shares r's directory handle (closing it
// does nothing; close r) and its level; other roots are returned as
// they are.
func (r *Root) Asking(ask WriteAsk) *Root {
	if r.name != Repository {
		return r
	}
	return &Root{name: r.name, dir: r.dir, root: r.root, level: r.level, sweeper: r.sweeper, ask: ask, view: true}
}

// Granted returns a view of r that may write whatever the level, for one
// operation the person allowed (an apply_patch call).
func (r *Root) Granted() *Root {
	return r.Asking(func(string, []string, config.Permission) error { return nil })
}

// checkWrite returns an error unless the current level allows writing
// paths, or the root's WriteAsk lets the operation through.
func (r *Root) checkWrite(op string, paths []string) error {
	lv := r.Level()
	if lv.CanWrite() {
		return nil
	}
	reason := fmt.Sprintf("the repository is not writable at permission %s; the person can change it (Shift+Tab in harness, the session mode in an editor)", lv)
	if r.name == Library {
		reason = "the library is read-only"
	}
	if r.ask != nil {
		switch err := r.ask(op, paths, lv); {
		case err == nil:
			return nil
		case !errors.Is(err, ErrNotAsked):
			reason = err.Error()
		}
	}
	return &Error{Op: op, Root: r.name, Path: strings.Join(paths, ", "), Kind: KindPermission, Reason: reason}
}
