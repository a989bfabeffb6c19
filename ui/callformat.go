// How a tool call and its arguments are shown, also while they stream.

package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"harness/rlm"
)

// formatCall shows a tool call: its name, then its arguments. A repl call
// shows its code; apply_patch shows "root: <value>" above its patch; other
// arguments are "key: value" lines. Arguments that are not a JSON object
// are shown as sent.
func formatCall(name, args string) string {
	fields, ok := objectFields(args)
	if !ok {
		fields, ok = partialFields(args)
	}
	return formatFields(name, args, fields, ok)
}

// formatFields is formatCall with the arguments decoded: fields, and
// whether they are an object.
func formatFields(name, args string, fields []field, ok bool) string {
	head := "● " + name
	if !ok {
		if strings.TrimSpace(args) == "" {
			return head
		}
		return head + "\n" + args
	}
	var sb strings.Builder
	sb.WriteString(head)
	get := func(k string) (string, bool) {
		for _, f := range fields {
			if f.key == k {
				return f.val, true
			}
		}
		return "", false
	}
	switch name {
	case rlm.REPLTool:
		if code, ok := get("code"); ok && len(fields) == 1 {
			return head + "\n" + code
		}
	case rlm.ApplyPatchTool:
		if p, ok := get("patch"); ok {
			if r, ok := get("root"); ok {
				sb.WriteString("\nroot: " + r)
			}
			sb.WriteString("\n" + p)
			for _, f := range fields {
				if f.key != "patch" && f.key != "root" {
					sb.WriteString("\n" + f.key + ": " + f.val)
				}
			}
			return sb.String()
		}
	}
	for _, f := range fields {
		sb.WriteString("\n" + f.key + ": " + f.val)
	}
	return sb.String()
}

type field struct{ key, val string }

// objectFields decodes a JSON object keeping its key order; string values
// are unquoted, others kept as JSON.
func objectFields(s string) ([]field, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []field
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		k, _ := kt.(string)
		var str string
		if json.Unmarshal(raw, &str) == nil {
			out = append(out, field{k, str})
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			raw = buf.Bytes()
		}
		out = append(out, field{k, string(raw)})
	}
	return out, true
}

// partialFields reads the fields of a JSON object still being streamed:
// complete members, then the member being written, its string value
// unescaped as far as it goes. It reports false for text that does not
// start an object.
func partialFields(s string) ([]field, bool) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, false
	}
	var out []field
	i++
	for {
		i = skipSpace(s, i)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
		if i >= len(s) || s[i] != '"' {
			return out, true
		}
		key, n, done := partialString(s[i:])
		if !done {
			return out, true
		}
		i = skipSpace(s, i+n)
		if i >= len(s) || s[i] != ':' {
			return out, true
		}
		i = skipSpace(s, i+1)
		if i >= len(s) {
			return append(out, field{key, ""}), true
		}
		if s[i] == '"' {
			val, n, _ := partialString(s[i:])
			out = append(out, field{key, val})
			i += n
			continue
		}
		j := i
		for j < len(s) && s[j] != ',' && s[j] != '}' {
			j++
		}
		out = append(out, field{key, strings.TrimSpace(s[i:j])})
		i = j
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// partialString decodes the JSON string at the start of s (which begins
// with a quote) as far as it goes: its value, the bytes read, and whether
// the closing quote was reached. An escape cut off at the end is left out.
func partialString(s string) (string, int, bool) {
	var sb strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return sb.String(), i + 1, true
		case c != '\\':
			sb.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return sb.String(), len(s), false
		}
		if s[i+1] == 'u' {
			if i+6 > len(s) {
				return sb.String(), len(s), false
			}
			var r string
			if json.Unmarshal([]byte(`"`+s[i:i+6]+`"`), &r) == nil {
				sb.WriteString(r)
			}
			i += 6
			continue
		}
		var r string
		if json.Unmarshal([]byte(`"`+s[i:i+2]+`"`), &r) == nil {
			sb.WriteString(r)
		}
		i += 2
	}
	return sb.String(), len(s), false
}
