package repl

import (
	"strings"
	"testing"

	"harness/config"
	"harness/failures"
)

// TestSubprocess runs real commands through the subprocess and os modules:
// the same allow list, approvals and denials as run(), Python's results.
func TestSubprocess(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		approve bool
		asked   int    // approvals requested
		want    string // the whole result
		denied  bool
	}{
		{name: "allowed, captured", code: "import subprocess\np = subprocess.run([\"say\", \"hi\"], capture_output=True, text=True)\nprint(p.returncode, repr(p.stdout), repr(p.stderr))",
			want: "0 'hi\\n' ''"},
		{name: "bytes without text", code: "import subprocess\nsubprocess.run([\"say\", \"hi\"], capture_output=True).stdout", want: "b'hi\\n'"},
		{name: "not captured is printed", code: "import subprocess\nsubprocess.run([\"say\", \"shown\"]).returncode", want: "shown\n0"},
		{name: "approved, check", approve: true, asked: 1,
			code: "import subprocess\ntry:\n    subprocess.run([\"sh\", \"-c\", \"echo out; exit 3\"], check=True, capture_output=True, text=True)\nexcept subprocess.CalledProcessError as e:\n    print(e.returncode, repr(e.stdout), e)",
			want: "3 'out\\n' Command '['sh', '-c', 'echo out; exit 3']' returned non-zero exit status 3."},
		{name: "refused", asked: 1, denied: true,
			code: "import subprocess\ntry:\n    subprocess.run([\"sh\", \"-c\", \"echo no\"])\nexcept PermissionError as e:\n    print(\"refused:\", e)",
			want: "refused: the user refused to run sh; do not retry it, choose another way or ask in your answer"},
		{name: "deny list", denied: true, code: "import subprocess\nsubprocess.check_output([\"blocked\"])",
			want: "Traceback (most recent call last):\n  repl:2:24: in <expr>\nPermissionError: \"blocked\" is on the [commands] deny list and can never run"},
		{name: "shell=True approves sh", approve: true, asked: 1,
			code: "import subprocess\nsubprocess.run(\"echo a | tr a b\", shell=True, capture_output=True, text=True).stdout", want: "'b\\n'"},
		{name: "check_output", code: "import subprocess\nsubprocess.check_output([\"say\", \"x\"], text=True).strip()", want: "'x'"},
		{name: "stderr into stdout", approve: true, asked: 1,
			code: "import subprocess\nsubprocess.run([\"sh\", \"-c\", \"echo e >&2\"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout", want: "'e\\n'"},
		{name: "timeout", approve: true, asked: 1,
			code: "import subprocess\ntry:\n    subprocess.run([\"sh\", \"-c\", \"echo early; exec sleep 30\"], capture_output=True, text=True, timeout=0.5)\nexcept subprocess.TimeoutExpired as e:\n    print(e.timeout, repr(e.stdout), e)",
			want: "0.5 'early\\n' Command '['sh', '-c', 'echo early; exec sleep 30']' timed out after 0.5 seconds"},
		{name: "os.system", approve: true, asked: 1, code: "import os\nos.system(\"echo via-shell; exit 2\")", want: "via-shell\n512"},
		{name: "getstatusoutput", approve: true, asked: 1, code: "import subprocess\nsubprocess.getstatusoutput(\"echo x; exit 1\")", want: "(1, 'x')"},
		{name: "env refused", code: "import subprocess\nsubprocess.run([\"say\"], env={\"A\": \"1\"})", want: "env="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, withCommands(config.Commands{
				Deny:  []string{"blocked"},
				Allow: map[string]string{"say": "/bin/echo", "blocked": "/bin/echo"},
			}))
			e.approver.answer = tt.approve
			got := e.exec(tt.code)
			if got != tt.want && !(tt.name == "env refused" && strings.Contains(got, tt.want)) {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			if len(e.approver.seen) != tt.asked {
				t.Errorf("approvals asked: %d, want %d", len(e.approver.seen), tt.asked)
			}
			denied := false
			for _, n := range e.notes {
				denied = denied || n.Kind == failures.KindDenied
			}
			if denied != tt.denied {
				t.Errorf("denial noted = %v, want %v (%v)", denied, tt.denied, e.notes)
			}
		})
	}
}
