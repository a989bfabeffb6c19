package repl

import (
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// TestModuleSlotsLayout checks that slotsOf can read a module's globals in
// this version of go.starlark.net (liveGlobal falls back to the REPL's
// globals when it cannot, and functions would then miss globals bound
// earlier in the same call).
func TestModuleSlotsLayout(t *testing.T) {
	g, err := starlark.ExecFileOptions(&syntax.FileOptions{}, &starlark.Thread{}, "m", "x = 1\ny = [2]\ndef f():\n    return x\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := slotsOf(g["f"].(*starlark.Function).Module())
	if ms == nil {
		t.Fatal("slotsOf: the layout of starlark.Module is not the expected one; update pyhidden.go")
	}
	for name, want := range map[string]starlark.Value{"x": starlark.MakeInt(1), "y": g["y"], "f": g["f"]} {
		i, ok := ms.names[name]
		if !ok || ms.slots[i] != want {
			t.Errorf("slot %s = %v, want %v", name, ms.slots[i], want)
		}
	}
}
