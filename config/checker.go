// The checker: typed access to decoded TOML that records positioned errors.

package config

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// checker collects every problem found while reading one decoded file.
type checker struct {
	file string
	loc  *locator
	errs []*Error
}

// leaf and table mark the kinds of known keys; open tables accept any key.
const (
	leaf = iota
	table
	open
)

// schema is every key config.toml may contain, with its kind.
var schema = func() map[string]int {
	m := map[string]int{
		"endpoint": table, "chat": table, "repl": table, "rlm": table, "rlm.store": table,
		"commands": table, "theme": table, "approval_description": table,
		"approval_description.endpoint":            table,
		"endpoint.parameters":                      open,
		"approval_description.endpoint.parameters": open,
		"commands.allow":                           open,
	}
	for _, k := range []string{
		"endpoint.base_url", "endpoint.model", "endpoint.api_key_env",
		"endpoint.max_retries", "endpoint.idle_timeout_s", "endpoint.context_window",
		"chat.prompt", "chat.instruction_files", "chat.instructions_max_bytes",
		"chat.compact_at", "chat.compaction",
		"repl.tool_description", "repl.permission", "repl.max_memory_mb", "repl.output_limit",
		"rlm.max_depth", "rlm.subagent_prompt", "rlm.parallel", "rlm.store.path",
		"commands.deny", "commands.env_filter", "commands.sandbox", "commands.writable", "commands.network",
		"approval_description.enabled", "approval_description.prompt",
		"approval_description.endpoint.base_url", "approval_description.endpoint.model",
		"approval_description.endpoint.api_key_env",
		"approval_description.endpoint.max_retries", "approval_description.endpoint.idle_timeout_s",
		"approval_description.endpoint.context_window",
	} {
		m[k] = leaf
	}
	for _, s := range themeSlots(new(Theme)) {
		m["theme."+s.name] = leaf
	}
	for _, s := range optionalThemeSlots(new(Theme)) {
		m["theme."+s.name] = leaf
	}
	return m
}()

// unknownKeys reports, in file order, every key the schema does not know.
// Keys are matched exactly: TOML keys are case-sensitive. (The decoder's
// MetaData.Undecoded is not used because its struct matching ignores case.)
func (c *checker) unknownKeys(keys []toml.Key) {
	reported := map[string]bool{}
	for _, k := range keys {
		if known(k) || underReported(k, reported) {
			continue
		}
		reported[k.String()] = true
		c.keyErr(k.String(), "unknown key; %s", unknownHint(k))
	}
}

// underReported reports whether a proper prefix of k was already reported.
func underReported(k toml.Key, reported map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if reported[k[:i].String()] {
			return true
		}
	}
	return false
}

// known reports whether k is in the schema, lies below an open table, or
// lies below a leaf (a value that is not a table: its type check reports it).
func known(k toml.Key) bool {
	for i := 1; i <= len(k); i++ {
		if slices.ContainsFunc(k[:i], func(p string) bool { return strings.Contains(p, ".") }) {
			return false
		}
		kind, ok := schema[strings.Join(k[:i], ".")]
		switch {
		case !ok:
			return false
		case i == len(k) || kind == open || kind == leaf:
			return true
		}
	}
	return false
}

// unknownHint suggests the nearest known name and lists the accepted ones.
func unknownHint(k toml.Key) string {
	parent := strings.Join(k[:len(k)-1], ".")
	var siblings []string
	for name := range schema {
		p, last := "", name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			p, last = name[:i], name[i+1:]
		}
		if p == parent {
			siblings = append(siblings, last)
		}
	}
	sort.Strings(siblings)
	where := "at the top level"
	if parent != "" {
		where = "in [" + parent + "]"
	}
	hint := fmt.Sprintf("remove it or fix its name (known %s: %s)", where, strings.Join(siblings, ", "))
	last := k[len(k)-1]
	for _, s := range siblings {
		if strings.EqualFold(s, last) || editDistance(s, last) <= 2 {
			return fmt.Sprintf("did you mean %q? %s", s, hint)
		}
	}
	return hint
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// at records an error positioned at a byte offset (-1: end of file).
func (c *checker) at(off int, key, msg string) {
	e := &Error{File: c.file, Key: key, Msg: msg}
	if off >= 0 {
		e.Line, e.Col = c.loc.pos(off)
	} else {
		e.Line = c.loc.lines()
	}
	c.errs = append(c.errs, e)
}

