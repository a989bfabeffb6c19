package pyrt

import (
	"go.starlark.net/starlark"
)

// writeStd writes s to stdout (stream 0) or stderr (1): the call's output,
// or a redirect_stdout/redirect_stderr target.
func (r *Interp) WriteStd(stream int, s string) error {
	if t := r.StdRedirect[stream]; t != nil && t != starlark.None {
		_, err := CallMethod(r.Thread, t, "write", starlark.Tuple{starlark.String(s)}, nil)
		return err
	}
	r.Host.CallOf().Write(s)
	return nil
}
