// Probe: start one server, wait for it, stop it (harness doctor).

package mcpclient

import (
	"context"
	"time"
)

// Probe starts the server of spec, waits until it has started (its tools
// listed) or failed, or ctx ends, then stops it. It returns what Servers
// would say of it and how long the start took. Nothing is called, and no
// failure note is recorded unless opts asks for them.
func Probe(ctx context.Context, spec Spec, opts Options) (ServerInfo, time.Duration) {
	begin := time.Now()
	s := Start([]Spec{spec}, opts)
	defer s.Close()
	srv := s.servers[0]
	select {
	case <-srv.settled:
	case <-ctx.Done():
	}
	took := time.Since(begin)
	info := srv.info()
	if info.Err == "still starting" {
		info.Err = "did not start within " + took.Round(time.Second).String()
	}
	return info, took
}
