// sys, hashlib and typing (base64 is in repl/lib/pyarchive/base64.go).

package pylang

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func sysModule(r *pyrt.Interp) starlark.Value {
	out := &pyrt.StdStream{R: r, Name: "<stdout>"}
	return &pyrt.SysModule{Module: pyrt.NewModule("sys", starlark.StringDict{
		"argv": starlark.NewList([]starlark.Value{starlark.String("")}), "platform": starlark.String("linux"),
		"version":      starlark.String("3.11 (the harness Starlark REPL: Python habits over Starlark)"),
		"version_info": starlark.Tuple{starlark.MakeInt(3), starlark.MakeInt(11), starlark.MakeInt(0), starlark.String("final"), starlark.MakeInt(0)},
		"maxsize":      starlark.MakeInt64(1<<63 - 1), "byteorder": starlark.String("little"),
		"path": starlark.NewList(nil), "executable": starlark.String(""), "stdlib_module_names": pyrt.StdlibModuleNames(),
		"stdout": out, "stderr": &pyrt.StdStream{R: r, Name: "<stderr>"},
		"stdin": &pyrt.Unavailable{ModName: "sys.stdin", Why: "the REPL has no input"},
		"exit":  pyrt.Builtin("sys.exit", pyrt.PyExit),
		"getrecursionlimit": pyrt.Builtin("sys.getrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(pyrt.MaxDepth), nil
		}),
		"setrecursionlimit": pyrt.Builtin("sys.setrecursionlimit", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.PyErrorf(pyrt.ExcRuntime, "the REPL's recursion limit is fixed at %d nested calls", pyrt.MaxDepth)
		}),
	})}
}

var _ starlark.HasSetField = (*pyrt.SysModule)(nil)

var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New,
}

func hashlibModule(r *pyrt.Interp) starlark.Value {
	m := starlark.StringDict{}
	var names []starlark.Value
	for name, mk := range hashes {
		m[name] = pyrt.Builtin("hashlib."+name, hashCtor(name, mk))
		names = append(names, starlark.String(name))
	}
	m["new"] = pyrt.Builtin("hashlib.new", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "new() missing the algorithm name")
		}
		name := strings.ToLower(pyrt.PyStr(args[0]))
		mk, ok := hashes[name]
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "unsupported hash type %s", name)
		}
		return hashCtor(name, mk)(thread, b, args[1:], kw)
	})
	m["algorithms_available"] = starlark.NewList(names)
	return pyrt.NewModule("hashlib", m)
}

func hashCtor(name string, mk func() hash.Hash) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		h := &hasher{name: name, h: mk()}
		var data starlark.Value = starlark.Bytes("")
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "data?", &data, "usedforsecurity?", new(bool)); err != nil {
			return nil, err
		}
		return h, h.Update(data)
	}
}

type hasher struct {
	name string
	h    hash.Hash
}

func (h *hasher) Update(v starlark.Value) error {
	b, ok := v.(starlark.Bytes)
	if !ok {
		if _, isStr := v.(starlark.String); isStr {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "Strings must be encoded before hashing")
		}
		return pyrt.PyErrorf(pyrt.ExcTypeError, "object supporting the buffer API required")
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
		return pyrt.Builtin("update", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) { return starlark.None, h.Update(v) })), nil
	case "digest":
		return pyrt.Builtin("digest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bytes(h.h.Sum(nil)), nil
		}), nil
	case "hexdigest":
		return pyrt.Builtin("hexdigest", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(hex.EncodeToString(h.h.Sum(nil))), nil
		}), nil
	}
	return nil, nil
}

func typingModule(r *pyrt.Interp) starlark.Value {
	m := starlark.StringDict{"TYPE_CHECKING": starlark.False}
	for _, n := range []string{"Any", "List", "Dict", "Set", "FrozenSet", "Tuple", "Optional", "Union", "Callable", "Iterable",
		"Iterator", "Sequence", "Mapping", "MutableMapping", "Generator", "Type", "TypeVar", "Literal", "Final", "ClassVar",
		"Protocol", "NoReturn", "AnyStr", "Text", "Hashable", "Sized", "Container", "Collection", "DefaultDict", "Counter",
		"Deque", "OrderedDict", "Pattern", "Match", "IO", "TextIO", "BinaryIO", "Annotated", "Self", "TypeAlias", "Generic"} {
		m[n] = &pyrt.TypingAlias{AliasName: n}
	}
	identity := pyrt.Builtin("typing.identity", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.None, nil
		}
		return args[len(args)-1], nil
	})
	m["NamedTuple"], m["TypedDict"] = r.TypingBases()
	m["cast"], m["overload"], m["final"], m["no_type_check"], m["runtime_checkable"] = identity, identity, identity, identity, identity
	return pyrt.NewModule("typing", m)
}
