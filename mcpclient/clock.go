// The clock behind the start-up wait and call timeouts, injectable for tests.

package mcpclient

import "time"

// Clock runs f once d has passed. stop cancels a run that has not
// happened yet. The real clock is time.AfterFunc; tests fire timers by
// hand, so no test waits for real time to pass.
type Clock interface {
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
