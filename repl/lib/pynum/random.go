// random: CPython's Mersenne Twister and algorithms, so that a seeded
// sequence gives the numbers Python gives.

package pynum

import (
	cryptorand "crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"math"
	"math/big"
	"sort"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// mt19937 is the Mersenne Twister as CPython's _randommodule.c has it.
type mt19937 struct {
	mt        [624]uint32
	mti       int
	gaussNext *float64
	system    bool // SystemRandom: crypto/rand instead of the twister
}

func (m *mt19937) initGenrand(s uint32) {
	m.mt[0] = s
	for m.mti = 1; m.mti < 624; m.mti++ {
		prev := m.mt[m.mti-1]
		m.mt[m.mti] = 1812433253*(prev^(prev>>30)) + uint32(m.mti)
	}
}

func (m *mt19937) initByArray(key []uint32) {
	m.initGenrand(19650218)
	i, j := 1, 0
	k := max(624, len(key))
	for ; k > 0; k-- {
		prev := m.mt[i-1]
		m.mt[i] = (m.mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			m.mt[0] = m.mt[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		prev := m.mt[i-1]
		m.mt[i] = (m.mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			m.mt[0] = m.mt[623]
			i = 1
		}
	}
	m.mt[0] = 0x80000000
}

func (m *mt19937) uint32() uint32 {
	if m.system {
		var b [4]byte
		cryptorand.Read(b[:])
		return binary.BigEndian.Uint32(b[:])
	}
	if m.mti >= 624 {
		for kk := 0; kk < 624; kk++ {
			y := (m.mt[kk] & 0x80000000) | (m.mt[(kk+1)%624] & 0x7fffffff)
			v := m.mt[(kk+397)%624] ^ (y >> 1)
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.mt[kk] = v
		}
		m.mti = 0
	}
	y := m.mt[m.mti]
	m.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (m *mt19937) random() float64 {
	a, b := m.uint32()>>5, m.uint32()>>6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// seed is random.seed(a): ints by their 32-bit words, strings and bytes
// with their SHA-512 appended (CPython's version 2), None from the clock.
func (m *mt19937) seed(a starlark.Value) error {
	var n *big.Int
	switch v := a.(type) {
	case starlark.NoneType:
		n = big.NewInt(time.Now().UnixNano())
	case starlark.Int:
		n = new(big.Int).Abs(v.BigInt())
	case starlark.Bool:
		n = big.NewInt(int64(pyrt.B2i(bool(v))))
	case starlark.Float:
		h, _ := v.Hash()
		n = big.NewInt(int64(h))
	case starlark.String, starlark.Bytes:
		s, _ := pyrt.TextOf(v)
		sum := sha512.Sum512([]byte(s))
		n = new(big.Int).SetBytes(append([]byte(s), sum[:]...))
	default:
		return pyrt.PyErrorf(pyrt.ExcTypeError, "The only supported seed types are: None, int, float, str, bytes, and bytearray.")
	}
	var key []uint32
	mask := big.NewInt(0xffffffff)
	for x := new(big.Int).Set(n); x.Sign() > 0; x.Rsh(x, 32) {
		key = append(key, uint32(new(big.Int).And(x, mask).Uint64()))
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	m.initByArray(key)
	m.gaussNext = nil
	return nil
}

func (m *mt19937) getrandbits(k int) *big.Int {
	if k <= 32 {
		return big.NewInt(int64(m.uint32() >> (32 - k)))
	}
	out := new(big.Int)
	for i := 0; k > 0; i, k = i+1, k-32 {
		r := m.uint32()
		if k < 32 {
			r >>= 32 - k
		}
		out.Or(out, new(big.Int).Lsh(big.NewInt(int64(r)), uint(32*i)))
	}
	return out
}

// below is CPython's _randbelow: an int in [0, n).
func (m *mt19937) below(n *big.Int) *big.Int {
	k := n.BitLen()
	r := m.getrandbits(k)
	for r.Cmp(n) >= 0 {
		r = m.getrandbits(k)
	}
	return r
}

func (m *mt19937) belowInt(n int) int { return int(m.below(big.NewInt(int64(n))).Int64()) }

func randomModule(r *pyrt.Interp) starlark.Value {
	m := &mt19937{}
	_ = m.seed(starlark.None)
	members := randomMembers(m, "random.")
	members["SystemRandom"] = sysRandomType
	return pyrt.NewModule("random", members)
}

// randomMembers are the functions of the random module over m, named
// prefix+name (the methods of a SystemRandom for m.system).
func randomMembers(m *mt19937, prefix string) starlark.StringDict {
	fn := func(name string, f pyrt.BuiltinFunc) *starlark.Builtin { return pyrt.Builtin(prefix+name, f) }
	return starlark.StringDict{
		"seed": fn("seed", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a starlark.Value = starlark.None
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "a?", &a, "version?", new(int)); err != nil {
				return nil, err
			}
			if m.system {
				return starlark.None, nil // a stub, as SystemRandom.seed is
			}
			return starlark.None, m.seed(a)
		}),
		"random": fn("random", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(m.random()), nil
		}),
		"uniform": fn("uniform", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c pyrt.PyFloat
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &a, &c); err != nil {
				return nil, err
			}
			return starlark.Float(float64(a) + float64(c-a)*m.random()), nil
		}),
		"getrandbits": fn("getrandbits", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var k int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &k); err != nil {
				return nil, err
			}
			if k < 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "number of bits must be non-negative")
			}
			return starlark.MakeBigInt(m.getrandbits(k)), nil
		}),
		"randrange": fn("randrange", m.randrange),
		"randint": fn("randint", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c starlark.Int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &a, &c); err != nil {
				return nil, err
			}
			return m.randrange(thread, b, starlark.Tuple{a, c.Add(starlark.MakeInt(1))}, nil)
		}),
		"choice": fn("choice", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var seq starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &seq); err != nil {
				return nil, err
			}
			vals, err := pyrt.ListOf(seq)
			if err != nil {
				return nil, err
			}
			if len(vals) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "Cannot choose from an empty sequence")
			}
			return vals[m.belowInt(len(vals))], nil
		}),
		"choices": fn("choices", m.choices),
		"shuffle": fn("shuffle", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var l *starlark.List
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &l); err != nil {
				return nil, err
			}
			for i := l.Len() - 1; i > 0; i-- {
				j := m.belowInt(i + 1)
				a, c := l.Index(i), l.Index(j)
				if err := l.SetIndex(i, c); err != nil {
					return nil, err
				}
				_ = l.SetIndex(j, a)
			}
			return starlark.None, nil
		}),
		"sample":        fn("sample", m.sample),
		"gauss":         fn("gauss", m.gauss),
		"normalvariate": fn("normalvariate", m.gauss),
	}
}

