// textwrap.TextWrapper: the wrapper object whose wrap and fill the
// module's functions use, its options attributes a program may change.

package pytext

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// textWrapper is a TextWrapper object.
type textWrapper struct{ w *wrapper }

var (
	_ starlark.HasAttrs    = (*textWrapper)(nil)
	_ starlark.HasSetField = (*textWrapper)(nil)
)

// newTextWrapper is TextWrapper(width=70, ...), with wrap's options.
func newTextWrapper(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	_, w, err := parseWrapper(b.Name(), append(starlark.Tuple{starlark.String("")}, args...), kw, 70)
	if err != nil {
		return nil, err
	}
	return &textWrapper{w: w}, nil
}

func (t *textWrapper) String() string       { return "<textwrap.TextWrapper object>" }
func (t *textWrapper) Type() string         { return "TextWrapper" }
func (t *textWrapper) Freeze()              {}
func (t *textWrapper) Truth() starlark.Bool { return true }
func (t *textWrapper) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'TextWrapper'")
}

func (t *textWrapper) AttrNames() []string {
	return []string{"break_long_words", "break_on_hyphens", "drop_whitespace", "expand_tabs", "fill", "initial_indent",
		"max_lines", "placeholder", "replace_whitespace", "subsequent_indent", "tabsize", "width", "wrap"}
}

// field is the option attribute name: a pointer to its int, string or
// bool.
func (t *textWrapper) field(name string) any {
	w := t.w
	switch name {
	case "width":
		return &w.width
	case "max_lines":
		return &w.maxLines
	case "tabsize":
		return &w.tabsize
	case "initial_indent":
		return &w.initial
	case "subsequent_indent":
		return &w.subsequent
	case "placeholder":
		return &w.placeholder
	case "break_long_words":
		return &w.breakLong
	case "break_on_hyphens":
		return &w.breakHyphens
	case "drop_whitespace":
		return &w.drop
	case "replace_whitespace":
		return &w.replaceWS
	case "expand_tabs":
		return &w.expandTabs
	}
	return nil
}

func (t *textWrapper) Attr(name string) (starlark.Value, error) {
	switch f := t.field(name).(type) {
	case *int:
		return starlark.MakeInt(*f), nil
	case *string:
		return starlark.String(*f), nil
	case *bool:
		return starlark.Bool(*f), nil
	}
	if name != "wrap" && name != "fill" {
		return nil, nil
	}
	return pyrt.Builtin("TextWrapper."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var text string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &text); err != nil {
			return nil, err
		}
		if t.w.width <= 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "invalid width %d (must be > 0)", t.w.width)
		}
		lines := t.w.wrap(text)
		if name == "fill" {
			return starlark.String(strings.Join(lines, "\n")), nil
		}
		out := make([]starlark.Value, len(lines))
		for i, l := range lines {
			out[i] = starlark.String(l)
		}
		return starlark.NewList(out), nil
	}), nil
}

func (t *textWrapper) SetField(name string, v starlark.Value) error {
	var err error
	switch f := t.field(name).(type) {
	case *int:
		err = starlark.AsInt(v, f)
	case *string:
		s, ok := v.(starlark.String)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "%s must be a str", name)
		}
		*f = string(s)
	case *bool:
		*f = bool(v.Truth())
	default:
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'TextWrapper' object has no attribute '%s'", name)
	}
	return err
}
