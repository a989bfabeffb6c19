package modslots

import (
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// TestLayout checks that Of can read a module's globals in this version of
// go.starlark.net (the REPL falls back to its own globals when it cannot,
// and functions would then miss globals bound earlier in the same call).
func TestLayout(t *testing.T) {
	g, err := starlark.ExecFileOptions(&syntax.FileOptions{}, &starlark.Thread{}, "m", "x = 1\ny = [2]\ndef f():\n    return x\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := Of(g["f"].(*starlark.Function).Module())
	if ms == nil {
		t.Fatal("modslots.Of: the layout of starlark.Module is not the expected one; update repl/modslots/modslots.go")
	}
	for name, want := range map[string]starlark.Value{"x": starlark.MakeInt(1), "y": g["y"], "f": g["f"]} {
		if got := ms.Get(name); got != want {
			t.Errorf("slot %s = %v, want %v", name, got, want)
		}
	}
	if got := ms.Get("nope"); got != nil {
		t.Errorf("slot nope = %v, want nil", got)
	}
	ms.Set("x", starlark.MakeInt(7))
	ms.Set("nope", starlark.MakeInt(7)) // no such global: nothing happens
	if got := ms.Get("x"); got != starlark.MakeInt(7) {
		t.Errorf("slot x after Set = %v, want 7", got)
	}
	var none *Slots
	none.Set("x", starlark.None)
	if none.Get("x") != nil {
		t.Error("a nil *Slots has a global")
	}
}
