// The first screen and /help: the welcome of an empty session, and the
// keys and commands drawn from the tables the key handling and the
// command list use.

package ui

import (
	"strings"

	"harness/config"
	"harness/styled"
)

var (
	headSt  = styled.Style{Attr: styled.Bold}
	labelSt = styled.Style{Class: styled.Marker}
	dimSt   = styled.Style{Class: styled.Marker, Attr: styled.Dim}
)

// levelWords says what the agents may do to the repository at level p.
func levelWords(p config.Permission) string {
	switch p {
	case config.PermNone:
		return "agents can neither read nor change the repository"
	case config.PermReadOnly:
		return "agents can read the repository; a change asks you first"
	}
	return "agents can read and change the repository"
}

// welcomeHints are the three hints of the welcome.
var welcomeHints = []struct{ key, what string }{
	{"/", "for commands"}, {"?", "for keys"}, {"Shift+Tab", "for permissions"},
}

// welcome returns the welcome block of an empty session, drawn from what
// it shows now (the level changes with Shift+Tab): never saved or sent,
// and gone once the first message is.
func (a *App) welcome() *block {
	b := a.main.welcomeB
	if b == nil {
		b = newBlock(kWelcome, "", "", false)
		a.main.welcomeB = b
	}
	lv := a.opts.Level.Get()
	text := strings.Join([]string{a.opts.Version, a.opts.Repository, a.opts.Model, a.opts.Endpoint, lv.String()}, "\x00")
	if b.String() != text {
		b.set(text)
	}
	return b
}

// showWelcome reports whether the transcript opens with the welcome: the
// root is on screen and nothing was sent in this session yet.
func (a *App) showWelcome() bool {
	return a.top() == a.root && !a.running && len(a.root.items) == 0
}

// welcomeLines draws the welcome at width w from its block's text.
func welcomeLines(text string, w int) []styled.Line {
	f := strings.Split(text, "\x00")
	for len(f) < 5 {
		f = append(f, "")
	}
	version, repo, model, endpoint, level := f[0], f[1], f[2], f[3], f[4]
	title := "Welcome to harness"
	if version != "" {
		title += " " + version
	}
	out := styled.Wrap([]styled.Span{{Text: title, Style: headSt}}, w, styled.Indent{})
	row := func(label, value string) {
		if w < 40 {
			ind := []styled.Span{{Text: "    "}}
			out = append(out, styled.One("  "+label, labelSt))
			out = append(out, styled.Wrap([]styled.Span{{Text: value, Style: plainSt}}, w, styled.Indent{First: ind, FirstDecor: 4, Rest: ind})...)
			return
		}
		lab := styled.Span{Text: "  " + label + strings.Repeat(" ", 11-len(label)), Style: labelSt}
		pad := styled.Span{Text: strings.Repeat(" ", 13)}
		out = append(out, styled.Wrap([]styled.Span{{Text: value, Style: plainSt}}, w,
			styled.Indent{First: []styled.Span{lab}, FirstDecor: 13, Rest: []styled.Span{pad}})...)
	}
	if repo != "" {
		row("repository", repo)
	}
	where := model
	if endpoint != "" {
		where += " at " + endpoint
	}
	row("model", where)
	if p, ok := config.ParsePermission(level); ok {
		row("permission", level+": "+levelWords(p))
	}
	out = append(out, styled.Line{})
	var spans []styled.Span
	for i, h := range welcomeHints {
		if i > 0 {
			spans = append(spans, styled.Span{Text: "  ·  ", Style: dimSt})
		}
		spans = append(spans, styled.Span{Text: h.key, Style: headSt}, styled.Span{Text: " " + h.what, Style: labelSt})
	}
	return append(out, styled.Wrap(spans, w, styled.Indent{First: []styled.Span{{Text: "  "}}, FirstDecor: 2, Rest: []styled.Span{{Text: "  "}}})...)
}

// helpKeysW is the widest the key column of the help gets.
const helpKeysW = 32

// helpLines draws the help at width w: the key table, a word on
// approvals, and the commands.
func helpLines(cmds []command, w int) []styled.Line {
	col := 0
	for _, r := range keyTable {
		col = max(col, styled.Width(r.Keys))
	}
	col = min(col, helpKeysW, max(10, w/4)) + 4
	narrow := w < col+30
	entry := func(out []styled.Line, key, what string) []styled.Line {
		if narrow {
			out = append(out, styled.Wrap([]styled.Span{{Text: "  " + key, Style: headSt}}, w, styled.Indent{})...)
			ind := []styled.Span{{Text: "      "}}
			return append(out, styled.Wrap([]styled.Span{{Text: what, Style: plainSt}}, w, styled.Indent{First: ind, FirstDecor: 6, Rest: ind})...)
		}
		first := []styled.Span{{Text: "  "}, {Text: key, Style: headSt}, {Text: strings.Repeat(" ", max(col-2-styled.Width(key), 1))}}
		if styled.Width(key) > col-3 {
			out = append(out, styled.Wrap([]styled.Span{{Text: "  " + key, Style: headSt}}, w, styled.Indent{})...)
			first = []styled.Span{{Text: strings.Repeat(" ", col)}}
			return append(out, styled.Wrap([]styled.Span{{Text: what, Style: plainSt}}, w,
				styled.Indent{First: first, FirstDecor: col, Rest: first})...)
		}
		return append(out, styled.Wrap([]styled.Span{{Text: what, Style: plainSt}}, w,
			styled.Indent{First: first, FirstDecor: 2, Rest: []styled.Span{{Text: strings.Repeat(" ", col)}}})...)
	}
	out := []styled.Line{styled.One("Keys", headSt)}
	for _, r := range keyTable {
		out = entry(out, r.Keys, r.Action)
	}
	out = append(out, styled.Line{})
	out = append(out, styled.Wrap([]styled.Span{{Text: "y, a, n, t and j answer the pending approval; while you are writing a message they are typed " +
		"into it until you pause for half a second or empty the line. Pasting never sends.", Style: dimSt}}, w, styled.Indent{})...)
	out = append(out, styled.Line{}, styled.One("Commands", headSt))
	for _, c := range cmds {
		out = entry(out, c.name+c.args, c.help)
	}
	out = append(out, styled.Line{})
	return append(out, styled.Wrap([]styled.Span{{Text: "Typing / opens the list of commands: Up/Down choose, Tab completes, Enter runs. " +
		"To send a message that starts with /, begin it with a space.", Style: dimSt}}, w, styled.Indent{})...)
}

// showHelp shows the help in the transcript of the agent on screen; it
// is never saved or sent.
func (a *App) showHelp() {
	v := a.top()
	v.scroll = scroll{follow: true}
	v.add(kHelp, "", "")
	v.blocks[len(v.blocks)-1].r.cmds = a.commandList()
	// Held at its first line: a help taller than the screen reads from
	// its start, PageDown going on.
	i := len(v.blocks) - 1
	if a.showWelcome() {
		i++ // the welcome heads the document
	}
	v.scroll = scroll{top: pos{b: i}}
}
