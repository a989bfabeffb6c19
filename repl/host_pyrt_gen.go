// Written by the split tool (scripts/splitrepl) and kept by hand since.

package repl

import (
	"context"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// pyrtHost is the runtime's Host: its interp.
type pyrtHost struct{ r *interp }

func (h pyrtHost) Absolute(p0 string) string {
	return h.r.absolute(p0)
}

func (h pyrtHost) CommandAllowed(p0 string) (string, bool) {
	return h.r.commandAllowed(p0)
}

func (h pyrtHost) CommandDenied(p0 string) bool {
	return h.r.commandDenied(p0)
}

func (h pyrtHost) CurrentCall() pyrt.CallState {
	if v := h.r.currentCall(); v != nil {
		return v
	}
	return nil
}

func (h pyrtHost) FsErr(p0 string, p1 string, p2 error) error {
	return h.r.fsErr(p0, p1, p2)
}

func (h pyrtHost) LimitBytes() int64 {
	return h.r.limitBytes()
}

func (h pyrtHost) Locate(p0 string, p1 string) (pyrt.Root, string, string, error) {
	root, rel, v, err := h.r.locate(p0, p1)
	return runtimeRoot(root), rel, v, err
}

func (h pyrtHost) LookPath(p0 string) (string, error) {
	return h.r.lookPath(p0)
}

func (h pyrtHost) MaxMemoryMB() int {
	return h.r.maxMemoryMB()
}

func (h pyrtHost) MountNames() string {
	return h.r.mountNames()
}

func (h pyrtHost) OnSteps(p0 *starlark.Thread) {
	h.r.onSteps(p0)
}

func (h pyrtHost) RunCommand(p0 []string, p1 string, p2 time.Duration) (pyrt.RunReply, error) {
	return h.r.runCommand(p0, p1, p2)
}

func (h pyrtHost) CallOf() pyrt.CallState {
	if v := callOf(h.r); v != nil {
		return v
	}
	return nil
}

func (x *callState) Budget() int64 {
	return x.budget()
}

func (x *callState) NoteUnsupported(p0 string) {
	x.noteUnsupported(p0)
}

func (x *callState) Reason() pyrt.StopKind {
	return x.reason()
}

func (x *callState) Stop(p0 pyrt.StopKind) {
	x.stop(p0)
}

func (x *callState) Stopped() bool {
	return x.stopped()
}

func (x *callState) Write(p0 string) {
	x.write(p0)
}

func (x *callState) Ctx() context.Context {
	return x.ctx
}

func (x *callState) Mem() pyrt.MemWatch {
	return &x.mem
}

func (x *callState) StopCh() chan struct{} {
	return x.stopCh
}

func (x *memWatch) Check(p0 pyrt.CallState) {
	x.check(p0.(*callState))
}