// keyErr reports a problem with a key's name, positioned at the key.
func (c *checker) keyErr(key, format string, args ...any) {
	off := -1
	if sp, ok := c.loc.find(key); ok {
		off = sp.KeyStart
	}
	c.at(off, key, fmt.Sprintf(format, args...))
}

// valueErr reports a problem with a key's value, positioned at the value.
func (c *checker) valueErr(key, format string, args ...any) {
	off := -1
	if sp, ok := c.loc.find(key); ok {
		off = sp.KeyStart
		if sp.ValStart >= 0 {
			off = sp.ValStart
		}
	}
	c.at(off, key, fmt.Sprintf(format, args...))
}

// missing reports a required key or table absent from tbl, positioned at
// tbl's header, or at the end of the file for a missing top-level table.
func (c *checker) missing(tbl, name, hint string) {
	key := join(tbl, name)
	off := -1
	if sp, ok := c.loc.find(tbl); ok && tbl != "" {
		off = sp.KeyStart
	}
	what := "key"
	if kind := schema[key]; kind == table || kind == open {
		what = "table [" + key + "]"
	}
	c.at(off, key, fmt.Sprintf("missing required %s; %s", what, hint))
}

// join appends name to the dotted table path tbl, quoting name if needed.
func join(tbl, name string) string {
	if tbl == "" {
		return toml.Key{name}.String()
	}
	return tbl + "." + toml.Key{name}.String()
}

// tableHint says how to add a missing required table.
func tableHint(key string) string {
	switch key {
	case "chat", "commands.allow":
		return fmt.Sprintf("add a [%s] line; the table may stay empty", key)
	case "theme":
		return "copy the [theme] table, with all its colours, from config.toml.example"
	}
	return fmt.Sprintf("add the [%s] table with its keys (config.toml.example shows them all)", key)
}

// exampleValue is a sample value for a missing string key.
func exampleValue(key string) string {
	switch {
	case strings.HasPrefix(key, "theme."):
		return `"#RRGGBB"`
	case strings.HasSuffix(key, "base_url"):
		return `"http://localhost:8000/v1"`
	case key == "repl.permission":
		return `"read-only" (or "none", "read-write")`
	case key == "rlm.store.path":
		return `"/absolute/path/to/an/existing/directory"`
	}
	return `"..."`
}

// typeName is the TOML name of a decoded value's type.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date/time"
	case []map[string]any:
		return "an array of tables"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// table returns the table name inside t (whose dotted path is tbl).
func (c *checker) table(t map[string]any, tbl, name string, required bool) (map[string]any, bool) {
	v, present := t[name]
	if !present {
		if required {
			c.missing(tbl, name, tableHint(join(tbl, name)))
		}
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.valueErr(join(tbl, name), "must be a table, not %s; write it as a [%s] section", typeName(v), join(tbl, name))
	}
	return m, ok
}

// str returns the required string name in table tbl.
func (c *checker) str(t map[string]any, tbl, name string) (string, bool) {
	v, present := t[name]
	if !present {
		c.missing(tbl, name, fmt.Sprintf("add %s = %s under [%s]", toml.Key{name}.String(), exampleValue(join(tbl, name)), tbl))
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.valueErr(join(tbl, name), "must be a string, not %s; put the value in double quotes", typeName(v))
	}
	return s, ok
}

// optString returns the optional string name, or nil when absent or invalid.
func (c *checker) optString(t map[string]any, tbl, name string) *string {
	v, present := t[name]
	if !present {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		c.valueErr(join(tbl, name), "must be a string, not %s; put the value in double quotes (or \"\"\" for several lines)", typeName(v))
		return nil
	}
	return &s
}

// positive returns the required integer name, which must be at least 1.
func (c *checker) positive(t map[string]any, tbl, name, hint string) int {
	v, present := t[name]
	if !present {
		c.missing(tbl, name, fmt.Sprintf("add %s = N under [%s] (%s)", name, tbl, hint))
		return 0
	}
	n, ok := v.(int64)
	switch {
	case !ok:
		c.valueErr(join(tbl, name), "must be an integer, not %s; write a whole number without quotes (%s)", typeName(v), hint)
	case n < 1:
		c.valueErr(join(tbl, name), "must be at least 1, not %d; %s", n, hint)
	case n > math.MaxInt32:
		c.valueErr(join(tbl, name), "%d is too large; use at most %d", n, math.MaxInt32)
	default:
		return int(n)
	}
	return 0
}