func (m *mt19937) randrange(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var start, stop, step starlark.Value = nil, starlark.None, starlark.MakeInt(1)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "start", &start, "stop?", &stop, "step?", &step); err != nil {
		return nil, err
	}
	bigOf := func(v starlark.Value) (*big.Int, error) {
		i, ok := v.(starlark.Int)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(v))
		}
		return i.BigInt(), nil
	}
	a, err := bigOf(start)
	if err != nil {
		return nil, err
	}
	if stop == starlark.None {
		if a.Sign() <= 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "empty range for randrange()")
		}
		return starlark.MakeBigInt(m.below(a)), nil
	}
	z, err := bigOf(stop)
	if err != nil {
		return nil, err
	}
	s, err := bigOf(step)
	if err != nil {
		return nil, err
	}
	width := new(big.Int).Sub(z, a)
	if s.Cmp(big.NewInt(1)) == 0 {
		if width.Sign() <= 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "empty range for randrange() (%s, %s, %s)", a, z, width)
		}
		return starlark.MakeBigInt(new(big.Int).Add(a, m.below(width))), nil
	}
	if s.Sign() == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "zero step for randrange()")
	}
	n := new(big.Int)
	if s.Sign() > 0 {
		n.Div(new(big.Int).Add(width, new(big.Int).Sub(s, big.NewInt(1))), s)
	} else {
		n.Div(new(big.Int).Add(width, new(big.Int).Add(s, big.NewInt(1))), s)
	}
	if n.Sign() <= 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "empty range for randrange()")
	}
	return starlark.MakeBigInt(new(big.Int).Add(a, new(big.Int).Mul(s, m.below(n)))), nil
}

