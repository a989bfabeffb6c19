package main

import (
	"strings"
	"testing"
)

func TestRunDispatch(t *testing.T) {
	t.Setenv("HARNESS_HOME", t.TempDir()) // no config.toml
	for _, tc := range []struct {
		args       []string
		code       int
		out, errSn string
	}{
		{[]string{"-h"}, 0, "harness -p PROMPT", ""},
		{[]string{"--resume", "x", "--help"}, 0, "Usage:", ""},
		{[]string{"--version"}, 0, "harness ", ""},
		{[]string{"--frobnicate"}, 2, "", `unknown argument "--frobnicate"`},
		{[]string{"--json"}, 2, "", "--json needs -p"},
		{[]string{"-p", "--help"}, 2, "", "harness setup"}, // a prompt, so the config is needed
		{[]string{"--system-prompt", "-h", "-p", "x"}, 2, "", "harness setup"},
		{[]string{"acp", "--help"}, 0, "Usage: harness acp", ""},
		{[]string{"acp", "--stdio"}, 2, "", `harness acp: unknown argument "--stdio"`},
	} {
		var out, errOut strings.Builder
		code := run(tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.errSn) {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %q", tc.args, code, out.String(), errOut.String())
		}
	}
}