// intKey is an optional integer key: where it is, its bounds and the
// words of its errors.
type intKey struct {
	path     string // "rlm.parallel", for errors
	def      int    // when absent or wrong
	min, max int64
	hint     string // what it means, with an example
	lowNote  string // said after the hint when it is below min
	tooBig   string // "too large" or "too many", when it is above max
	bigNote  string // said after the bound when it is above max
}

// optionalInt reads the optional integer key of t as k describes it.
func (c *checker) optionalInt(t map[string]any, key string, k intKey) int {
	v, present := t[key]
	if !present {
		return k.def
	}
	n, ok := v.(int64)
	switch {
	case !ok:
		c.valueErr(k.path, "must be an integer, not %s; write a whole number without quotes (%s)", typeName(v), k.hint)
	case n < k.min && k.min == 0:
		c.valueErr(k.path, "must be 0 or more, not %d; %s%s", n, k.hint, k.lowNote)
	case n < k.min:
		c.valueErr(k.path, "must be at least %d, not %d; %s%s", k.min, n, k.hint, k.lowNote)
	case n > k.max:
		c.valueErr(k.path, "%d is %s; use at most %d%s", n, cmp.Or(k.tooBig, "too large"), k.max, k.bigNote)
	default:
		return int(n)
	}
	return k.def
}

// boolean returns the required boolean name.
func (c *checker) boolean(t map[string]any, tbl, name string) (bool, bool) {
	v, present := t[name]
	if !present {
		c.missing(tbl, name, fmt.Sprintf("add %s = true or %s = false under [%s]", name, name, tbl))
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		c.valueErr(join(tbl, name), "must be true or false, not %s; write true or false without quotes", typeName(v))
	}
	return b, ok
}

// optBool returns the optional boolean name, or def when absent or invalid.
func (c *checker) optBool(t map[string]any, tbl, name string, def bool) bool {
	v, present := t[name]
	if !present {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		c.valueErr(join(tbl, name), "must be true or false, not %s; write true or false without quotes", typeName(v))
		return def
	}
	return b
}

// optStrList returns the optional array of strings name (nil when absent).
func (c *checker) optStrList(t map[string]any, tbl, name string) []string {
	if _, present := t[name]; !present {
		return nil
	}
	return c.strList(t, tbl, name)
}

