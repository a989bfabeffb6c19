// shutil.copyfileobj: copies between any objects with read and write
// (files, io.BytesIO, gzip files, user classes), in chunks as CPython.

package pyfs

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func shutilCopyfileobj(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var src, dst starlark.Value
	length := 64 * 1024
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "fsrc", &src, "fdst", &dst, "length?", &length); err != nil {
		return nil, err
	}
	if length <= 0 {
		length = 64 * 1024
	}
	read, err := pyrt.GetAttr(src, "read")
	if err != nil {
		return nil, err
	}
	write, err := pyrt.GetAttr(dst, "write")
	if err != nil {
		return nil, err
	}
	for {
		chunk, err := starlark.Call(thread, read, starlark.Tuple{starlark.MakeInt(length)}, nil)
		if err != nil {
			return nil, err
		}
		if !chunk.Truth() {
			return starlark.None, nil
		}
		if _, err := starlark.Call(thread, write, starlark.Tuple{chunk}, nil); err != nil {
			return nil, err
		}
	}
}
