// Slash commands: /init and the prompt files, offered to the editor as
// available_commands_update and expanded in prompts, then /compact and
// /context (compact.go).

package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"harness/prompts"
)

// commandsUpdate lists set's commands for the editor: the name without its
// slash, the description (a repository's prompt marked), and an input hint
// for a command that takes arguments.
func commandsUpdate(set *prompts.Set, context bool) sdk.SessionUpdate {
	cmds := []sdk.AvailableCommand{}
	for _, c := range set.Commands() {
		ac := sdk.AvailableCommand{Name: c.Name, Description: c.Description}
		if c.Repository {
			ac.Description += " (repository)"
		}
		if c.Args != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: c.Args}}
		}
		cmds = append(cmds, ac)
	}
	if context {
		cmds = append(cmds, contextCommands...)
	}
	return sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}}
}

// announceCommands tells the editor the session's commands and logs the
// prompt files that did not become one. A new session's list follows the
// session/new answer (an editor knows the session only from it); a loaded
// one's is sent at once, as its history is.
func (a *server) announceCommands(s *session, isNew bool) {
	set := s.agent.Commands
	_, context := s.agent.Runner.(compacter)
	if set == nil && !context {
		return
	}
	if set != nil {
		for _, p := range set.Problems {
			a.log("session %s: %s", s.id, p)
		}
	}
	u := commandsUpdate(set, context)
	if isNew && a.out != nil {
		a.out.After(func() { s.send(u) }, `"result":`, `"sessionId":"`+s.id+`"`)
		return
	}
	s.send(u)
}
