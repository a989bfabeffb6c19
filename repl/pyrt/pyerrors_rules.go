// How a Starlark error becomes a Python exception: its message matched
// against rules that give the class and CPython's wording.

package pyrt

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// keyRule reads Starlark's missing-key message, to give KeyError its key.
var keyRule = regexp.MustCompile(`^key (.+) not in \w+$`)

type msgRule struct {
	re  *regexp.Regexp
	typ *ExcType
	fix func(m []string) string // Python's message, or nil to keep the text
}

func rule(re string, typ *ExcType, fix func([]string) string) msgRule {
	return msgRule{regexp.MustCompile(re), typ, fix}
}

// starlarkTypeNames maps Starlark's type names to Python's.
var starlarkTypeNames = map[string]string{"string": "str", "NoneType": "NoneType", "builtin_function_or_method": "builtin_function_or_method", "Path": "PosixPath"}

func pyTypeOf(starlarkName string) string {
	if n, ok := starlarkTypeNames[starlarkName]; ok {
		return n
	}
	return starlarkName
}

var msgRules = []msgRule{
	rule(`^(?:\w+: )?run: (PermissionError|FileNotFoundError|NotADirectoryError): (.*)$`, nil, nil),
	rule(`^fail: (.*)$`, ExcException, func(m []string) string { return m[1] }),
	rule(`^chr: Unicode code point .* out of range`, ExcValueError, func([]string) string { return "chr() arg not in range(0x110000)" }),
	rule(`^pop: empty set$`, ExcKeyError, func([]string) string { return "pop from an empty set" }),
	rule(`^function (\S+) missing (\d+) arguments? \((.*)\)$`, ExcTypeError, func(m []string) string {
		names := strings.Split(m[3], ", ")
		for i, n := range names {
			names[i] = "'" + n + "'"
		}
		list := strings.Join(names, ", ")
		if len(names) > 1 {
			list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		}
		return fmt.Sprintf("%s() missing %s required positional argument%s: %s", funcName(m[1]), m[2], Plural(len(names)), list)
	}),
	rule(`^function (\S+) accepts (?:at most )?(\d+) positional arguments? \((\d+) given\)$`, ExcTypeError, func(m []string) string {
		n, _ := strconv.Atoi(m[2])
		given, _ := strconv.Atoi(m[3])
		return fmt.Sprintf("%s() takes %d positional argument%s but %d %s given", funcName(m[1]), n, Plural(n), given, map[bool]string{true: "was", false: "were"}[given == 1])
	}),
	rule(`^function (\S+) accepts no arguments \((\d+) given\)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("%s() takes 0 positional arguments but %s %s given", funcName(m[1]), m[2], map[bool]string{true: "was", false: "were"}[m[2] == "1"])
	}),
	rule(`^function (\S+) got an unexpected keyword argument (\S+)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("%s() got an unexpected keyword argument '%s'", funcName(m[1]), m[2])
	}),
	rule(`^function (\S+) got multiple values for parameter (\S+)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("%s() got multiple values for argument '%s'", funcName(m[1]), m[2])
	}),
	rule(`key (.+) not in \w+`, ExcKeyError, func(m []string) string { return pyReprFromStarlark(m[1]) }),
	rule(`missing key`, ExcKeyError, nil),
	rule(`pop from empty|empty list`, ExcIndexError, func([]string) string { return "pop from empty list" }),
	// Starlark's own x[i] = v (reads of x[i] are the runtime's, with Python's words)
	rule(`^list index -?\d+ out of range \[-?\d+:-?\d+\]$`, ExcIndexError, func([]string) string { return "list assignment index out of range" }),
	rule(`^pop: list index -?\d+ out of range`, ExcIndexError, func([]string) string { return "pop index out of range" }),
	rule(`index -?\d+ out of range|out of range`, ExcIndexError, nil),
	rule(`floating-point division by zero|float division by zero`, ExcZeroDivision, func([]string) string { return "division by zero" }),
	rule(`floored division by zero|integer division by zero`, ExcZeroDivision, func([]string) string { return "integer division or modulo by zero" }),
	rule(`modulo by zero`, ExcZeroDivision, func([]string) string { return "integer modulo by zero" }),
	rule(`division by zero`, ExcZeroDivision, nil),
	rule(`^(?:\w+: )?(\S+) has no \.(\w+) field or method`, ExcAttribute, func(m []string) string {
		return fmt.Sprintf("'%s' object has no attribute '%s'", pyTypeOf(m[1]), m[2])
	}),
	rule(`has no \.(\w+) field or method`, ExcAttribute, nil),
	rule(`substring not found`, ExcValueError, func([]string) string { return "substring not found" }),
	rule(`remove: element not found`, ExcValueError, func([]string) string { return "list.remove(x): x not in list" }),
	rule(`value not found|not in list|element not found`, ExcValueError, nil),
	rule(`too few values to unpack \(got (\d+), want (\d+)\)`, ExcValueError, func(m []string) string {
		return fmt.Sprintf("not enough values to unpack (expected %s, got %s)", m[2], m[1])
	}),
	rule(`too many values to unpack \(got (\d+), want (\d+)\)`, ExcValueError, func(m []string) string {
		return fmt.Sprintf("too many values to unpack (expected %s)", m[2])
	}),
	rule(`too many values to unpack|too few values to unpack|not enough values`, ExcValueError, nil),
	rule(`invalid literal|invalid syntax|invalid base|not a valid|could not convert`, ExcValueError, nil),
	rule(`^json\.|json: `, ExcJSONDecode, nil),
	rule(`local variable (\w+) referenced before assignment`, excUnboundLocal, func(m []string) string {
		return fmt.Sprintf("cannot access local variable '%s' where it is not associated with a value", m[1])
	}),
	rule(`global variable (\w+) referenced before assignment`, excNameError, func(m []string) string {
		return fmt.Sprintf("name '%s' is not defined", m[1])
	}),
	rule(`^undefined: (\w+)`, excNameError, func(m []string) string { return fmt.Sprintf("name '%s' is not defined", m[1]) }),
	rule(`unknown binary op: string \+ (\S+)`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf(`can only concatenate str (not "%s") to str`, pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (list|tuple) \+ (\S+)`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf(`can only concatenate %s (not "%s") to %s`, m[1], pyTypeOf(m[2]), m[1])
	}),
	rule(`unknown binary op: (string|list|tuple|bytes) \* (string|list|tuple|bytes|float|dict|NoneType|set)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", pyTypeOf(m[2]))
	}),
	rule(`unknown binary op: (float|dict|NoneType|set) \* (string|list|tuple|bytes)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", pyTypeOf(m[1]))
	}),
	rule(`^(?:[\w.]+: )?(?:for parameter \S+: )?got (float|string|NoneType|list|tuple|dict), want int$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object cannot be interpreted as an integer", pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (\S+) (?:not )?in (\S+)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("argument of type '%s' is not iterable", pyTypeOf(m[2]))
	}),
	rule(`^(\S+) value does not support item assignment$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object does not support item assignment", pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (\S+) (\S+) (\S+)`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("unsupported operand type(s) for %s: '%s' and '%s'", m[2], pyTypeOf(m[1]), pyTypeOf(m[3]))
	}),
	rule(`during iteration`, ExcRuntime, nil),
	rule(`^string index: got (\S+), want int$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("string indices must be integers, not '%s'", pyTypeOf(m[1]))
	}),
	rule(`^(?:\w+: )?for parameter "reverse": got (string|float|NoneType|list|tuple|dict), want bool$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object cannot be interpreted as an integer", pyTypeOf(m[1]))
	}),
	rule(`^(?:\w+: )?(tuple|list) index: got (\S+), want int$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("%s indices must be integers or slices, not %s", m[1], pyTypeOf(m[2]))
	}),
	rule(`^unhandled index operation (\S+)\[`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not subscriptable", pyTypeOf(m[1]))
	}),
	rule(`^invalid call of non-function \((\S+)\)`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not callable", pyTypeOf(m[1]))
	}),
	rule(`^(\S+) (<|<=|>|>=) (\S+) not implemented$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' not supported between instances of '%s' and '%s'", m[2], pyTypeOf(m[1]), pyTypeOf(m[3]))
	}),
	rule(`unhashable type: (\w+)$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("unhashable type: '%s'", pyTypeOf(m[1]))
	}),
	rule(`(?:^\w+: )?dictionary update sequence element #(\d+) has length (\d+), want 2`, ExcValueError, func(m []string) string {
		return fmt.Sprintf("dictionary update sequence element #%s has length %s; 2 is required", m[1], m[2])
	}),
	rule(`for parameter \d+: got (\S+), want iterable$`, ExcTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not iterable", pyTypeOf(m[1]))
	}),
	rule(`unsupported|unknown (binary|unary) op|not callable|got \S+, want|missing argument|unexpected keyword|positional argument|for parameter|not iterable|unhashable|not supported|cannot compare|not comparable|does not support|invalid call|frozen`, ExcTypeError, nil),
	rule(`^(?:[\w.]+: )?('in <string>' requires string as left operand, not \w+)$`, ExcTypeError, func(m []string) string { return m[1] }),
}

// funcName is a function's name as Python's messages show it.
func funcName(n string) string {
	if n == "lambda" {
		return "<lambda>"
	}
	return n
}

// classifyMessage names the class of a Starlark error message and gives
// Python's wording where it differs.
func classifyMessage(msg string) (*ExcType, string) {
	for i, r := range msgRules {
		m := r.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		if i == 0 {
			return RunKinds[m[1]], "run: " + m[2]
		}
		if r.fix != nil {
			return r.typ, r.fix(m)
		}
		return r.typ, msg
	}
	return ExcException, msg
}

// pyReprFromStarlark turns a simple Starlark string repr ("a") into
// Python's ('a'); other text is kept.
func pyReprFromStarlark(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.ContainsAny(s[1:len(s)-1], `"'\`) {
		return "'" + s[1:len(s)-1] + "'"
	}
	return s
}
