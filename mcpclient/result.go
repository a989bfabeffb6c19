// A tool result as text: what a direct tool returns and mcp() falls back to.

package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is a tool call's outcome.
type Result struct {
	// Text is every content block as text, one after another: text as it
	// is, images and audio as "[image: image/png, 1,234 bytes]", resource
	// links as "[resource link: URI (name)]", embedded resources as their
	// URI and text (or size), and the structured content as JSON. A text
	// block that only repeats the structured content as JSON is left out.
	// "(no content)" when there is nothing.
	Text string
	// Structured is the structured content, nil when the tool sent none.
	Structured json.RawMessage
	// IsError is set when the tool reported an error (isError).
	IsError bool
}

// mapResult turns a CallToolResult into a Result.
func mapResult(res *mcp.CallToolResult) Result {
	out := Result{IsError: res.IsError}
	var parts []string
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Structured = b
		}
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && out.Structured != nil && sameJSON(t.Text, out.Structured) {
			continue
		}
		parts = append(parts, contentText(c))
	}
	if out.Structured != nil {
		parts = append(parts, string(out.Structured))
	}
	out.Text = strings.Join(parts, "\n")
	if strings.TrimSpace(out.Text) == "" {
		out.Text = "(no content)"
	}
	return out
}

// contentText is one content block as text.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %s bytes]", orUnknown(c.MIMEType), thousands(len(c.Data)))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %s bytes]", orUnknown(c.MIMEType), thousands(len(c.Data)))
	case *mcp.ResourceLink:
		name := c.Name
		if c.Title != "" && c.Title != name {
			name += ", " + c.Title
		}
		return fmt.Sprintf("[resource link: %s (%s)]", c.URI, name)
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource: %s, %s, %s bytes]", r.URI, orUnknown(r.MIMEType), thousands(len(r.Blob)))
		}
		return fmt.Sprintf("[resource: %s]\n%s", r.URI, r.Text)
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// sameJSON reports whether text is a JSON text equal to v.
func sameJSON(text string, v json.RawMessage) bool {
	var a, b any
	if json.Unmarshal([]byte(text), &a) != nil || json.Unmarshal(v, &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// thousands formats n with commas: 1234 → "1,234".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
