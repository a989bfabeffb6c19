// harness doctor: check the configuration, the endpoint and the helper files.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"harness/config"
	"harness/doctor"
	"harness/repl"
	"harness/ui"
)

func cmdDoctor(args []string, stdout, stderr io.Writer) int {
	full := false
	for _, a := range args {
		switch a {
		case "--full":
			full = true
		case "-h", "--help":
			fmt.Fprint(stdout, usage)
			return exitOK
		default:
			fmt.Fprintf(stderr, "harness doctor: unknown argument %q\n", a)
			return exitUsage
		}
	}
	home, err := config.Home()
	if err != nil {
		fmt.Fprintln(stderr, "harness doctor:", err)
		return exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "harness doctor:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !doctor.RunWith(ctx, doctor.Options{Home: home, LaunchDir: wd, Full: full, Out: stdout,
		Worker: repl.ProbeWorker, Commands: ui.CommandNames()}) {
		return exitError
	}
	return exitOK
}
