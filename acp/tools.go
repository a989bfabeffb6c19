// How a tool call looks in the editor: its title, kind, locations, and the
// content and status of its result.

package acp

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"harness/patch"
	"harness/rlm"
)

// roots are the host directories the file tools' root argument names, for
// locations the editor can open.
type roots struct {
	repository string // the session's cwd, canonical
	store      string // [rlm.store] path; "" without a store
	library    string // the session's library folder; "" before it exists
}

// dir returns the host directory of a root argument ("" is the repository).
func (r roots) dir(root string) string {
	switch root {
	case "", "repository":
		return r.repository
	case "store":
		return r.store
	case "library":
		return r.library
	}
	return ""
}

// call is a tool call as the editor is shown it.
type call struct {
	agent rlm.Agent // the agent making it
	name  string
	args  map[string]json.RawMessage // nil when they are not a JSON object
	raw   string                     // the JSON text the model sent
}

func newCall(a rlm.Agent, name, arguments string) call {
	c := call{agent: a, name: name, raw: arguments}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(arguments), &m) == nil {
		c.args = m
	} else {
		var s string // an object sent as a JSON string, which rlm also runs
		if json.Unmarshal([]byte(arguments), &s) == nil && json.Unmarshal([]byte(s), &m) == nil {
			c.args = m
		}
	}
	return c
}

func (c call) str(key string) string {
	var s string
	json.Unmarshal(c.args[key], &s)
	return s
}

func (c call) num(key string) int {
	var n int
	json.Unmarshal(c.args[key], &n)
	return n
}

// title is "lister · read_file main.go": the calling subagent's name (none
// for the root), the tool, and its main argument on one short line.
func (c call) title() string {
	t := c.summary()
	if c.agent.Depth > 0 {
		t = c.agent.Name + " · " + t
	}
	return t
}

// maxSummary bounds the argument part of a title, in runes.
const maxSummary = 80

func (c call) summary() string {
	var arg string
	switch c.name {
	case rlm.RLMTool:
		arg = c.str("name") + ": " + c.str("task")
	case rlm.REPLTool:
		arg = c.str("code")
	case rlm.ReadFileTool:
		arg = c.rootPrefix() + c.str("path")
		if s, e := c.num("start_line"), c.num("end_line"); s > 0 || e > 0 {
			arg += ":" + lineRange(s, e)
		}
	case rlm.GrepTool:
		arg = c.str("pattern")
		if p := c.str("path"); p != "" || c.str("root") != "" {
			arg += " in " + c.rootPrefix() + orDot(p)
		}
	case rlm.ListTool:
		arg = c.rootPrefix() + orDot(c.str("path"))
	case rlm.ApplyPatchTool:
		arg = c.rootPrefix() + strings.Join(c.patchPaths(), ", ")
	case rlm.FYITool:
	default:
		if server, tool, ok := mcpName(c.name); ok {
			return "MCP " + server + " " + tool
		}
	}
	arg = oneLine(arg, maxSummary)
	if arg == "" {
		return c.name
	}
	return c.name + " " + arg
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// rootPrefix names a root other than the repository: "store:".
func (c call) rootPrefix() string {
	if r := c.str("root"); r != "" && r != "repository" {
		return r + ":"
	}
	return ""
}

func lineRange(start, end int) string {
	switch {
	case end == 0:
		return itoa(start) + "-"
	case start == 0:
		return "1-" + itoa(end)
	}
	return itoa(start) + "-" + itoa(end)
}

// mcpName splits a direct MCP tool name mcp__server__tool.
func mcpName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	return server, tool, ok
}

// oneLine is the first non-empty line of s, cut to n runes with "…".
func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	first, _, more := strings.Cut(s, "\n")
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) > n {
		r := []rune(first)
		return string(r[:n-1]) + "…"
	}
	if more {
		return first + " …"
	}
	return first
}

// kind is the ACP tool kind: delegating is thinking, the REPL executes,
// listing a folder is searching, apply_patch edits (or deletes or moves,
// when that is all it does).
func (c call) kind() sdk.ToolKind {
	switch c.name {
	case rlm.RLMTool:
		return sdk.ToolKindThink
	case rlm.REPLTool:
		return sdk.ToolKindExecute
	case rlm.ReadFileTool:
		return sdk.ToolKindRead
	case rlm.GrepTool, rlm.ListTool:
		return sdk.ToolKindSearch
	case rlm.ApplyPatchTool:
		return c.patchKind()
	}
	return sdk.ToolKindOther
}

func (c call) patch() *patch.Patch {
	if c.name != rlm.ApplyPatchTool {
		return nil
	}
	p, err := patch.Parse(c.str("patch"))
	if err != nil {
		return nil
	}
	return p
}

func (c call) patchPaths() []string {
	p := c.patch()
	if p == nil {
		return nil
	}
	var out []string
	for _, op := range p.Ops {
		s := op.Path
		if op.MoveTo != "" {
			s += " → " + op.MoveTo
		}
		out = append(out, s)
	}
	return out
}

func (c call) patchKind() sdk.ToolKind {
	p := c.patch()
	if p == nil {
		return sdk.ToolKindEdit
	}
	deletes, moves := 0, 0
	for _, op := range p.Ops {
		switch {
		case op.Kind == patch.Delete:
			deletes++
		case op.Kind == patch.Update && op.MoveTo != "" && len(op.Hunks) == 0:
			moves++
		}
	}
	switch len(p.Ops) {
	case deletes:
		return sdk.ToolKindDelete
	case moves:
		return sdk.ToolKindMove
	}
	return sdk.ToolKindEdit
}

