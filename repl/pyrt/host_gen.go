// Written by the split tool (scripts/splitrepl) and kept by hand since.

package pyrt

import (
	"context"
	"time"

	"go.starlark.net/starlark"
)

// Host is what the runtime asks of the REPL around it (package repl);
// repl's pyrtHost implements it.
type Host interface {
	Absolute(string) string
	CommandAllowed(string) (string, bool)
	CommandDenied(string) bool
	CurrentCall() CallState
	FsErr(string, string, error) error
	LimitBytes() int64
	Locate(string, string) (Root, string, string, error)
	LookPath(string) (string, error)
	MaxMemoryMB() int
	MountNames() string
	OnSteps(*starlark.Thread)
	RunCommand([]string, string, time.Duration) (RunReply, error)
	CallOf() CallState
}

// CallState is the REPL's callState as the runtime sees it.
type CallState interface {
	Budget() int64
	NoteUnsupported(string)
	Reason() StopKind
	Stop(StopKind)
	Stopped() bool
	Write(string)
	Ctx() context.Context
	Mem() MemWatch
	StopCh() chan struct{}
}

// MemWatch is the REPL's memWatch as the runtime sees it.
type MemWatch interface {
	Check(CallState)
}
