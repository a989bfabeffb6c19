// Conversation file types and their strict JSON encoding.

package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"harness/llm"
)

// Item is one element of a conversation's messages array: a provider
// message, or (Hidden true) one of harness's own elements: the marker that
// hides the turn before it, or (Compaction set) a compaction entry.
type Item struct {
	Message llm.Message
	Hidden  bool // a {"_harness_local":{"hidden":true}} marker or an entry; Message is empty
	// By says who hid the turn before a marker: "" the person (the
	// context overlay), HiddenByCompaction or HiddenByRefusal.
	By string
	// Compaction is set for a compaction entry (compaction.go).
	Compaction *Compaction
}

// Local is the top-level _harness_local object.
type Local struct {
	Repository     string          // canonical launch directory
	Depth          int             // 0 for the root
	Parent         string          // "root" at depth 1, the parent's rlm call ID deeper, "" for the root
	TurnTokenCache []llm.TurnCount // root only
}

// File is one conversation file.
type File struct {
	Items []Item
	Local Local
}

// Messages returns the conversation's messages without markers, hidden
// turns included.
func (f *File) Messages() []llm.Message {
	out := make([]llm.Message, 0, len(f.Items))
	for _, it := range f.Items {
		if !it.Hidden {
			out = append(out, it.Message)
		}
	}
	return out
}

// Append adds messages at the end of the conversation.
func (f *File) Append(msgs ...llm.Message) {
	for _, m := range msgs {
		f.Items = append(f.Items, Item{Message: m})
	}
}

// RootParent is the parent of a depth-1 subagent.
const RootParent = "root"

type localJSON struct {
	Repository     *string          `json:"repository"`
	Depth          *int             `json:"depth"`
	Parent         *string          `json:"parent,omitempty"`
	TurnTokenCache *[]llm.TurnCount `json:"turn_token_cache,omitempty"`
}

// Encode writes f in the file format, one message per line.
func (f *File) Encode(w io.Writer) error {
	if err := f.Local.check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString("{\"messages\":[\n")
	for i, it := range f.Items {
		if i > 0 {
			bw.WriteString(",\n")
		}
		if it.Hidden {
			if err := writeLocalItem(bw, it); err != nil {
				return fmt.Errorf("encode item %d: %w", i, err)
			}
			continue
		}
		if _, ok := it.Message.Get(localKey); ok {
			return fmt.Errorf("message %d carries %s, which is never sent to a provider", i, localKey)
		}
		if err := writeMessage(bw, it.Message); err != nil {
			return fmt.Errorf("encode message %d: %w", i, err)
		}
	}
	bw.WriteString("\n],\"_harness_local\":")
	l := f.Local
	lj := localJSON{Repository: &l.Repository, Depth: &l.Depth}
	if l.Depth == 0 {
		cache := l.TurnTokenCache
		if cache == nil {
			cache = []llm.TurnCount{}
		}
		lj.TurnTokenCache = &cache
	} else {
		lj.Parent = &l.Parent
	}
	b, err := json.Marshal(lj)
	if err != nil {
		return err
	}
	bw.Write(b)
	bw.WriteString("}\n")
	return bw.Flush()
}

const localKey = "_harness_local"

func (l Local) check() error {
	switch {
	case l.Repository == "":
		return errors.New("_harness_local: repository is empty")
	case l.Depth < 0:
		return fmt.Errorf("_harness_local: depth %d is negative", l.Depth)
	case l.Depth == 0 && l.Parent != "":
		return errors.New("_harness_local: the root (depth 0) has no parent")
	case l.Depth > 0 && l.Parent == "":
		return fmt.Errorf("_harness_local: a subagent (depth %d) needs a parent", l.Depth)
	case l.Depth == 1 && l.Parent != RootParent:
		return fmt.Errorf("_harness_local: a depth-1 subagent's parent is %q, not %q", RootParent, l.Parent)
	case l.Depth > 0 && len(l.TurnTokenCache) > 0:
		return errors.New("_harness_local: turn_token_cache belongs to the root only")
	}
	return nil
}

