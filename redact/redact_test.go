package redact

import (
	"testing"
)

func TestString(t *testing.T) {
	r := New([]string{"sk-1", "", "tok<&>"})
	tests := []struct{ in, want string }{
		{"", ""},
		{"no secret here", "no secret here"},
		{"key sk-1 and sk-1", "key [REDACTED] and [REDACTED]"},
		{"tok<&> sk-1", "[REDACTED] [REDACTED]"},
		{`"tok\u003c\u0026\u003e"`, `"tok\u003c\u0026\u003e"`}, // escaped forms only in JSON
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSON(t *testing.T) {
	r := New([]string{"sk-1", "tok<&>"})
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"k":"sk-1"}`, `{"k":"[REDACTED]"}`},
		{`"tok\u003c\u0026\u003e and sk-1"`, `"[REDACTED] and [REDACTED]"`},
		{`{"sk-1":1, "n":2}`, `{"[REDACTED]":1, "n":2}`},
		{`[1, sk-1]`, `"[REDACTED]"`}, // not JSON after replacement
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		if got := string(r.JSON(in)); got != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if string(in) != tt.in {
			t.Errorf("JSON(%s) modified its argument to %s", tt.in, in)
		}
	}
}

func TestNil(t *testing.T) {
	var r *Redactor
	if r.String("sk-1") != "sk-1" || r.Contains([]byte("sk-1")) || r.Active() || string(r.JSON([]byte(`"x"`))) != `"x"` {
		t.Error("a nil Redactor changed something")
	}
	if New([]string{""}).Active() {
		t.Error("a Redactor of only empty secrets is active")
	}
	if !New([]string{"s"}).Active() {
		t.Error("a Redactor with a secret is not active")
	}
}
