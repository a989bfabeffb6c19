// Colours: the [theme] table turned into tcell styles.

package ui

import (
	"github.com/gdamore/tcell/v2"

	"harness/config"
)

// styles are the tcell styles of every kind of text the UI draws.
type styles struct {
	system, user, assistant, reasoning, toolCall, toolResult tcell.Style
	approval, warning, errorS, status, input                 tcell.Style
}

// newStyles converts the theme's #RRGGBB strings. A colour that does not
// parse (config validates them, so only hand-built configs) keeps the
// terminal's default foreground.
func newStyles(t config.Theme) styles {
	fg := func(s string) tcell.Style {
		st := tcell.StyleDefault
		if c := tcell.GetColor(s); c != tcell.ColorDefault {
			st = st.Foreground(c)
		}
		return st
	}
	return styles{
		system: fg(t.System), user: fg(t.User), assistant: fg(t.Assistant),
		reasoning: fg(t.Reasoning), toolCall: fg(t.ToolCall), toolResult: fg(t.ToolResult),
		approval: fg(t.Approval), warning: fg(t.Warning), errorS: fg(t.Error),
		status: fg(t.Status), input: fg(t.Input),
	}
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
	case kOutput, kResult, kInfo:
		return s.toolResult
	case kApproval, kDescription:
		return s.approval
	case kNote:
		return s.warning
	case kError:
		return s.errorS
	}
	return s.assistant
}
