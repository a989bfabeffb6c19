package pyrt

import (
	"sync"

	"harness/repl/pyre"
)

type RegexpCache struct {
	mu sync.Mutex
	m  map[reKey]*pyre.Regexp
}

func (c *RegexpCache) Compile(fn, pattern string, flags int) (*pyre.Regexp, error) {
	key := reKey{pattern, flags}
	c.mu.Lock()
	rx, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return rx, nil
	}
	rx, err := pyre.Compile(fn, pattern, flags)
	if err != nil {
		return nil, ReErr(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) > 256 {
		c.m = map[reKey]*pyre.Regexp{}
	}
	c.m[key] = rx
	return rx, nil
}

// reErr raises the engine's refusals as re.error; other errors (those of
// a replacement function, say) pass as they are.
// A match the backtracking engine stopped at its time limit raises
// TimeoutError (the error a user expects of an operation that ran out of
// time, and not re.error, which `except re.error` takes for a bad
// pattern); one stopped at its memory bound raises MemoryError.
func ReErr(err error) error {
	switch e := err.(type) {
	case *pyre.Error:
		return &PyError{&PyException{Typ: ReError, Text: e.Error()}}
	case *pyre.TimeoutError:
		if e.Memory {
			return PyErrorf(ExcMemory, "%s", e.Error())
		}
		return PyErrorf(excTimeout, "%s", e.Error())
	}
	return err
}

type reKey struct {
	src   string
	flags int
}

// reError is re.error, raised for bad patterns.
var ReError = &ExcType{TypeName: "error", Module: "re", Base: ExcException}

func NewRegexpCache() *RegexpCache { return &RegexpCache{m: map[reKey]*pyre.Regexp{}} }
