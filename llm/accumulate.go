// Accumulating stream chunks into one assistant message, with live deltas.

package llm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// DeltaKind says what a Delta carries.
type DeltaKind int

const (
	// DeltaReasoning is a fragment of readable reasoning (Text), shown once
	// even when the provider repeats it under several field names.
	DeltaReasoning DeltaKind = iota
	// DeltaContent is a fragment of the answer text (Text).
	DeltaContent
	// DeltaToolCall says a tool call started: Index is its position in the
	// message's ToolCalls, ID the call ID it will be saved with, Name its
	// function name. It is sent again for the same Index if the name
	// arrives after the first fragment.
	DeltaToolCall
	// DeltaToolArgs is a fragment (Text) of the arguments of call Index.
	DeltaToolArgs
	// DeltaRetry says the attempt failed and is sent again after
	// Retry.Delay: every delta before it is void (nothing of the failed
	// attempt is returned), and the new attempt's deltas follow.
	DeltaRetry
)

// String names the kind, for tests and logs.
func (k DeltaKind) String() string {
	switch k {
	case DeltaReasoning:
		return "reasoning"
	case DeltaContent:
		return "content"
	case DeltaToolCall:
		return "tool_call"
	case DeltaToolArgs:
		return "tool_args"
	case DeltaRetry:
		return "retry"
	}
	return fmt.Sprintf("DeltaKind(%d)", int(k))
}

// Delta is one fragment of a streamed reply, passed to the Stream callback
// as soon as its line has been read.
type Delta struct {
	Kind  DeltaKind
	Index int
	ID    string
	Name  string
	Text  string
	Retry *Retry // DeltaRetry only
}

// accumulator builds the assistant message from chunks.
type accumulator struct {
	onDelta   func(Delta)
	role      string
	content   []byte
	extra     fieldSet
	calls     []*callAcc
	callAt    map[int]int // provider index → position in calls
	finish    string
	usage     *Usage
	view      reasoningView
	chunks    int
	replies   int    // chunks with "choices" or an error: what a reply is made of
	done      bool   // response was built and owed reasoning sent
	inMessage bool   // reading a complete message, not a delta
	secret    string // the API key, removed from quoted error text
}

type callAcc struct {
	id, providerID, name string
	args                 []byte
	extra                fieldSet
}

func newAccumulator(onDelta func(Delta)) *accumulator {
	if onDelta == nil {
		onDelta = func(Delta) {}
	}
	return &accumulator{onDelta: onDelta, callAt: map[int]int{}}
}

