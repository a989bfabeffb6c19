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
	out := &stdStream{r: r, name: "<stdout>"}
	return &sysModule{newModule("sys", starlark.StringDict{
		"argv": starlark.NewList([]starlark.Value{starlark.String("")}), "platform": starlark.String("linux"),
		"version":      starlark.String("3.11 (the harness Starlark REPL: Python habits over Starlark)"),
		"version_info": starlark.Tuple{starlark.MakeInt(3), starlark.MakeInt(11), starlark.MakeInt(0), starlark.String("final"), starlark.MakeInt(0)},
		"maxsize":      starlark.MakeInt64(1<<63 - 1), "byteorder": starlark.String("little"),
		"path": starlark.NewList(nil), "executable": starlark.String(""), "stdlib_module_names": stdlibModuleNames(),
		"stdout": out, "stderr": &stdStream{r: r, name: "<stderr>"},
		"stdin": &unavailable{name: "sys.stdin", why: "the REPL has no input"},
		"exit":  builtin("sys.exit", pyExit),
		"getrecursionlimit": builtin("sys.getrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(MaxDepth), nil
		}),
		"setrecursionlimit": builtin("sys.setrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyErrorf(excRuntime, "the REPL's recursion limit is fixed at %d nested calls", MaxDepth)
		}),
	})}
}

// sysModule is sys, whose argv (and path) a program may replace, as
// programs do before calling their main().
type sysModule struct{ *starlarkstruct.Module }

var _ starlark.HasSetField = (*sysModule)(nil)

func (m *sysModule) SetField(name string, v starlark.Value) error {
	switch name {
	case "argv", "path":
		m.Members[name] = v
		return nil
	case "stdout", "stderr", "stdin":
		return pyErrorf(excNotImplemented, "sys.%s cannot be replaced in the REPL; use contextlib.redirect_stdout / redirect_stderr(io.StringIO()) to capture output", name)
	}
	return pyErrorf(excNotImplemented, "the REPL's sys.%s cannot be assigned; only sys.argv and sys.path can", name)
}

// stdStream is sys.stdout or sys.stderr: writes go to the call's output.
type stdStream struct {
	r    *Interp
	name string
}

func (s *stdStream) String() string {
	return "<_io.TextIOWrapper name='" + s.name + "' mode='w' encoding='utf-8'>"
}
func (s *stdStream) reprPy() string        { return s.String() }
func (s *stdStream) Type() string          { return "TextIOWrapper" }
func (s *stdStream) Freeze()               {}
func (s *stdStream) Truth() starlark.Bool  { return true }
func (s *stdStream) Hash() (uint32, error) { return 0, nil }
func (s *stdStream) AttrNames() []string   { return []string{"flush", "write", "writelines"} }
func (s *stdStream) Attr(name string) (starlark.Value, error) {
	switch name {
	case "write", "writelines":
		return builtin(s.name+"."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			if name == "writelines" {
				return starlark.None, iterate(v, func(x starlark.Value) (bool, error) {
					return true, s.r.writeStd(s.stream(), pyStr(x))
				})
			}
			str, ok := v.(starlark.String)
			if !ok {
				return nil, pyErrorf(excTypeError, "write() argument must be str, not %s", pyTypeName(v))
			}
			return starlark.MakeInt(pystr.CharLen(string(str))), s.r.writeStd(s.stream(), string(str))
		}), nil
	case "flush":
		return builtin(s.name+".flush", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
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
		m[name] = builtin("hashlib."+name, hashCtor(name, mk))
		names = append(names, starlark.String(name))
	}
	m["new"] = builtin("hashlib.new", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyErrorf(excTypeError, "new() missing the algorithm name")
		}
		name := strings.ToLower(pyStr(args[0]))
		mk, ok := hashes[name]
		if !ok {
			return nil, pyErrorf(excValueError, "unsupported hash type %s", name)
		}
		return hashCtor(name, mk)(thread, b, args[1:], kw)
	})
	m["algorithms_available"] = starlark.NewList(names)
	return newModule("hashlib", m)
}

func hashCtor(name string, mk func() hash.Hash) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		h := &hasher{name: name, h: mk()}
		var data starlark.Value = starlark.Bytes("")
		if err := starlark.UnpackArgs(b.Name(), args, kw, "data?", &data, "usedforsecurity?", new(bool)); err != nil {
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
			return pyErrorf(excTypeError, "Strings must be encoded before hashing")
		}
		return pyErrorf(excTypeError, "object supporting the buffer API required")
	}
	h.h.Write([]byte(b))
	return nil
}

func (h *hasher) String() string        { return "<" + h.name + " _hashlib.HASH object>" }
func (h *hasher) reprPy() string        { return h.String() }
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
		return builtin("update", unary(func(v starlark.Value) (starlark.Value, error) { return starlark.None, h.update(v) })), nil
	case "digest":
		return builtin("digest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bytes(h.h.Sum(nil)), nil
		}), nil
	case "hexdigest":
		return builtin("hexdigest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
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
		m[n] = &typingAlias{name: n}
	}
	identity := builtin("typing.identity", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.None, nil
		}
		return args[len(args)-1], nil
	})
	m["NamedTuple"], m["TypedDict"] = r.typingBases()
	m["cast"], m["overload"], m["final"], m["no_type_check"], m["runtime_checkable"] = identity, identity, identity, identity, identity
	return newModule("typing", m)
}
