// The sort of sorted() and list.sort(): CPython's timsort where the
// order of the comparisons can be seen.

package pyrt

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// timsort sorts idx (indexes into keys) stably by keys with lt. It makes
// CPython 3.11's comparisons in CPython's order while it finds the runs
// and extends them by binary insertion (count_run, binarysort), which is
// the whole sort of a list shorter than 64: a comparison with side
// effects (cmp_to_key, a __lt__ that counts or prints) and the first
// incomparable pair are then Python's. Longer lists merge the runs with
// a plain stable merge instead of CPython's galloping one: the same
// result, in other comparisons.
func timsort(idx []int, lt func(a, b int) (bool, error)) error {
	n := len(idx)
	if n < 2 {
		return nil
	}
	minrun := computeMinrun(n)
	var runs [][2]int
	for lo := 0; lo < n; {
		m, desc, err := countRun(idx[lo:], lt)
		if err != nil {
			return err
		}
		if desc {
			reverseInts(idx[lo : lo+m])
		}
		if m < minrun {
			force := min(n-lo, minrun)
			if err := binarySort(idx[lo:lo+force], m, lt); err != nil {
				return err
			}
			m = force
		}
		runs = append(runs, [2]int{lo, lo + m})
		lo += m
	}
	for len(runs) > 1 {
		var next [][2]int
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) {
				next = append(next, runs[i])
				continue
			}
			a, b := runs[i], runs[i+1]
			if err := mergeRuns(idx[a[0]:b[1]], a[1]-a[0], lt); err != nil {
				return err
			}
			next = append(next, [2]int{a[0], b[1]})
		}
		runs = next
	}
	return nil
}

// computeMinrun is CPython's merge_compute_minrun.
func computeMinrun(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// countRun is CPython 3.11's count_run: the length of the run at the
// start of s, ascending or strictly descending.
func countRun(s []int, lt func(a, b int) (bool, error)) (int, bool, error) {
	if len(s) == 1 {
		return 1, false, nil
	}
	first, err := lt(s[1], s[0])
	if err != nil {
		return 0, false, err
	}
	k := 2
	for ; k < len(s); k++ {
		less, err := lt(s[k], s[k-1])
		if err != nil {
			return 0, false, err
		}
		if less != first {
			break
		}
	}
	return k, first, nil
}

// binarySort is CPython's binarysort: s[:start] is sorted; insert the
// rest one by one where a binary search puts each.
func binarySort(s []int, start int, lt func(a, b int) (bool, error)) error {
	if start == 0 {
		start = 1
	}
	for ; start < len(s); start++ {
		pivot := s[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)>>1
			less, err := lt(pivot, s[p])
			if err != nil {
				return err
			}
			if less {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(s[l+1:start+1], s[l:start])
		s[l] = pivot
	}
	return nil
}

// mergeRuns merges the sorted s[:mid] and s[mid:], stably.
func mergeRuns(s []int, mid int, lt func(a, b int) (bool, error)) error {
	left := append([]int(nil), s[:mid]...)
	right := s[mid:]
	i, j, k := 0, 0, 0
	for i < len(left) && j < len(right) {
		less, err := lt(right[j], left[i])
		if err != nil {
			return err
		}
		if less {
			s[k] = right[j]
			j++
		} else {
			s[k] = left[i]
			i++
		}
		k++
	}
	for ; i < len(left); i, k = i+1, k+1 {
		s[k] = left[i]
	}
	return nil // the rest of right is in place
}

func reverseInts(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// sortLess is the comparison of sorted(): keys[a] < keys[b], with
// CPython's message for a pair that cannot be compared.
func sortLess(keys []starlark.Value) func(a, b int) (bool, error) {
	return func(a, b int) (bool, error) {
		x, y := keys[a], keys[b]
		lt, err := PyCompare(syntax.LT, x, y)
		if err != nil {
			return false, ComparisonError(err, "<", x, y)
		}
		return lt, nil
	}
}

// comparisonError is the error of x op y that failed with err: an
// exception raised by the program's own comparison method (__lt__, or
// __eq__ called by total_ordering's __gt__) as it is, else CPython's
// "not supported between instances" TypeError.
func ComparisonError(err error, op string, x, y starlark.Value) error {
	var pe *PyError
	var ee *starlark.EvalError
	if errors.As(err, &pe) || errors.As(err, &ee) {
		return err
	}
	return PyErrorf(ExcTypeError, "'%s' not supported between instances of '%s' and '%s'", op, PyTypeName(x), PyTypeName(y))
}
