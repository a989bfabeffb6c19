// The max_memory_mb watchdog and the size estimate of a REPL's retained state.

package repl

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pyrt"
)

// How the limit is enforced. All REPLs share one Go heap, so the heap
// attributable to a call is measured as growth: the heap now (live objects
// and not yet collected garbage) minus the live heap at the last collection
// before the call started. When that growth plus the REPL's retained state
// passes the limit, a collection is forced and the growth measured again;
// only if it is still over is the call stopped. Retained state is estimated
// after each call by walking the globals. Builtins that could allocate a lot
// at once (file reads, run() output) check their size against what is left
// before allocating.

const (
	metricHeap   = "/memory/classes/heap/objects:bytes"
	metricLive   = "/gc/heap/live:bytes"
	metricAllocs = "/gc/heap/allocs:bytes"
	watchEvery   = 5 * time.Millisecond
)

// limitBytes returns max_memory_mb in bytes, or MaxInt64 when unlimited.
func (r *interp) limitBytes() int64 {
	if r.opts.MaxMemoryMB <= 0 {
		return math.MaxInt64
	}
	return int64(r.opts.MaxMemoryMB) << 20
}

func readMetrics() (heap, live int64) {
	s := []metrics.Sample{{Name: metricHeap}, {Name: metricLive}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// readAllocs returns the bytes the process has allocated since it started.
func readAllocs() int64 {
	s := []metrics.Sample{{Name: metricAllocs}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// allocated returns the bytes allocated since the call started (by any
// goroutine: an upper bound of what the call allocated).
func (m *memWatch) allocated() int64 { return readAllocs() - m.allocs }

// memWatch samples the heap while a call runs.
type memWatch struct {
	mu        sync.Mutex
	on        bool
	liveBase  int64 // live heap at the last collection before the call
	retained  int64 // the REPL's retained state when the call started
	allocs    int64 // bytes allocated by the process when the call started
	limit     int64
	nextForce int64 // do not force another collection below this heap size
	wg        sync.WaitGroup
}

func (m *memWatch) start(c *callState) {
	_, m.liveBase = readMetrics()
	m.allocs = readAllocs()
	m.retained = c.r.retained
	m.limit = c.r.limitBytes()
	m.on = true
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-c.done:
				return
			case <-t.C:
				m.check(c)
			}
		}
	}()
}

func (m *memWatch) wait() { m.wg.Wait() }

// used returns the bytes attributed to the call and the REPL's state.
func (m *memWatch) used() int64 {
	heap, _ := readMetrics()
	return heap - m.liveBase + m.retained
}

// check stops the call when it is over the limit after a collection.
func (m *memWatch) check(c *callState) {
	if !m.on || !m.mu.TryLock() {
		return
	}
	defer m.mu.Unlock()
	if c.stopped() {
		return
	}
	heap, _ := readMetrics()
	if heap-m.liveBase+m.retained <= m.limit || heap < m.nextForce {
		return
	}
	runtime.GC()
	if u := m.used(); u > m.limit {
		c.stop(pyrt.StopMemory)
		return
	}
	heap, _ = readMetrics()
	m.nextForce = heap + (m.limit-m.retained)/4
}

// budget returns how many more bytes the call may allocate at once.
func (c *callState) budget() int64 {
	m := &c.mem
	if !m.on {
		return math.MaxInt64
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	left := m.limit - m.used()
	if left < m.limit/2 {
		runtime.GC()
		left = m.limit - m.used()
	}
	return left
}

// updateRetained refreshes r.retained after a call that allocated alloc
// bytes. The state cannot have grown by more than the call allocated, so
// the old figure plus alloc is an upper bound; the globals are walked again
// only when that bound has drifted by an eighth of the limit since the last
// walk, or passes the limit. A call that allocates little (most calls)
// costs no walk, however large the state.
func (r *interp) updateRetained(alloc int64) {
	limit := r.limitBytes()
	if bound := r.retained + alloc; bound <= limit && bound-r.walked <= limit/8 {
		r.retained = bound
		return
	}
	r.retained = r.estimateState()
	r.walked = r.retained
	r.walks++
}

// estimateState returns an estimate of the bytes held by the globals that
// are not shared builtins. It stops counting once past the limit.
func (r *interp) estimateState() int64 {
	w := sizer{seen: map[any]bool{}}
	for _, v := range r.Globals {
		if _, ok := pyrt.AsModule(v); ok {
			continue // predeclared, shared
		}
		switch v.(type) {
		case *starlark.Builtin:
			continue // predeclared, shared
		}
		w.add(v)
	}
	limit := r.limitBytes()
	for len(w.stack) > 0 && w.total <= limit {
		v := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.expand(v)
	}
	return w.total
}

// sizer adds up the footprint of values: scalars at once, containers when
// expanded from the stack. Mutable containers are counted once, however
// often they are referred to.
type sizer struct {
	total int64
	stack []starlark.Value
	seen  map[any]bool
}

func (w *sizer) add(v starlark.Value) {
	switch v := v.(type) {
	case starlark.String:
		w.total += 16 + int64(len(v))
	case starlark.Bytes:
		w.total += 16 + int64(len(v))
	case starlark.Int:
		w.total += 16
		if _, ok := v.Int64(); !ok {
			w.total += int64(v.BigInt().BitLen() / 8)
		}
	case *pyrt.Path:
		w.total += 48 + int64(len(v.P))
	case starlark.Tuple, *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct, *pyrt.PyObject:
		w.stack = append(w.stack, v)
	default:
		w.total += 32
	}
}

func (w *sizer) expand(v starlark.Value) {
	if _, ok := v.(starlark.Tuple); !ok {
		if w.seen[v] {
			return
		}
		w.seen[v] = true
	}
	switch v := v.(type) {
	case starlark.Tuple:
		w.total += 24 + 16*int64(len(v))
		for _, x := range v {
			w.add(x)
		}
	case *starlark.List:
		w.total += 32 + 16*int64(v.Len())
		for i := 0; i < v.Len(); i++ {
			w.add(v.Index(i))
		}
	case *starlark.Dict:
		w.total += 64 + 64*int64(v.Len())
		w.each(v, func(k starlark.Value) {
			x, _, _ := v.Get(k)
			w.add(k)
			w.add(x)
		})
	case *starlark.Set:
		w.total += 64 + 48*int64(v.Len())
		w.each(v, w.add)
	case *pyrt.PyObject:
		w.total += 64 + 48*int64(len(v.Attrs))
		for _, x := range v.Attrs {
			w.add(x) // the attributes themselves: no property or method runs
		}
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			if x, err := v.Attr(name); err == nil && x != nil {
				w.total += 32
				w.add(x)
			}
		}
	}
}

func (w *sizer) each(it starlark.Iterable, f func(starlark.Value)) {
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		f(x)
	}
}