func (m *mt19937) choices(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pop, weights, cum starlark.Value = nil, starlark.None, starlark.None
	k := 1
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "population", &pop, "weights?", &weights, "cum_weights?", &cum, "k?", &k); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(pop)
	if err != nil {
		return nil, err
	}
	n := len(vals)
	out := make([]starlark.Value, k)
	if weights == starlark.None && cum == starlark.None {
		if n == 0 && k > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "Cannot choose from an empty population")
		}
		for i := range out {
			out[i] = vals[int(math.Floor(m.random()*float64(n)))]
		}
		return starlark.NewList(out), nil
	}
	var cw []float64
	if cum != starlark.None {
		c, err := pyrt.ListOf(cum)
		if err != nil {
			return nil, err
		}
		for _, x := range c {
			f, _ := pyrt.ToFloat(x)
			cw = append(cw, f)
		}
	} else {
		w, err := pyrt.ListOf(weights)
		if err != nil {
			return nil, err
		}
		total := 0.0
		for _, x := range w {
			f, ok := pyrt.ToFloat(x)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "weights must be numbers")
			}
			total += f
			cw = append(cw, total)
		}
	}
	if len(cw) != n {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "The number of weights does not match the population")
	}
	total := cw[n-1]
	for i := range out {
		x := m.random() * total
		j := sort.Search(n-1, func(i int) bool { return cw[i] > x })
		out[i] = vals[j]
	}
	return starlark.NewList(out), nil
}

func (m *mt19937) sample(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var pop starlark.Value
	var k int
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "population", &pop, "k", &k, "counts?", new(starlark.Value)); err != nil {
		return nil, err
	}
	vals, err := pyrt.ListOf(pop)
	if err != nil {
		return nil, err
	}
	n := len(vals)
	if k < 0 || k > n {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Sample larger than population or is negative")
	}
	out := make([]starlark.Value, k)
	setsize := 21
	if k > 5 {
		setsize += int(math.Pow(4, math.Ceil(math.Log(float64(k*3))/math.Log(4))))
	}
	if n <= setsize {
		pool := append([]starlark.Value(nil), vals...)
		for i := 0; i < k; i++ {
			j := m.belowInt(n - i)
			out[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
	} else {
		selected := map[int]bool{}
		for i := 0; i < k; i++ {
			j := m.belowInt(n)
			for selected[j] {
				j = m.belowInt(n)
			}
			selected[j] = true
			out[i] = vals[j]
		}
	}
	return starlark.NewList(out), nil
}

func (m *mt19937) gauss(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	muF, sigmaF := pyrt.PyFloat(0), pyrt.PyFloat(1)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "mu?", &muF, "sigma?", &sigmaF); err != nil {
		return nil, err
	}
	mu, sigma := float64(muF), float64(sigmaF)
	var z float64
	if m.gaussNext != nil {
		z, m.gaussNext = *m.gaussNext, nil
	} else {
		x2pi := m.random() * 2 * math.Pi
		g2rad := math.Sqrt(-2.0 * math.Log(1.0-m.random()))
		z = math.Cos(x2pi) * g2rad
		next := math.Sin(x2pi) * g2rad
		m.gaussNext = &next
	}
	return starlark.Float(mu + z*sigma), nil
}
