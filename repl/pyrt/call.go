// Why a call was stopped, as the runtime and the REPL name it.

package pyrt

// stopKind says why a call was stopped from outside the interpreter.
type StopKind int32

const (
	StopNone   StopKind = iota
	StopCancel          // the caller's context was cancelled (Esc) or the REPL closed
	StopMemory          // the memory watchdog or a size check passed max_memory_mb
	StopCrash           // a Go panic was recovered
)

func (k StopKind) String() string {
	return [...]string{"", "cancelled by the user", "memory limit exceeded", "internal crash"}[k]
}

// stepInterval is how many interpreter steps pass between onSteps calls;
// the memory check runs every memEvery calls of onSteps.
const (
	StepInterval = 1 << 12
	MemEvery     = 16
	MaxDepth     = 2000 // nested Starlark calls (each can take several KiB of Go stack)
)