// strList returns the required array of strings name.
func (c *checker) strList(t map[string]any, tbl, name string) []string {
	v, present := t[name]
	if !present {
		c.missing(tbl, name, fmt.Sprintf("add %s = [] under [%s] (the list may be empty)", name, tbl))
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		c.valueErr(join(tbl, name), "must be an array of strings, not %s; write it as [\"a\", \"b\"]", typeName(v))
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			c.valueErr(join(tbl, name), "element %d is %s, not a string; put every name in double quotes", i+1, typeName(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

// endpoint validates an endpoint table at path; ok when it is usable.
func (c *checker) endpoint(t map[string]any, path string) (Endpoint, bool) {
	before := len(c.errs)
	var e Endpoint
	if s, ok := c.str(t, path, "base_url"); ok {
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.valueErr(path+".base_url", "%q is not an http:// or https:// URL; write the server's API base, for example \"http://localhost:8000/v1\"", s)
		}
		e.BaseURL = s
	}
	if s, ok := c.str(t, path, "model"); ok {
		if strings.TrimSpace(s) == "" {
			c.valueErr(path+".model", "is empty; write the model name as the server lists it under /models")
		}
		e.Model = s
	}
	if s := c.optString(t, path, "api_key_env"); s != nil {
		if !validEnvName(*s) {
			// Never echo the value: it may be the key itself.
			c.valueErr(path+".api_key_env", "is not an environment variable name; write the variable's name (for example \"OPENAI_API_KEY\") and put the key itself in .env")
		}
		e.APIKeyEnv = *s
	}
	e.MaxRetries = c.maxRetries(t, path)
	e.IdleTimeout = c.idleTimeout(t, path)
	e.ContextWindow = c.contextWindow(t, path)
	if p, ok := c.table(t, path, "parameters", false); ok {
		c.parameters(p, path+".parameters")
		e.Parameters = normalize(p).(map[string]any)
	}
	return e, len(c.errs) == before
}

// maxRetries reads the optional max_retries of an endpoint table: an
// integer from 0 to maxRetriesLimit, DefaultMaxRetries when absent.
func (c *checker) maxRetries(t map[string]any, path string) int {
	return c.optionalInt(t, "max_retries", intKey{path: path + ".max_retries", def: DefaultMaxRetries, min: 0, max: maxRetriesLimit,
		hint: "how often a failed request is sent again, for example 4; 0 never retries", tooBig: "too many", bigNote: " (each retry waits up to 30 s)"})
}

// maxRetriesLimit bounds max_retries: beyond it a turn could wait for hours.
const maxRetriesLimit = 100

// idleTimeout reads the optional idle_timeout_s of an endpoint table: a
// number of seconds ≥ 0 (0 disables the timeout), DefaultIdleTimeout when
// absent.
func (c *checker) idleTimeout(t map[string]any, path string) time.Duration {
	v, present := t["idle_timeout_s"]
	if !present {
		return DefaultIdleTimeout
	}
	const hint = "the seconds without any data from the server after which a request is given up and retried, for example 300; 0 never gives up"
	var secs float64
	switch n := v.(type) {
	case int64:
		secs = float64(n)
	case float64:
		secs = n
	default:
		c.valueErr(path+".idle_timeout_s", "must be a number, not %s; write the seconds without quotes (%s)", typeName(v), hint)
		return DefaultIdleTimeout
	}
	switch {
	case math.IsNaN(secs) || secs < 0:
		c.valueErr(path+".idle_timeout_s", "must be 0 or more, not %v; %s", v, hint)
	case secs > maxIdleSeconds:
		c.valueErr(path+".idle_timeout_s", "%v is too long; use at most %d seconds (a day), or 0 to disable the timeout", v, maxIdleSeconds)
	case secs > 0 && secs < 0.001:
		c.valueErr(path+".idle_timeout_s", "%v is shorter than a millisecond; use at least 0.001, or 0 to disable the timeout", v)
	default:
		return time.Duration(secs * float64(time.Second))
	}
	return DefaultIdleTimeout
}

// maxIdleSeconds bounds idle_timeout_s (one day).
const maxIdleSeconds = 86400

// reserved are request fields harness sets itself.
var reserved = []string{"model", "messages", "tools", "stream", "stream_options", "n"}

// parameters checks [*.parameters]: no reserved names, and only values that
// JSON can carry (no nan/inf, no TOML dates or times) at any depth.
func (c *checker) parameters(p map[string]any, path string) {
	names := make([]string, 0, len(p))
	for k := range p {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		key := path + "." + toml.Key{k}.String()
		if slices.Contains(reserved, k) {
			c.keyErr(key, "%q is reserved: harness sets it on every request; remove it from [%s]", k, path)
			continue
		}
		c.paramValue(p[k], key, key)
	}
}

// paramValue checks one parameter value; loc is the key to position errors
// at, shown the key to name (with [i] for array elements).
func (c *checker) paramValue(v any, loc, shown string) {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			c.at(c.valueOffset(loc), shown, "nan and inf cannot be sent (JSON has no such numbers); use a finite number or remove it")
		}
	case time.Time:
		c.at(c.valueOffset(loc), shown, "TOML dates and times cannot be sent; quote the value to send it as a string, for example \"2024-05-27\"")
	case []any:
		for i, e := range v {
			c.paramValue(e, loc, fmt.Sprintf("%s[%d]", shown, i))
		}
	case []map[string]any:
		for i, m := range v {
			c.paramTable(m, loc, fmt.Sprintf("%s[%d]", shown, i))
		}
	case map[string]any:
		c.paramTable(v, loc, shown)
	}
}

func (c *checker) paramTable(m map[string]any, loc, shown string) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		sub := toml.Key{k}.String()
		subLoc := loc + "." + sub
		if _, ok := c.loc.find(subLoc); !ok {
			subLoc = loc // inside an array: position at the array
		}
		c.paramValue(m[k], subLoc, shown+"."+sub)
	}
}

// normalize turns arrays of tables into []any, so parameter values use only
// the types Endpoint.Parameters documents.
func normalize(v any) any {
	switch v := v.(type) {
	case []map[string]any:
		out := make([]any, len(v))
		for i, m := range v {
			out[i] = normalize(m)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalize(e)
		}
		return out
	}
	return v
}

func (c *checker) valueOffset(key string) int {
	sp, ok := c.loc.find(key)
	switch {
	case !ok:
		return -1
	case sp.ValStart >= 0:
		return sp.ValStart
	}
	return sp.KeyStart
}

func containsCommand(s string) bool { return strings.Contains(s, "${command}") }
