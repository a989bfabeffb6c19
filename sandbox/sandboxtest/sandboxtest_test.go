package sandboxtest

import "testing"

// TestDial: the probe connects to a listener (0), and reports another
// failure than EACCES as 1: the port of a closed listener refuses with
// ECONNREFUSED.
func TestDial(t *testing.T) {
	if code := Dial(Listen(t)); code != 0 {
		t.Errorf("dial a listener: exit %d, want 0", code)
	}
	var addr string
	t.Run("closed", func(t *testing.T) { addr = Listen(t) }) // closed when the subtest ends
	if code := Dial(addr); code != 1 {
		t.Errorf("dial a closed port: exit %d, want 1", code)
	}
}
