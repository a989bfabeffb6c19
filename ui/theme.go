// Colours: the [theme] table turned into tcell styles.

package ui

import (
	"os"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/styled"
)

// styles are the tcell styles of every kind of text the UI draws.
type styles struct {
	system, user, assistant, reasoning, toolCall, toolResult tcell.Style
	approval, warning, errorS, status, input                 tcell.Style
	// class is the colour of each styled.Class (ColorDefault: the
	// block's own colour).
	class [styled.NumClasses]tcell.Color
}

// codePalette colours code block tokens: mid-tone colours that read on
// dark and light backgrounds alike.
var codePalette = map[styled.Class]string{
	styled.Keyword: "#af87d7", styled.Function: "#5f9fd7", styled.Type: "#4fafaf",
	styled.Builtin: "#d7875f", styled.String: "#87af5f", styled.Number: "#d78787",
	styled.Comment: "#878787", styled.Tag: "#5f9fd7",
}

// newStyles converts the theme's #RRGGBB strings. A colour that does not
// parse (config validates them, so only hand-built configs) keeps the
// terminal's default foreground. With NO_COLOR set (to anything but "")
// no colour is used at all; bold, italic, underline and reverse stay.
func newStyles(t config.Theme) styles {
	noColor := os.Getenv("NO_COLOR") != ""
	col := func(s string) tcell.Color {
		if noColor {
			return tcell.ColorDefault
		}
		return tcell.GetColor(s)
	}
	fg := func(s string) tcell.Style {
		st := tcell.StyleDefault
		if c := col(s); c != tcell.ColorDefault {
			st = st.Foreground(c)
		}
		return st
	}
	st := styles{
		system: fg(t.System), user: fg(t.User), assistant: fg(t.Assistant),
		reasoning: fg(t.Reasoning), toolCall: fg(t.ToolCall), toolResult: fg(t.ToolResult),
		approval: fg(t.Approval), warning: fg(t.Warning), errorS: fg(t.Error),
		status: fg(t.Status), input: fg(t.Input),
	}
	remove, add := t.DiffRemove, t.DiffAdd
	if remove == "" {
		remove = config.DefaultDiffRemove
	}
	if add == "" {
		add = config.DefaultDiffAdd
	}
	for c, hex := range map[styled.Class]string{
		styled.Code: t.ToolCall, styled.Link: t.User, styled.URL: t.Status,
		styled.Quote: t.Reasoning, styled.Marker: t.Status, styled.DiffFile: t.ToolCall,
		styled.DiffHunk: t.ContextTurn, styled.DiffAdd: add, styled.DiffRemove: remove,
		styled.DiffContext: t.Status, styled.Note: t.Warning, styled.Failure: t.Error,
	} {
		st.class[c] = col(hex)
	}
	for c, hex := range codePalette {
		st.class[c] = col(hex)
	}
	return st
}

// span returns the style of a span of class and attributes st inside a
// block drawn in base.
func (s *styles) span(base tcell.Style, st styled.Style) tcell.Style {
	out := base
	if c := s.class[st.Class]; c != tcell.ColorDefault {
		out = out.Foreground(c)
	}
	a := st.Attr
	if a&styled.Bold != 0 {
		out = out.Bold(true)
	}
	if a&styled.Italic != 0 {
		out = out.Italic(true)
	}
	if a&styled.Underline != 0 {
		out = out.Underline(true)
	}
	if a&styled.Strike != 0 {
		out = out.StrikeThrough(true)
	}
	if a&styled.Dim != 0 {
		out = out.Dim(true)
	}
	return out
}

// of returns the style of a transcript block kind.
func (s *styles) of(k kind) tcell.Style {
	switch k {
	case kSystem:
		return s.system
	case kUser:
		return s.user
	case kReasoning:
		return s.reasoning
	case kCall:
		return s.toolCall
	case kOutput, kResult, kInfo, kProgress, kHelp:
		return s.toolResult
	case kWelcome:
		return s.assistant
	case kApproval, kDescription:
		return s.approval
	case kNote:
		return s.warning
	case kError:
		return s.errorS
	case kContext:
		return s.toolResult.Dim(true)
	}
	return s.assistant
}
