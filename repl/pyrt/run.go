// What run() answered, as the runtime reads it (Host.RunCommand).

package pyrt

// runReply is a finished command; its texts are valid UTF-8. TimedOut
// says the request's timeout killed it.
type RunReply struct {
	ExitCode int    `json:"exit_code"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	TimedOut bool   `json:"timed_out,omitempty"`
}
