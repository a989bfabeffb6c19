// Python's printf-style formatting: "%-8s|%5.2f" % (name, x).

package pyrt

import (
	"math/big"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// percentOp is x % y: %-formatting when x is a string, Starlark's
// operator otherwise, with Python's errors.
func PercentOp(thread *starlark.Thread, x, y starlark.Value) (starlark.Value, error) {
	if s, ok := x.(starlark.String); ok {
		out, err := PercentFormat(thread, string(s), y)
		if err != nil {
			return nil, err
		}
		if r, _ := thread.Local(ThreadInterp).(*Interp); r != nil {
			if err := r.TakeReprErr(); err != nil {
				return nil, err // raised by a __str__ or __repr__ of %s, %r
			}
		}
		return starlark.String(out), nil
	}
	if isZero(y) {
		switch x.(type) {
		case starlark.Int, starlark.Float, starlark.Bool:
			if _, ok := x.(starlark.Float); ok {
				return nil, PyErrorf(ExcZeroDivision, "float modulo")
			}
			if _, ok := y.(starlark.Float); ok {
				return nil, PyErrorf(ExcZeroDivision, "float modulo")
			}
			return nil, PyErrorf(ExcZeroDivision, "integer modulo by zero")
		}
	}
	bx, by := boolOperands(x, y) // True % 2 is 1
	v, err := starlark.Binary(syntax.PERCENT, bx, by)
	if _, raised := err.(*PyError); raised {
		return nil, err // a Fraction's ZeroDivisionError
	}
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for %%: '%s' and '%s'", PyTypeName(x), PyTypeName(y))
	}
	return v, nil
}

func isZero(v starlark.Value) bool {
	switch v := v.(type) {
	case starlark.Int:
		return v.Sign() == 0
	case starlark.Float:
		return v == 0
	case starlark.Bool:
		return !bool(v)
	}
	return false
}

// percentFormat formats like Python's str % args, within the memory
// budget of thread's REPL.
func PercentFormat(thread *starlark.Thread, f string, args starlark.Value) (string, error) {
	growth := textGrowth{thread: thread, what: "%-formatting"}
	var list []starlark.Value
	var mapping starlark.Mapping
	switch a := args.(type) {
	case starlark.Tuple:
		list = a
	case starlark.Mapping:
		mapping = a
		list = []starlark.Value{a}
	default:
		list = []starlark.Value{a}
	}
	next := 0
	take := func() (starlark.Value, error) {
		if next >= len(list) {
			return nil, PyErrorf(ExcTypeError, "not enough arguments for format string")
		}
		next++
		return list[next-1], nil
	}
	usedMapping := false
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			sb.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return "", PyErrorf(ExcValueError, "incomplete format")
		}
		var arg starlark.Value
		if f[i] == '(' {
			j := strings.IndexByte(f[i:], ')')
			if j < 0 {
				return "", PyErrorf(ExcValueError, "incomplete format key")
			}
			if mapping == nil {
				return "", PyErrorf(ExcTypeError, "format requires a mapping")
			}
			key := starlark.String(f[i+1 : i+j])
			v, found, err := mapping.Get(key)
			if err != nil {
				return "", err
			}
			if !found {
				return "", KeyError(key)
			}
			arg, usedMapping = v, true
			i += j + 1
		}
		sp := FmtSpec{Fill: ' ', Width: -1, Precision: -1}
		for ; i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0; i++ {
			switch f[i] {
			case '-':
				sp.Align = '<'
			case '+':
				sp.sign = '+'
			case ' ':
				if sp.sign == 0 {
					sp.sign = ' '
				}
			case '#':
				sp.Alt = true
			case '0':
				sp.Zero = true
			}
		}
		num := func() (int, error) {
			if i < len(f) && f[i] == '*' {
				i++
				v, err := take()
				if err != nil {
					return 0, err
				}
				n, err := starlark.AsInt32(v)
				if err != nil {
					return 0, PyErrorf(ExcTypeError, "* wants int")
				}
				return n, nil
			}
			j := i
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			if j == i {
				return -1, nil
			}
			n, _ := strconv.Atoi(f[i:j])
			i = j
			return n, nil
		}
		w, err := num()
		if err != nil {
			return "", err
		}
		if w < -1 {
			sp.Align, w = '<', -w
		}
		sp.Width = w
		if i < len(f) && f[i] == '.' {
			i++
			p, err := num()
			if err != nil {
				return "", err
			}
			sp.Precision = max(p, 0)
		}
		for i < len(f) && strings.IndexByte("hlL", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			return "", PyErrorf(ExcValueError, "incomplete format")
		}
		conv := f[i]
		if conv == '%' {
			sb.WriteByte('%')
			continue
		}
		if arg == nil {
			if arg, err = take(); err != nil {
				return "", err
			}
		}
		if sp.Align == '<' {
			sp.Zero = false
		}
		if err := checkGrowth(thread, "a %-format width", 4*int64(max(sp.Width, sp.Precision))); err != nil {
			return "", err
		}
		s, err := percentOne(conv, arg, sp)
		if err != nil {
			return "", err
		}
		if err := growth.Check(sb.Len() + len(s)); err != nil {
			return "", err
		}
		sb.WriteString(s)
	}
	if next < len(list) && !usedMapping && mapping == nil {
		return "", PyErrorf(ExcTypeError, "not all arguments converted during string formatting")
	}
	return sb.String(), nil
}

