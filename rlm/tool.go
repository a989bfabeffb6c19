// Tool definitions: parameters, JSON schemas and argument checking shared by
// the tool files (tool_*.go).

package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"harness/llm"
)

// tool is one function offered to the model.
type tool struct {
	name        string
	description string
	params      []param
	// schemaJSON, when set, is the tool's whole JSON Schema (an MCP tool's):
	// check then only requires a JSON object and leaves the rest to the
	// tool's server.
	schemaJSON json.RawMessage
	// run executes a call whose arguments already passed check. It returns
	// the result text and Stopped when the user stopped the turn inside it.
	run func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status)
	// runCall, when set, runs instead of run and is given the call's ID
	// (rlm: calls of one reply may run at once, so the agent's running
	// call does not name them).
	runCall func(ctx context.Context, a *agent, id string, args map[string]json.RawMessage) (string, Status)
}

// param is one argument of a tool.
type param struct {
	name     string
	typ      string // JSON Schema type: string, integer, boolean
	desc     string
	required bool
	enum     []string
}

// schema returns the tool's JSON Schema.
func (t tool) schema() json.RawMessage {
	if t.schemaJSON != nil {
		return t.schemaJSON
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, p := range t.params {
		if i > 0 {
			b.WriteByte(',')
		}
		prop := map[string]any{"type": p.typ, "description": p.desc}
		if len(p.enum) > 0 {
			prop["enum"] = p.enum
		}
		if p.typ == "integer" {
			prop["minimum"] = 0
		}
		k, _ := json.Marshal(p.name)
		v, _ := json.Marshal(prop)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		if p.required {
			required = append(required, p.name)
		}
	}
	b.WriteString(`},"required":`)
	if required == nil {
		required = []string{}
	}
	r, _ := json.Marshal(required)
	b.Write(r)
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

// llmTool returns the definition sent to the endpoint.
func (t tool) llmTool() llm.Tool {
	return llm.Tool{Name: t.name, Description: t.description, Parameters: t.schema()}
}

// check decodes a call's arguments and returns them by name, or the result
// text telling the model what to fix.
func (t tool) check(arguments string) (map[string]json.RawMessage, string) {
	args := map[string]json.RawMessage{}
	if strings.TrimSpace(arguments) != "" {
		if obj, ok := objectText(arguments); ok {
			arguments = obj // sent as a JSON string holding the object
		}
		if err := json.Unmarshal([]byte(arguments), &args); err != nil || args == nil {
			return nil, fmt.Sprintf("Invalid arguments for %s: the arguments are not a JSON object (%v). Send an object like %s.", t.name, jsonErr(err), t.example())
		}
	}
	for name, raw := range args {
		if t.schemaJSON != nil {
			if string(raw) == "null" {
				delete(args, name)
			}
			continue
		}
		p, ok := t.param(name)
		if !ok {
			return nil, fmt.Sprintf("Invalid arguments for %s: unknown argument %q; %s", t.name, name, t.takes())
		}
		if string(raw) == "null" {
			delete(args, name)
			continue
		}
		if msg := p.checkValue(raw); msg != "" {
			return nil, fmt.Sprintf("Invalid arguments for %s: %s", t.name, msg)
		}
	}
	for _, p := range t.params {
		if _, ok := args[p.name]; p.required && !ok {
			return nil, fmt.Sprintf("Invalid arguments for %s: missing required argument %q; %s", t.name, p.name, t.takes())
		}
	}
	return args, ""
}

func jsonErr(err error) string {
	if err == nil {
		return "null"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func (t tool) param(name string) (param, bool) {
	for _, p := range t.params {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

// takes describes the arguments, e.g. "read_file takes path (string, required), …".
func (t tool) takes() string {
	if len(t.params) == 0 {
		return t.name + " takes no arguments."
	}
	var parts []string
	for _, p := range t.params {
		s := p.name + " (" + p.typ
		if len(p.enum) > 0 {
			s += ": " + strings.Join(p.enum, ", ")
		}
		if p.required {
			s += ", required"
		}
		parts = append(parts, s+")")
	}
	return t.name + " takes " + strings.Join(parts, ", ") + "."
}

func (t tool) example() string {
	var parts []string
	for _, p := range t.params {
		if p.required {
			parts = append(parts, fmt.Sprintf("%q: …", p.name))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (p param) checkValue(raw json.RawMessage) string {
	var ok bool
	switch p.typ {
	case "string":
		var s string
		ok = json.Unmarshal(raw, &s) == nil
		if ok && len(p.enum) > 0 {
			for _, e := range p.enum {
				if s == e {
					return ""
				}
			}
			return fmt.Sprintf("argument %q is %q; it must be one of %s", p.name, s, strings.Join(p.enum, ", "))
		}
	case "integer":
		var n int
		ok = json.Unmarshal(raw, &n) == nil
		if ok && n < 0 {
			return fmt.Sprintf("argument %q must not be negative", p.name)
		}
	case "boolean":
		var b bool
		ok = json.Unmarshal(raw, &b) == nil
	}
	if !ok {
		return fmt.Sprintf("argument %q must be a JSON %s, not %s", p.name, p.typ, raw)
	}
	return ""
}

// str, integer and boolean read checked arguments ("" / 0 / false when absent).
func str(args map[string]json.RawMessage, name string) string {
	var s string
	json.Unmarshal(args[name], &s)
	return s
}

func integer(args map[string]json.RawMessage, name string) int {
	var n int
	json.Unmarshal(args[name], &n)
	return n
}

func boolean(args map[string]json.RawMessage, name string) bool {
	var b bool
	json.Unmarshal(args[name], &b)
	return b
}

// result is a tool's result text and status: its output, or its error's
// text as a failed result.
func result(s string, err error) (string, Status) {
	if err != nil {
		return err.Error(), Failed
	}
	return s, Done
}

// withRoot adds the optional root argument when the agent has more than
// the repository to choose from.
func withRoot(ps []param, roots []string) []param {
	if len(roots) < 2 {
		return ps
	}
	return append(ps, param{name: "root", typ: "string", enum: roots,
		desc: "Directory the path is relative to; default repository."})
}
