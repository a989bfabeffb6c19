// /compact and /context: commands harness answers itself, offered beside
// /init and the prompt files when the session's Runner has them.

package acp

import (
	"context"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"harness/prompts"
)

// compacter is the part of *rlm.Runner /compact and /context need.
type compacter interface {
	Compact(ctx context.Context, focus string) error
	ContextReport() string
}

// contextCommands are the commands compacter answers, for the editor's list.
var contextCommands = []sdk.AvailableCommand{
	{Name: "compact", Description: "summarise the earlier turns now, to make room in the model's context",
		Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "[focus]"}}},
	{Name: "context", Description: "show what the next request holds: system, tools, each turn and summary with its tokens"},
}

// contextCommand runs "/compact [focus]" or "/context" when text is one
// and the Runner has them; ok is false otherwise. It holds the turn as a
// prompt does, and answers with a message the editor shows.
func (s *session) contextCommand(ctx context.Context, text string) (resp sdk.PromptResponse, ok bool, err error) {
	c, has := s.agent.Runner.(compacter)
	name, args, isCmd := prompts.Split(text)
	if !has || !isCmd || (name != "compact" && name != "context") {
		return sdk.PromptResponse{}, false, nil
	}
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, true, nil
	case <-s.closing:
		return sdk.PromptResponse{}, true, errClosed
	}
	defer func() { <-s.turn }()
	if name == "context" {
		s.send(message(c.ContextReport(), nil))
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, true, nil
	}
	cerr := c.Compact(ctx, strings.TrimSpace(args))
	s.flush() // the compaction's thought first
	answer := "Compacted: the earlier turns are summarised in the requests; the session file keeps them."
	if cerr != nil {
		answer = "/compact: " + cerr.Error()
	}
	s.send(message(answer, nil))
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, true, nil
}
