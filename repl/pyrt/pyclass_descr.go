// The descriptor protocol for descriptors written in Python: a class
// attribute whose class defines __get__ or __set__ (a validating field,
// a lazy attribute) answers reads and stores of that attribute.

package pyrt

import "go.starlark.net/starlark"

// userDescriptor returns the __get__ and __set__ of v's class when v is
// an instance of a REPL class defining either; ok is false otherwise.
func userDescriptor(v starlark.Value) (get, set starlark.Value, ok bool) {
	o, isObj := v.(*PyObject)
	if !isObj {
		return nil, nil, false
	}
	get, _ = ClassLookup(o.Cls, "__get__")
	set, _ = ClassLookup(o.Cls, "__set__")
	return get, set, get != nil || set != nil
}

// descriptorGet is descr.__get__(obj, owner) for a class attribute v, read
// on obj (None when read on the class); ok is false when v has no
// __get__.
func descriptorGet(thread *starlark.Thread, v, obj starlark.Value, owner *PyType) (starlark.Value, bool, error) {
	get, _, ok := userDescriptor(v)
	if !ok || get == nil {
		return nil, false, nil
	}
	out, err := CallBound(thread, get, v, starlark.Tuple{obj, owner}, nil)
	return out, true, err
}

// descriptorSet is descr.__set__(obj, value) when the class attribute
// name of obj's class has a __set__; ok is false otherwise.
func (o *PyObject) descriptorSet(name string, value starlark.Value) (bool, error) {
	v := o.classValue(name)
	if _, set, ok := userDescriptor(v); ok && set != nil {
		_, err := CallBound(o.thread(), set, v, starlark.Tuple{o, value}, nil)
		return true, err
	}
	return false, nil
}
