// Package modslots reads a running Starlark module's globals by name: the
// one place the REPL reads go.starlark.net internals, through reflect and
// unsafe.
//
// Starlark keeps a module's globals in a slice that only its compiled code
// indexes. A function reading a global while the chunk defining it still
// runs needs the current value, which is there and not yet in the REPL's
// globals (the AST pass routes such reads through the runtime, which asks
// here first).
//
// Of returns nil when the layout of starlark.Module is not the expected
// one; callers then fall back to the REPL's globals. TestLayout fails
// loudly on such a go.starlark.net upgrade: fix this file, nothing else.
//
// modslots imports only go.starlark.net.
package modslots

import (
	"reflect"
	"unsafe"

	"go.starlark.net/starlark"
)

// Slots are a module's globals by name. A nil *Slots has no globals.
type Slots struct {
	names map[string]int
	slots []starlark.Value
}

// Of reads m's globals through reflection; it returns nil if the layout of
// go.starlark.net's Module is not the expected one (TestLayout checks it
// is).
func Of(m *starlark.Module) *Slots {
	mv := reflect.ValueOf(m).Elem()
	gv, pv := mv.FieldByName("globals"), mv.FieldByName("program")
	if !gv.IsValid() || gv.Type() != reflect.TypeOf([]starlark.Value(nil)) || !pv.IsValid() || pv.IsNil() {
		return nil
	}
	cv := pv.Elem().FieldByName("compiled")
	if !cv.IsValid() || cv.IsNil() {
		return nil
	}
	bv := cv.Elem().FieldByName("Globals")
	if !bv.IsValid() || bv.Kind() != reflect.Slice {
		return nil
	}
	ms := &Slots{names: map[string]int{}, slots: *(*[]starlark.Value)(unsafe.Pointer(gv.UnsafeAddr()))}
	for i := 0; i < bv.Len(); i++ {
		if nv := bv.Index(i).FieldByName("Name"); nv.IsValid() && nv.Kind() == reflect.String {
			ms.names[nv.String()] = i
		}
	}
	if len(ms.slots) != bv.Len() {
		return nil
	}
	return ms
}

// Get returns the current value of the global name, or nil when the
// module has no such global or it is not bound yet.
func (s *Slots) Get(name string) starlark.Value {
	if s == nil {
		return nil
	}
	if i, ok := s.names[name]; ok {
		return s.slots[i]
	}
	return nil
}

// Set binds the global name to v, if the module has such a global.
func (s *Slots) Set(name string, v starlark.Value) {
	if s == nil {
		return
	}
	if i, ok := s.names[name]; ok {
		s.slots[i] = v
	}
}