// locations are the host files a file tool works on, inside its root;
// paths that would leave the root are left out.
func (c call) locations(r roots) []sdk.ToolCallLocation {
	dir := r.dir(c.str("root"))
	if dir == "" || c.args == nil {
		return nil
	}
	var out []sdk.ToolCallLocation
	add := func(rel string, line int) {
		p, ok := inside(dir, rel)
		if !ok {
			return
		}
		l := sdk.ToolCallLocation{Path: p}
		if line > 0 {
			l.Line = sdk.Ptr(line)
		}
		out = append(out, l)
	}
	switch c.name {
	case rlm.ReadFileTool:
		add(c.str("path"), c.num("start_line"))
	case rlm.GrepTool, rlm.ListTool:
		add(c.str("path"), 0)
	case rlm.ApplyPatchTool:
		if p := c.patch(); p != nil {
			for _, op := range p.Ops {
				add(op.Path, firstLine(op))
				if op.MoveTo != "" {
					add(op.MoveTo, 0)
				}
			}
		}
	}
	return out
}

// firstLine is the line of an update's first numbered anchor, else 0.
func firstLine(op *patch.Op) int {
	if len(op.Hunks) > 0 {
		return op.Hunks[0].AnchorLine
	}
	return 0
}

// inside joins rel to dir, refusing absolute paths and escapes.
func inside(dir, rel string) (string, bool) {
	if filepath.IsAbs(rel) || strings.ContainsRune(rel, 0) {
		return "", false
	}
	p := filepath.Join(dir, rel)
	back, err := filepath.Rel(dir, p)
	if err != nil || back == ".." || strings.HasPrefix(back, ".."+string(filepath.Separator)) {
		return "", false
	}
	return p, true
}

// rawInput is the arguments as a JSON value (the text when they are not
// JSON).
func (c call) rawInput() any {
	if json.Valid([]byte(c.raw)) {
		return json.RawMessage(c.raw)
	}
	return c.raw
}

// resultContent is what the editor shows for a finished call: apply_patch's
// changes as diffs (each hunk's old and new lines, an added file's text),
// then the result text exactly as the model got it.
func (c call) resultContent(result string, failed bool, r roots) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	if !failed {
		out = c.diffs(r)
	}
	if result != "" {
		out = append(out, sdk.ToolContent(sdk.TextBlock(result)))
	}
	return out
}

func (c call) diffs(r roots) []sdk.ToolCallContent {
	p := c.patch()
	dir := r.dir(c.str("root"))
	if p == nil || dir == "" {
		return nil
	}
	var out []sdk.ToolCallContent
	for _, op := range p.Ops {
		dst := op.Path
		if op.MoveTo != "" {
			dst = op.MoveTo
		}
		path, ok := inside(dir, dst)
		if !ok {
			continue
		}
		switch op.Kind {
		case patch.Add:
			out = append(out, sdk.ToolDiffContent(path, joinLines(op.Lines)))
		case patch.Update:
			for _, h := range op.Hunks {
				out = append(out, sdk.ToolDiffContent(path, joinLines(h.New()), joinLines(h.Old())))
			}
		}
	}
	return out
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// replErrorLine is the line ending a REPL backtrace: "Error in f: ...",
// or a Python exception class ("ZeroDivisionError: ...", "KeyError: 'k'",
// "StopIteration").
var replErrorLine = regexp.MustCompile(`(?m)^(Error|[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Expired|Iteration))\b`)

// patchChange is the first line of apply_patch's success result.
var patchChange = regexp.MustCompile(`^(A|M|D|=) \S|^R \S.* -> \S`)

// failed tells, for a result read back from a saved conversation (live
// results say it in rlm.ToolResult.Failed), whether it reports that the
// call did not do its work: a call that never ran or was stopped, a failed subagent, arguments
// or a tool name the model got wrong, a file tool's error, a REPL call that
// raised an error or lost its state, an MCP tool's error or refusal.
func failed(name, result string) bool {
	switch {
	case result == rlm.NotRun, result == noResult,
		strings.HasPrefix(result, "Invalid arguments for "+name+":"),
		strings.HasPrefix(result, "Unknown tool: "),
		strings.HasPrefix(result, `"root" is `):
		return true
	}
	last := result[strings.LastIndexByte(result, '\n')+1:]
	switch name {
	case rlm.RLMTool:
		return last == rlm.StoppedMarker || strings.HasPrefix(last, "[branch failed: ") ||
			strings.HasPrefix(last, rlm.InterruptedPrefix)
	case rlm.REPLTool:
		return strings.Contains(result, "Traceback (most recent call last):\n") && replErrorLine.MatchString(result) ||
			hasLinePrefix(result, "REPL state lost: ") ||
			hasLinePrefix(result, "cancelled: the call was stopped by the user")
	case rlm.ApplyPatchTool:
		return !patchChange.MatchString(result)
	case rlm.ReadFileTool, rlm.GrepTool, rlm.ListTool:
		return strings.HasPrefix(result, name+": ") || strings.HasPrefix(result, name+" ") && strings.Contains(firstOf(result), ": ")
	}
	if server, tool, ok := mcpName(name); ok {
		for _, p := range []string{"The tool reported an error:", "PermissionError", "cancelled: ", "MCP server ",
			"there is no MCP server ", "the arguments of " + server + "/" + tool, server + "/" + tool + " did not answer"} {
			if strings.HasPrefix(result, p) {
				return true
			}
		}
	}
	return false
}

func hasLinePrefix(s, prefix string) bool {
	return strings.HasPrefix(s, prefix) || strings.Contains(s, "\n"+prefix)
}

func firstOf(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
