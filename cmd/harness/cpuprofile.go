// A CPU profile of harness itself, for measuring the UI (scripts/uicost.sh
// -profile): only in a binary built with -tags cpuprofile.

//go:build cpuprofile

package main

import (
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// In a binary built with -tags cpuprofile, SIGUSR1 starts a CPU profile
// into the file $HARNESS_CPUPROFILE names and SIGUSR2 writes it out, so
// the profile covers what happened between the two (a reply streaming)
// and not the start-up or the exit. Ordinary builds have none of it.
func init() {
	path := os.Getenv("HARNESS_CPUPROFILE")
	if path == "" {
		return
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		var f *os.File
		for s := range sigs {
			switch {
			case s == syscall.SIGUSR1 && f == nil:
				var err error
				if f, err = os.Create(path); err != nil {
					f = nil
					continue
				}
				if pprof.StartCPUProfile(f) != nil {
					f.Close()
					f = nil
				}
			case s == syscall.SIGUSR2 && f != nil:
				pprof.StopCPUProfile()
				f.Close()
				f = nil
			}
		}
	}()
}