// chunk applies one parsed data payload (a chat.completion.chunk, or a whole
// chat.completion). It returns a *ProviderError for an error object.
func (a *accumulator) chunk(data []byte) error {
	a.chunks++
	var perr error
	err := eachMember(data, func(k, v []byte) error {
		switch string(k) {
		case "choices":
			a.replies++
			if isNull(v) {
				return nil
			}
			return eachElement(v, a.choice)
		case "usage":
			a.setUsage(v)
		case "x_groq":
			eachMember(v, func(k, v []byte) error {
				if string(k) == "usage" {
					a.setUsage(v)
				}
				return nil
			})
		case "error":
			if !isNull(v) {
				perr = a.providerError(v)
			}
		case "object":
			if string(v) == `"error"` && perr == nil {
				perr = a.providerError(data) // vLLM's error model as the whole chunk
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return perr
}

// providerError decodes an error object, without the API key.
func (a *accumulator) providerError(raw []byte) *ProviderError {
	return providerError(a.scrub(raw))
}

// scrub replaces the API key in text the endpoint sent, before it is
// quoted (and cut) in an error.
func (a *accumulator) scrub(b []byte) []byte {
	return scrubKey(b, a.secret)
}

func (a *accumulator) setUsage(v []byte) {
	if isNull(v) {
		return
	}
	var u Usage
	if json.Unmarshal(v, &u) == nil {
		a.usage = &u
	}
}

func (a *accumulator) choice(c []byte) error {
	if isNull(c) {
		return nil
	}
	var delta, finish []byte
	index := 0
	err := eachMember(c, func(k, v []byte) error {
		switch string(k) {
		case "index":
			index, _ = intValue(v)
		case "delta":
			delta = v
		case "message":
			delta, a.inMessage = v, true // a complete message: each call is whole
		case "finish_reason":
			finish = v
		}
		return nil
	})
	if err != nil || index != 0 {
		return err
	}
	if len(delta) > 0 && !isNull(delta) {
		if err := eachMember(delta, a.member); err != nil {
			return err
		}
	}
	if s, ok := stringValue(finish); ok && s != "" {
		a.finish = s
	}
	return nil
}

// member applies one member of a delta.
func (a *accumulator) member(k, v []byte) error {
	switch string(k) {
	case "role":
		if s, ok := stringValue(v); ok && s != "" {
			a.role = s
		}
	case "content":
		n := len(a.content)
		if len(v) > 0 && v[0] == '[' {
			a.contentParts(v)
		} else {
			a.content, _ = appendStringValue(a.content, v)
		}
		if len(a.content) > n {
			a.onDelta(Delta{Kind: DeltaContent, Text: string(a.content[n:])})
		}
	case "tool_calls":
		if !isNull(v) {
			return eachElement(v, a.toolCall)
		}
	case "reasoning_details":
		if len(v) == 0 || v[0] != '[' {
			a.extra.merge("reasoning_details", v, false, true)
			break
		}
		f := a.extra.lookup("reasoning_details")
		if f.details == nil {
			f.details = &detailsAcc{}
		}
		a.reason("reasoning_details", f.details.merge(v))
		if len(f.details.entries) > 0 {
			a.extra.place(f)
		}
	default:
		key := memberKey(k)
		reasoning := key == "reasoning_content" || key == "reasoning"
		_, frag := a.extra.merge(key, v, true, reasoning)
		if reasoning {
			a.reason(key, frag)
		}
	}
	return nil
}

// contentParts appends the text parts of a content array (other part types
// have no place in a string content and are dropped).
func (a *accumulator) contentParts(arr []byte) {
	eachElement(arr, func(el []byte) error {
		var typ, text []byte
		eachMember(el, func(k, v []byte) error {
			switch string(k) {
			case "type":
				typ = v
			case "text":
				text = v
			}
			return nil
		})
		if string(typ) == `"text"` {
			a.content, _ = appendStringValue(a.content, text)
		}
		return nil
	})
}

func (a *accumulator) reason(key string, frag []byte) {
	if out := a.view.add(key, frag); len(out) > 0 {
		a.onDelta(Delta{Kind: DeltaReasoning, Text: string(out)})
	}
}

// fragment is one parsed tool-call fragment.
type fragment struct {
	index    int // -1 when absent
	id, name string
	args     []byte
}

func parseFragment(frag []byte) (f fragment, err error) {
	f.index = -1
	var fn []byte
	err = eachMember(frag, func(k, v []byte) error {
		switch string(k) {
		case "index":
			if n, ok := intValue(v); ok {
				f.index = n
			}
		case "id":
			f.id, _ = stringValue(v)
		case "function":
			fn = v
		}
		return nil
	})
	if err != nil || len(fn) == 0 || isNull(fn) {
		return f, err
	}
	eachMember(fn, func(k, v []byte) error {
		switch string(k) {
		case "name":
			f.name, _ = stringValue(v)
		case "arguments":
			var ok bool
			if f.args, ok = appendStringValue(nil, v); !ok && !isNull(v) && json.Valid(v) {
				f.args = v // an object instead of its JSON text
			}
		}
		return nil
	})
	return f, nil
}

// toolCall merges one tool-call fragment. Fragments are matched by index; a
// fragment without index continues the last call unless it carries a new
// id or starts a call (see startsCall); a fragment whose id differs from the
// call at its index starts a new call (servers that send each parallel call
// whole with index 0). A fragment whose arguments are exactly the call's
// complete arguments is a repeat of the whole call and adds nothing.
func (a *accumulator) toolCall(raw []byte) error {
	if isNull(raw) {
		return nil
	}
	f, err := parseFragment(raw)
	if err != nil {
		return err
	}
	if a.inMessage || (f.index == -1 && f.id == "" && a.startsCall(f)) {
		f.index = -2 - len(a.calls) // never continues an earlier call
	}
	c, pos, created := a.findCall(f.index, f.id)
	if created || (c.name == "" && f.name != "") {
		if c.name == "" {
			c.name = f.name
		}
		a.onDelta(Delta{Kind: DeltaToolCall, Index: pos, ID: c.id, Name: c.name})
	}
	if !created && repeats(c, f.args) {
		f.args = nil // the whole call sent again at the end: not new text
	}
	if len(f.args) > 0 {
		c.args = append(c.args, f.args...)
		a.onDelta(Delta{Kind: DeltaToolArgs, Index: pos, Text: string(f.args)})
	}
	return eachMember(raw, func(k, v []byte) error {
		switch string(k) {
		case "index", "id", "type", "function":
		default:
			c.extra.merge(memberKey(k), v, false, false)
		}
		return nil
	})
}

// repeats reports whether args are exactly the complete arguments of c:
// appending them could only break the JSON.
func repeats(c *callAcc, args []byte) bool {
	return len(args) > 0 && string(args) == string(c.args) && json.Valid(args)
}

// startsCall reports whether a fragment with neither index nor id is the
// start of a new call rather than more of the last one: it names a function
// while the last call is named and its arguments are whole, and it is
// neither a mere repeat of the name without arguments nor a repeat of the
// whole last call.
func (a *accumulator) startsCall(f fragment) bool {
	if f.name == "" || len(a.calls) == 0 {
		return false
	}
	last := a.calls[len(a.calls)-1]
	if last.name == "" || !json.Valid(last.args) {
		return false
	}
	if f.name == last.name && (len(f.args) == 0 || repeats(last, f.args)) {
		return false
	}
	return true
}

func (a *accumulator) findCall(index int, id string) (c *callAcc, pos int, created bool) {
	pos, ok := a.callAt[index]
	if index == -1 && len(a.calls) > 0 {
		pos, ok = len(a.calls)-1, true
	}
	if ok && (id == "" || a.calls[pos].providerID == "" || a.calls[pos].providerID == id) {
		c = a.calls[pos]
		if c.providerID == "" {
			c.providerID = id
		}
		return c, pos, false
	}
	c = &callAcc{id: NewCallID(), providerID: id}
	a.calls = append(a.calls, c)
	pos = len(a.calls) - 1
	a.callAt[index] = pos
	return c, pos, true
}

// response returns what was accumulated so far as a Response, and sends the
// reasoning still owed to the callback so that the concatenated
// DeltaReasoning texts equal the message's Reasoning().
func (a *accumulator) response() Response {
	m := Message{Role: a.role, Content: string(a.content), Extra: a.extra.fields()}
	if m.Role == "" {
		m.Role = "assistant"
	}
	for i, c := range a.calls {
		if a.finish == "length" && !complete(c, i == len(a.calls)-1) {
			continue
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{
			ID: c.id, Name: c.name, Arguments: string(c.args), Extra: c.extra.fields(),
		})
	}
	if !a.done {
		a.done = true
		shown := a.view.shown()
		if full := m.Reasoning(); len(full) > len(shown) && strings.HasPrefix(full, shown) {
			a.onDelta(Delta{Kind: DeltaReasoning, Text: full[len(shown):]})
		}
	}
	return Response{Message: m, Usage: a.usage, FinishReason: a.finish}
}

// complete reports whether a call survived a "length" finish: it has a name
// and its arguments are whole JSON (empty arguments only count as whole on
// a call that is not the last one).
func complete(c *callAcc, last bool) bool {
	if c.name == "" {
		return false
	}
	if len(c.args) == 0 {
		return !last
	}
	return json.Valid(c.args)
}

// reasoningView decides which reasoning text is shown live. The first
// source (reasoning_content, reasoning, or the text of reasoning_details)
// to carry text leads; another source whose text is a prefix of the
// leader's shows nothing, and one that extends it becomes the leader and
// shows only the extension. A source that disagrees is not shown live; its
// text is sent once at the end when Reasoning() puts it after the live
// text (joined by a newline).
type reasoningView struct {
	srcs   []*reasonSrc
	leader *reasonSrc
}

type reasonSrc struct {
	key  string
	text []byte
	out  bool
}

func (v *reasoningView) add(key string, frag []byte) []byte {
	if len(frag) == 0 {
		return nil
	}
	var src *reasonSrc
	for _, s := range v.srcs {
		if s.key == key {
			src = s
		}
	}
	if src == nil {
		src = &reasonSrc{key: key}
		v.srcs = append(v.srcs, src)
	}
	old := len(src.text)
	src.text = append(src.text, frag...)
	switch {
	case src.out:
		return nil
	case v.leader == nil || src == v.leader:
		v.leader = src
		return frag
	}
	lead := v.leader.text
	if len(src.text) <= len(lead) {
		if string(src.text[old:]) != string(lead[old:len(src.text)]) {
			src.out = true
		}
		return nil
	}
	if old < len(lead) && string(src.text[old:len(lead)]) != string(lead[old:]) {
		src.out = true
		return nil
	}
	v.leader = src
	return src.text[len(lead):]
}

func (v *reasoningView) shown() string {
	if v.leader == nil {
		return ""
	}
	return string(v.leader.text)
}
