// sys, hashlib and typing (base64 is in pymod_base64.go).

package pyrt

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pystr"
)

func (r *Interp) sysModule() starlark.Value {
	out := &StdStream{R: r, Name: "<stdout>"}
	return &SysModule{NewModule("sys", starlark.StringDict{
		"argv": starlark.NewList([]starlark.Value{starlark.String("")}), "platform": starlark.String("linux"),
		"version":      starlark.String("3.11 (the harness Starlark REPL: Python habits over Starlark)"),
		"version_info": starlark.Tuple{starlark.MakeInt(3), starlark.MakeInt(11), starlark.MakeInt(0), starlark.String("final"), starlark.MakeInt(0)},
		"maxsize":      starlark.MakeInt64(1<<63 - 1), "byteorder": starlark.String("little"),
		"path": starlark.NewList(nil), "executable": starlark.String(""), "stdlib_module_names": stdlibModuleNames(),
		"stdout": out, "stderr": &StdStream{R: r, Name: "<stderr>"},
		"stdin": &Unavailable{ModName: "sys.stdin", Why: "the REPL has no input"},
		"exit":  Builtin("sys.exit", pyExit),
		"getrecursionlimit": Builtin("sys.getrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(MaxDepth), nil
		}),
		"setrecursionlimit": Builtin("sys.setrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, PyErrorf(ExcRuntime, "the REPL's recursion limit is fixed at %d nested calls", MaxDepth)
		}),
	})}
}

// sysModule is sys, whose argv (and path) a program may replace, as
// programs do before calling their main().
type SysModule struct{ *starlarkstruct.Module }

var _ starlark.HasSetField = (*SysModule)(nil)

func (m *SysModule) SetField(name string, v starlark.Value) error {
	switch name {
	case "argv", "path":
		m.Members[name] = v
		return nil
	case "stdout", "stderr", "stdin":
		return PyErrorf(ExcNotImplemented, "sys.%s cannot be replaced in the REPL; use contextlib.redirect_stdout / redirect_stderr(io.StringIO()) to capture output", name)
	}
	return PyErrorf(ExcNotImplemented, "the REPL's sys.%s cannot be assigned; only sys.argv and sys.path can", name)
}

// stdStream is sys.stdout or sys.stderr: writes go to the call's output.
type StdStream struct {
	R    *Interp
	Name string
}

func (s *StdStream) String() string {
	return "<_io.TextIOWrapper name='" + s.Name + "' mode='w' encoding='utf-8'>"
}
func (s *StdStream) ReprPy() string        { return s.String() }
func (s *StdStream) Type() string          { return "TextIOWrapper" }
func (s *StdStream) Freeze()               {}
func (s *StdStream) Truth() starlark.Bool  { return true }
func (s *StdStream) Hash() (uint32, error) { return 0, nil }
func (s *StdStream) AttrNames() []string   { return []string{"flush", "write", "writelines"} }
func (s *StdStream) Attr(name string) (starlark.Value, error) {
	switch name {
	case "write", "writelines":
		return Builtin(s.Name+"."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			if name == "writelines" {
				return starlark.None, Iterate(v, func(x starlark.Value) (bool, error) {
					return true, s.R.WriteStd(s.Stream(), PyStr(x))
				})
			}
			str, ok := v.(starlark.String)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "write() argument must be str, not %s", PyTypeName(v))
			}
			return starlark.MakeInt(pystr.CharLen(string(str))), s.R.WriteStd(s.Stream(), string(str))
		}), nil
	case "flush":
		return Builtin(s.Name+".flush", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}

var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New,
}

func (r *Interp) hashlibModule() starlark.Value {
	m := starlark.StringDict{}
	var names []starlark.Value
	for name, mk := range hashes {
		m[name] = Builtin("hashlib."+name, hashCtor(name, mk))
		names = append(names, starlark.String(name))
	}
	m["new"] = Builtin("hashlib.new", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, PyErrorf(ExcTypeError, "new() missing the algorithm name")
		}
		name := strings.ToLower(PyStr(args[0]))
		mk, ok := hashes[name]
		if !ok {
			return nil, PyErrorf(ExcValueError, "unsupported hash type %s", name)
		}
		return hashCtor(name, mk)(thread, b, args[1:], kw)
	})
	m["algorithms_available"] = starlark.NewList(names)
	return NewModule("hashlib", m)
}

func hashCtor(name string, mk func() hash.Hash) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		h := &hasher{name: name, h: mk()}
		var data starlark.Value = starlark.Bytes("")
		if err := UnpackArgs(b.Name(), args, kw, "data?", &data, "usedforsecurity?", new(bool)); err != nil {
			return nil, err
		}
		return h, h.update(data)
	}
}

type hasher struct {
	name string
	h    hash.Hash
}

func (h *hasher) update(v starlark.Value) error {
	b, ok := v.(starlark.Bytes)
	if !ok {
		if _, isStr := v.(starlark.String); isStr {
			return PyErrorf(ExcTypeError, "Strings must be encoded before hashing")
		}
		return PyErrorf(ExcTypeError, "object supporting the buffer API required")
	}
	h.h.Write([]byte(b))
	return nil
}

func (h *hasher) String() string        { return "<" + h.name + " _hashlib.HASH object>" }
func (h *hasher) ReprPy() string        { return h.String() }
func (h *hasher) Type() string          { return "_hashlib.HASH" }
func (h *hasher) Freeze()               {}
func (h *hasher) Truth() starlark.Bool  { return true }
func (h *hasher) Hash() (uint32, error) { return 0, nil }
func (h *hasher) AttrNames() []string {
	return []string{"block_size", "digest", "digest_size", "hexdigest", "name", "update"}
}
func (h *hasher) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(h.name), nil
	case "digest_size":
		return starlark.MakeInt(h.h.Size()), nil
	case "block_size":
		return starlark.MakeInt(h.h.BlockSize()), nil
	case "update":
		return Builtin("update", Unary(func(v starlark.Value) (starlark.Value, error) { return starlark.None, h.update(v) })), nil
	case "digest":
		return Builtin("digest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bytes(h.h.Sum(nil)), nil
		}), nil
	case "hexdigest":
		return Builtin("hexdigest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(hex.EncodeToString(h.h.Sum(nil))), nil
		}), nil
	}
	return nil, nil
}

func (r *Interp) typingModule() starlark.Value {
	m := starlark.StringDict{"TYPE_CHECKING": starlark.False}
	for _, n := range []string{"Any", "List", "Dict", "Set", "FrozenSet", "Tuple", "Optional", "Union", "Callable", "Iterable",
		"Iterator", "Sequence", "Mapping", "MutableMapping", "Generator", "Type", "TypeVar", "Literal", "Final", "ClassVar",
		"Protocol", "NoReturn", "AnyStr", "Text", "Hashable", "Sized", "Container", "Collection", "DefaultDict", "Counter",
		"Deque", "OrderedDict", "Pattern", "Match", "IO", "TextIO", "BinaryIO", "Annotated", "Self", "TypeAlias", "Generic"} {
		m[n] = &TypingAlias{name: n}
	}
	identity := Builtin("typing.identity", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.None, nil
		}
		return args[len(args)-1], nil
	})
	m["NamedTuple"], m["TypedDict"] = r.typingBases()
	m["cast"], m["overload"], m["final"], m["no_type_check"], m["runtime_checkable"] = identity, identity, identity, identity, identity
	return NewModule("typing", m)
}
