// Failures as the person and the caller see them: explained and redacted;
// replies cut at the token limit.

package rlm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"harness/llm"
)

// failure is an error with the message shown and returned for it: the
// error's text, or advice for a context too long, with secrets redacted.
type failure struct {
	msg string
	err error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.err }

// failure explains and redacts err.
func (a *agent) failure(err error) error {
	var f *failure
	if errors.As(err, &f) {
		return err
	}
	msg := err.Error()
	if llm.ContextExceeded(err) {
		msg = a.contextAdvice(err)
	}
	return &failure{msg: a.r.opts.Redactor.String(msg), err: err}
}

// DefaultRoomAdvice says how to make room in the root's conversation in
// the UI (Options.RoomAdvice replaces it for other front ends).
const DefaultRoomAdvice = "hide earlier turns in the context overlay (click a turn), or start a new session with /new"

// contextAdvice is the message for a request longer than the model's
// context: how big the conversation is (as the context overlay counts it)
// and how to make room; for a subagent, that its caller should split the
// task.
func (a *agent) contextAdvice(err error) string {
	n, est := a.turnTokens()
	size := "about " + groupDigits(n) + " tokens (the context overlay's count"
	if est {
		size += ", estimated"
	}
	size += ")"
	said := strings.TrimRight(serverSaid(err), ". ") // a full stop follows
	if a.depth > 0 {
		return fmt.Sprintf("this subagent's conversation no longer fits the model's context: it is %s and the server %s. Split the task into smaller rlm calls, each with less to read or write", size, said)
	}
	advice := DefaultRoomAdvice
	if a.r.opts.RoomAdvice != nil {
		advice = a.r.opts.RoomAdvice(a.r.opts.Session.Name())
	}
	return fmt.Sprintf("the conversation no longer fits the model's context: it is %s and the server %s. To make room, %s", size, said, advice)
}

// serverSaid is what the server answered, without the URL and advice.
func serverSaid(err error) string {
	var se *llm.StatusError
	var pe *llm.ProviderError
	switch {
	case errors.As(err, &se):
		return se.Reason()
	case errors.As(err, &pe):
		return "answered: " + pe.Error()
	}
	return "answered: " + err.Error()
}

// groupDigits writes n with thousands separators: 140,213.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// lengthNotice is the note for a reply that finished with finish_reason
// "length", naming the token limit that cut it.
func (a *agent) lengthNotice() string {
	params := a.r.opts.Config.Endpoint.Parameters
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if v, ok := params[k]; ok {
			return fmt.Sprintf("The reply was cut at the token limit ([endpoint.parameters] %s = %v): raise it, or ask for a shorter answer.", k, v)
		}
	}
	return "The reply was cut at the server's token limit: set [endpoint.parameters] max_tokens to raise it, or ask for a shorter answer."
}

// filterNotice and filterMarker are lengthNotice and lengthMarker for a
// reply the server's content filter stopped (finish_reason
// "content_filter"), which may be empty.
const (
	filterNotice = "The server's content filter stopped the reply: rephrase the request, or check the server's moderation settings."
	filterMarker = "[answer stopped by the server's content filter: the rest of it is missing]"
)

// lengthMarker ends the result of a subagent whose answer was cut at the
// token limit.
func (a *agent) lengthMarker() string {
	params := a.r.opts.Config.Endpoint.Parameters
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if v, ok := params[k]; ok {
			return fmt.Sprintf("[answer cut at the token limit ([endpoint.parameters] %s = %v): the rest of it is missing]", k, v)
		}
	}
	return "[answer cut at the server's token limit: the rest of it is missing]"
}