func percentOne(conv byte, arg starlark.Value, sp FmtSpec) (string, error) {
	switch conv {
	case 's', 'r', 'a':
		var s string
		switch conv {
		case 's':
			s = PyStr(arg)
		case 'r':
			s = PyRepr(arg)
		default:
			s = asciiRepr(PyRepr(arg))
		}
		if sp.Precision >= 0 && len([]rune(s)) > sp.Precision {
			s = string([]rune(s)[:sp.Precision])
		}
		sp.Zero = false
		return pad("", s, sp, '>'), nil
	case 'c':
		switch a := arg.(type) {
		case starlark.Int:
			n, ok := a.Int64()
			if !ok || n < 0 || n > 0x10ffff {
				return "", PyErrorf(ExcOverflow, "%%c arg not in range(0x110000)")
			}
			return pad("", string(rune(n)), sp, '>'), nil
		case starlark.String:
			if len([]rune(string(a))) == 1 {
				return pad("", string(a), sp, '>'), nil
			}
		}
		return "", PyErrorf(ExcTypeError, "%%c requires int or char")
	case 'd', 'i', 'u', 'o', 'x', 'X':
		var x *big.Int
		switch a := enumMixinValue(arg).(type) { // an IntEnum member is its int
		case starlark.Int:
			x = a.BigInt()
		case starlark.Bool:
			x = big.NewInt(int64(B2i(bool(a))))
		case starlark.Float:
			if conv != 'd' && conv != 'i' && conv != 'u' {
				return "", PyErrorf(ExcTypeError, "%%%c format: an integer is required, not float", conv)
			}
			bf := new(big.Float).SetFloat64(float64(a))
			x, _ = bf.Int(nil)
		case NumberObject:
			if conv != 'd' && conv != 'i' && conv != 'u' {
				return "", PyErrorf(ExcTypeError, "%%%c format: an integer is required, not %s", conv, PyTypeName(arg))
			}
			i, err := a.IntPy()
			if err != nil {
				return "", err
			}
			x = i.(starlark.Int).BigInt()
		default:
			kind := "a real number"
			if conv != 'd' && conv != 'i' && conv != 'u' {
				kind = "an integer"
			}
			return "", PyErrorf(ExcTypeError, "%%%c format: %s is required, not %s", conv, kind, PyTypeName(arg))
		}
		t := conv
		if t == 'i' || t == 'u' {
			t = 'd'
		}
		sp.Typ = t
		precision := sp.Precision
		sp.Precision = -1
		if precision > 0 {
			neg := x.Sign() < 0
			digits := new(big.Int).Abs(x).Text(map[byte]int{'d': 10, 'o': 8, 'x': 16, 'X': 16}[t])
			if t == 'X' {
				digits = strings.ToUpper(digits)
			}
			if len(digits) < precision {
				digits = strings.Repeat("0", precision-len(digits)) + digits
			}
			prefix := ""
			if sp.Alt && t != 'd' {
				prefix = map[byte]string{'o': "0o", 'x': "0x", 'X': "0X"}[t]
			}
			return numberPad(SignOf(neg, sp), prefix, digits, sp), nil
		}
		return formatInt(x, sp)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		var f float64
		switch a := arg.(type) {
		case starlark.Float:
			f = float64(a)
		case starlark.Int:
			f, _ = new(big.Float).SetInt(a.BigInt()).Float64()
		case starlark.Bool:
			f = float64(B2i(bool(a)))
		case NumberObject:
			var err error
			if f, err = a.FloatPy(); err != nil {
				return "", err
			}
		default:
			return "", PyErrorf(ExcTypeError, "must be real number, not %s", PyTypeName(arg))
		}
		sp.Typ = conv
		if sp.Precision < 0 {
			sp.Precision = 6
		}
		return formatFloat(f, sp)
	}
	return "", PyErrorf(ExcValueError, "unsupported format character '%c' (0x%x)", conv, conv)
}