// Decode parses a conversation file. Errors give the line and the field;
// Load adds the file name.
func Decode(data []byte) (*File, error) {
	s := &scanner{data: data}
	f := &File{}
	var sawMessages, sawLocal bool
	err := s.object(func(key string) error {
		switch key {
		case "messages":
			if sawMessages {
				return errors.New(`duplicate field "messages"`)
			}
			sawMessages = true
			return s.array(func() error {
				start := s.pos
				it, err := s.item()
				if err != nil {
					if le, ok := err.(*lineErr); ok {
						return le
					}
					return s.errAt(start, "message %d: %v", len(f.Items)+1, err)
				}
				f.Items = append(f.Items, it)
				return nil
			})
		case localKey:
			if sawLocal {
				return errors.New(`duplicate field "_harness_local"`)
			}
			sawLocal = true
			start := s.pos
			raw, err := s.value()
			if err != nil {
				return err
			}
			if f.Local, err = decodeLocal(raw); err != nil {
				return s.errAt(start, "%v", err)
			}
			return nil
		}
		return fmt.Errorf("unknown field %q in the top-level object (only messages and _harness_local are allowed)", key)
	})
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return nil, err
	}
	if !sawMessages {
		return nil, errors.New(`missing field "messages"`)
	}
	if !sawLocal {
		return nil, errors.New(`missing field "_harness_local"`)
	}
	return f, nil
}

// item decodes the element at the scanner's position: a marker or a message.
func (s *scanner) item() (Item, error) {
	if s.peek() != '{' {
		_, err := s.value()
		if err == nil {
			err = errors.New("expected a JSON object")
		}
		return Item{}, err
	}
	rest := bytes.TrimLeft(s.data[s.pos+1:], " \t\r\n")
	if !bytes.HasPrefix(rest, []byte(`"`+localKey+`"`)) {
		m, err := s.message()
		if err != nil {
			return Item{}, err
		}
		return checkMessage(m)
	}
	raw, err := s.value()
	if err != nil {
		return Item{}, err
	}
	return decodeItem(raw)
}

func decodeItem(raw []byte) (Item, error) {
	if isMarker(raw) {
		return decodeLocalItem(raw)
	}
	m, err := decodeMessage(raw)
	if err != nil {
		return Item{}, err
	}
	return checkMessage(m)
}

// checkMessage refuses messages that are not conversation messages.
func checkMessage(m llm.Message) (Item, error) {
	if _, ok := m.Get(localKey); ok {
		return Item{}, fmt.Errorf("field %q inside a message (a marker must have no other field)", localKey)
	}
	switch m.Role {
	case "user", "assistant", "tool":
	case "":
		return Item{}, errors.New(`missing field "role"`)
	case "system":
		return Item{}, errors.New(`role "system": the system message is never saved; remove this message`)
	default:
		return Item{}, fmt.Errorf("unknown role %q (want user, assistant or tool)", m.Role)
	}
	return Item{Message: m}, nil
}

// isMarker reports whether raw is an object whose first member is _harness_local.
func isMarker(raw []byte) bool {
	t := bytes.TrimLeft(raw[1:], " \t\r\n")
	return raw[0] == '{' && bytes.HasPrefix(t, []byte(`"_harness_local"`))
}

func decodeLocal(raw []byte) (Local, error) {
	var lj localJSON
	if err := strictUnmarshal(raw, &lj); err != nil {
		return Local{}, fmt.Errorf("_harness_local: %v", err)
	}
	if lj.Repository == nil {
		return Local{}, errors.New(`_harness_local: missing field "repository"`)
	}
	if lj.Depth == nil {
		return Local{}, errors.New(`_harness_local: missing field "depth"`)
	}
	l := Local{Repository: *lj.Repository, Depth: *lj.Depth}
	if lj.Parent != nil {
		if l.Depth == 0 {
			return Local{}, errors.New(`_harness_local: field "parent" is not allowed in the root's file`)
		}
		l.Parent = *lj.Parent
	}
	if lj.TurnTokenCache != nil {
		if l.Depth != 0 {
			return Local{}, errors.New(`_harness_local: field "turn_token_cache" is allowed only in the root's file`)
		}
		l.TurnTokenCache = *lj.TurnTokenCache
	}
	if l.Depth > 0 && lj.Parent == nil {
		return Local{}, errors.New(`_harness_local: missing field "parent" (required for a subagent)`)
	}
	if err := l.check(); err != nil {
		return Local{}, err
	}
	return l, nil
}

func strictUnmarshal(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("extra data after the object")
	}
	return nil
}
