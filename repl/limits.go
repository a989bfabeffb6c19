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
	metricHeap = "/memory/classes/heap/objects:bytes"
	metricLive = "/gc/heap/live:bytes"
	watchEvery = 5 * time.Millisecond
)

// limitBytes returns max_memory_mb in bytes, or MaxInt64 when unlimited.
func (r *REPL) limitBytes() int64 {
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

// memWatch samples the heap while a call runs.
type memWatch struct {
	mu        sync.Mutex
	on        bool
	liveBase  int64 // live heap at the last collection before the call
	retained  int64 // the REPL's retained state when the call started
	limit     int64
	nextForce int64 // do not force another collection below this heap size
	wg        sync.WaitGroup
}

func (m *memWatch) start(c *callState) {
	_, m.liveBase = readMetrics()
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
		c.stop(stopMemory)
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

// estimateState returns an estimate of the bytes held by the globals that
// are not shared builtins. It stops counting once past the limit.
func (r *REPL) estimateState() int64 {
	seen := map[any]bool{}
	var stack []starlark.Value
	for _, v := range r.globals {
		switch v.(type) {
		case *starlark.Builtin, *starlarkstruct.Module:
			continue // predeclared, shared
		}
		stack = append(stack, v)
	}
	limit := r.limitBytes()
	var total int64
	for len(stack) > 0 && total <= limit {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		size, children := footprint(v, seen)
		total += size
		stack = append(stack, children...)
	}
	return total
}

// footprint returns the bytes v holds itself and the values it refers to.
// Mutable containers are counted once (seen), however often they are
// referred to.
func footprint(v starlark.Value, seen map[any]bool) (int64, []starlark.Value) {
	switch v := v.(type) {
	case starlark.String:
		return 16 + int64(len(v)), nil
	case starlark.Bytes:
		return 16 + int64(len(v)), nil
	case starlark.Int:
		if _, ok := v.Int64(); !ok {
			return 16 + int64(v.BigInt().BitLen()/8), nil
		}
		return 16, nil
	case starlark.Tuple:
		return 24 + 16*int64(len(v)), v
	case *Path:
		return 48 + int64(len(v.p)), nil
	case *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
		if seen[v] {
			return 0, nil
		}
		seen[v] = true
		return containerFootprint(v)
	}
	return 32, nil
}

// containerFootprint is footprint for lists, dicts, sets and structs.
func containerFootprint(v starlark.Value) (int64, []starlark.Value) {
	var children []starlark.Value
	switch v := v.(type) {
	case *starlark.List:
		for i := 0; i < v.Len(); i++ {
			children = append(children, v.Index(i))
		}
		return 32 + 16*int64(v.Len()), children
	case *starlark.Dict:
		for _, item := range v.Items() {
			children = append(children, item[0], item[1])
		}
		return 64 + 64*int64(v.Len()), children
	case *starlark.Set:
		iter := v.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			children = append(children, x)
		}
		return 64 + 48*int64(v.Len()), children
	case *starlarkstruct.Struct:
		for _, name := range v.AttrNames() {
			if x, err := v.Attr(name); err == nil && x != nil {
				children = append(children, x)
			}
		}
		return 32 * int64(len(children)), children
	}
	return 32, nil
}
