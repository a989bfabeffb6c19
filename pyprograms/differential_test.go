package pyprograms

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

var (
	diffN      = flag.Int("pyprograms.diff-n", 0, "TestDifferential: the number of mutants to make and compare (0 skips the test)")
	diffSeed   = flag.Int64("pyprograms.diff-seed", 1, "TestDifferential: the seed of the mutants (the same seed and n give the same mutants)")
	diffReport = flag.String("pyprograms.diff-report", "", "TestDifferential: write the differences found, grouped by signature, to this file")
	diffJobs   = flag.Int("pyprograms.diff-jobs", 2, "TestDifferential: CPython runs at once")
)

// mutant is one program made by testdata/mutate.py.
type mutant struct {
	Parent   string `json:"parent"`
	ID       string `json:"id"`
	Mutation string `json:"mutation"`
	Source   string `json:"source"`

	want, got string // normalised outputs
	skip      string // why the mutant was not compared
}

// finding is one class of difference: the mutants sharing a signature.
type finding struct {
	Signature string
	Mutants   []*mutant
}

// TestDifferential makes -pyprograms.diff-n mutants of the corpus programs
// (testdata/mutate.py, seeded by -pyprograms.diff-seed), runs each under
// CPython and in the REPL over a fresh copy of its fixture tree, and
// reports every difference grouped by a signature of the first differing
// line or error. A mutant differing just as its parent does (the parent's
// baseline, the program as ast.unparse writes it, runs first) shows
// nothing new and is counted, not reported. The test fails when it finds
// a new difference. It needs python3 and is skipped without
// -pyprograms.diff-n.
func TestDifferential(t *testing.T) {
	if *diffN <= 0 {
		t.Skip("the differential check runs with -pyprograms.diff-n=N (for example go test ./pyprograms -run TestDifferential -pyprograms.diff-n=500)")
	}
	py := python3(t, "the differential check")
	byName := map[string]*program{}
	var progs []map[string]string
	for _, ar := range loadArchives(t) {
		for _, p := range ar.Programs {
			byName[p.Name] = p
			progs = append(progs, map[string]string{"name": p.Name, "source": p.Source})
		}
	}
	mutants := makeMutants(t, py, progs)
	runCPythonAll(t, py, mutants, byName)
	baseline := map[string]*mutant{} // parent -> its baseline, when that differs
	groups := map[string]*finding{}
	var compared, same, inherited, skipped int
	for _, m := range mutants {
		if m.skip != "" {
			skipped++
			continue
		}
		m.got = runREPL(t, materialize(t, byName[m.Parent].Fixture), m.Source)
		compared++
		if m.got == m.want {
			same++
			continue
		}
		sig := signature(m.want, m.got)
		if m.Mutation == "none" {
			baseline[m.Parent] = m
			continue
		}
		if b := baseline[m.Parent]; b != nil && (signature(b.want, b.got) == sig || sameFailure(b.got, m.got)) {
			inherited++
			continue
		}
		g := groups[sig]
		if g == nil {
			g = &finding{Signature: sig}
			groups[sig] = g
		}
		g.Mutants = append(g.Mutants, m)
	}
	found := sortFindings(groups)
	summary := fmt.Sprintf("seed %d: %d mutants and %d baselines; %d compared (%d skipped), %d match CPython, %d differ as their parent does, %d new differences in %d classes",
		*diffSeed, len(mutants)-len(progs), len(progs), compared, skipped, same, inherited, compared-same-inherited-len(baseline), len(found))
	t.Log(summary)
	text := formatFindings(summary, found)
	if *diffReport != "" {
		if err := os.WriteFile(*diffReport, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(found) > 0 {
		t.Errorf("%d classes of difference from CPython:\n%s", len(found), text)
	}
}

// makeMutants runs testdata/mutate.py over the programs.
func makeMutants(t *testing.T, py string, progs []map[string]string) []*mutant {
	t.Helper()
	in, err := json.Marshal(progs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/mutate.py", fmt.Sprint(*diffSeed), fmt.Sprint(*diffN))
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = []string{"PYTHONHASHSEED=0", "LANG=C.UTF-8"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mutate.py: %v\n%s", err, stderr.String())
	}
	var ms []*mutant
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		m := new(mutant)
		if err := json.Unmarshal(sc.Bytes(), m); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// runCPythonAll fills in each mutant's want, -pyprograms.diff-jobs at a
// time; a mutant CPython cannot finish is skipped.
func runCPythonAll(t *testing.T, py string, ms []*mutant, byName map[string]*program) {
	t.Helper()
	var wg sync.WaitGroup
	next := make(chan *mutant)
	for range max(1, *diffJobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range next {
				want, err := runCPython(t, py, materialize(t, byName[m.Parent].Fixture), m.Source)
				var ce *cpythonError
				switch {
				case errors.As(err, &ce):
					m.skip = "CPython did not finish: " + firstLineOf(ce.Error())
				case err != nil:
					m.skip = err.Error()
				}
				m.want = want
			}
		}()
	}
	for _, m := range ms {
		next <- m
	}
	close(next)
	wg.Wait()
}

var (
	replPos    = regexp.MustCompile(`^repl:\d+:\d+: `)
	quoted     = regexp.MustCompile(`(^|[^\w])(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`)
	digits     = regexp.MustCompile(`\d+(?:\.\d+)?`)
	whitespace = regexp.MustCompile(`\s+`)
)

// signature names the class of a difference: what the REPL did at the
// first line that differs, with quoted strings and numbers blanked so
// that the same gap met with other values counts once.
func signature(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	wl, gl := at(w, i), at(g, i)
	switch {
	case replPos.MatchString(gl):
		return "REPL refuses: " + shape(replPos.ReplaceAllString(gl, ""))
	case i > 0 && w[i-1] == traceback && g[i-1] == traceback:
		return "exception differs: REPL " + shape(gl) + " (CPython " + shape(wl) + ")"
	case gl == traceback:
		return "REPL raises " + shape(at(g, i+1))
	case wl == traceback:
		return "CPython raises " + kindOf(at(w, i+1)) + ", the REPL prints " + shape(gl)
	}
	return "output differs: " + shape(wl) + "  ≠  REPL " + shape(gl)
}

const traceback = "Traceback (most recent call last):"

// sameFailure reports whether two REPL results end in the same error: a
// mutant that fails where its parent fails shows nothing new, whatever
// CPython did with the mutation past that point.
func sameFailure(parent, got string) bool {
	e := failure(parent)
	return e != "" && e == failure(got)
}

// failure is the error a REPL result ends with, or "".
func failure(out string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if replPos.MatchString(lines[i]) {
			return lines[i]
		}
		if lines[i] == traceback && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<end>"
}

func kindOf(line string) string {
	kind, _, _ := strings.Cut(line, ":")
	return kind
}

func shape(s string) string {
	s = quoted.ReplaceAllString(s, "$1'…'")
	s = digits.ReplaceAllString(s, "N")
	s = whitespace.ReplaceAllString(strings.TrimSpace(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func sortFindings(groups map[string]*finding) []*finding {
	out := make([]*finding, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Mutants) != len(out[j].Mutants) {
			return len(out[i].Mutants) > len(out[j].Mutants)
		}
		return out[i].Signature < out[j].Signature
	})
	return out
}

// formatFindings writes each class with its count, the parents it came
// from and up to two examples with their diffs.
func formatFindings(summary string, found []*finding) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# TestDifferential\n\n%s\n", summary)
	for _, f := range found {
		parents := map[string]bool{}
		for _, m := range f.Mutants {
			parents[m.Parent] = true
		}
		fmt.Fprintf(&sb, "\n## %s\n\n%d mutants of %d programs (%s)\n", f.Signature, len(f.Mutants), len(parents), strings.Join(sortedNames(parents), ", "))
		for _, m := range f.Mutants[:min(2, len(f.Mutants))] {
			fmt.Fprintf(&sb, "\n%s, %s\n```\n%s```\n", m.ID, m.Mutation, excerpt(lineDiff(m.want, m.got)))
		}
	}
	return sb.String()
}

// excerpt keeps the changed lines of a diff and one line of context.
func excerpt(d string) string {
	lines := strings.SplitAfter(d, "\n")
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
			for j := max(0, i-1); j <= min(len(lines)-1, i+1); j++ {
				keep[j] = true
			}
		}
	}
	var sb strings.Builder
	n := 0
	for i, l := range lines {
		if keep[i] && n < 12 {
			sb.WriteString(l)
			n++
		}
	}
	return sb.String()
}
