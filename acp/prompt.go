// A prompt's content blocks as the root's text, and a saved session's
// title.

package acp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"harness/sessions"
)

// promptText joins a prompt's blocks into the root's user message: text as
// it is, a mentioned file (resource_link) as @path (relative to the
// repository when it lies inside), an embedded file (resource) as @path
// there and its text after the prompt in a fenced block. Images and audio
// are refused: harness does not advertise them.
func promptText(blocks []sdk.ContentBlock, repo string) (string, error) {
	var b, after strings.Builder
	for _, blk := range blocks {
		switch {
		case blk.Text != nil:
			b.WriteString(blk.Text.Text)
		case blk.ResourceLink != nil:
			b.WriteString("@" + shownPath(blk.ResourceLink.Uri, repo))
		case blk.Resource != nil:
			res := blk.Resource.Resource
			switch {
			case res.TextResourceContents != nil:
				t := res.TextResourceContents
				p := shownPath(t.Uri, repo)
				b.WriteString("@" + p)
				fmt.Fprintf(&after, "\n\n@%s:\n%s", p, fenced(t.Text))
			case res.BlobResourceContents != nil:
				t := res.BlobResourceContents
				b.WriteString("@" + shownPath(t.Uri, repo) + " (binary content, not included)")
			}
		case blk.Image != nil:
			return "", fmt.Errorf("harness takes text prompts: an image cannot be sent (describe it, or save it in the repository and name its path)")
		case blk.Audio != nil:
			return "", fmt.Errorf("harness takes text prompts: audio cannot be sent")
		}
	}
	text := b.String() + after.String()
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("the prompt is empty")
	}
	return text, nil
}

// fenced is text in a code fence longer than any run of backticks in it.
func fenced(text string) string {
	n := 3
	for run, i := 0, 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return f + "\n" + text + f
}

// shownPath is a file URI's path relative to the repository when inside
// it, else the URI as given; a line range in the fragment (Zed's
// selections and symbols: #L10:20, also #L10-20 and #L10) follows as
// ":10-20", so a selection is not taken for the whole file.
func shownPath(uri, repo string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return relPath(filepath.Clean(u.Path), repo) + lineSuffix(u.Fragment)
}

func relPath(p, repo string) string {
	if rel, err := filepath.Rel(repo, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if rel, err := filepath.Rel(repo, real); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return rel
		}
	}
	return p
}

// lineSuffix is ":START-END" (":N" for one line) for a fragment naming
// 1-based lines, else "".
func lineSuffix(fragment string) string {
	r, ok := strings.CutPrefix(fragment, "L")
	if !ok {
		return ""
	}
	start, end, found := strings.Cut(r, ":")
	if !found {
		start, end, found = strings.Cut(r, "-")
	}
	if !found {
		end = start
	}
	a, err1 := strconv.Atoi(start)
	b, err2 := strconv.Atoi(strings.TrimPrefix(end, "L"))
	switch {
	case err1 != nil || err2 != nil || a < 1 || b < a:
		return ""
	case a == b:
		return ":" + strconv.Itoa(a)
	}
	return ":" + strconv.Itoa(a) + "-" + strconv.Itoa(b)
}

// title is the session's first user message on one line.
func title(items []sessions.Item) string {
	for _, it := range items {
		if !it.Hidden && it.Message.Role == "user" {
			return oneLine(strings.Join(strings.Fields(it.Message.Content), " "), sessions.PreviewRunes)
		}
	}
	return ""
}
