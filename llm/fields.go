// Ordered, merging field sets used to accumulate streamed message members.

package llm

import (
	"bytes"
	"encoding/json"
	"sort"
)

// mergeField is one member being accumulated across stream chunks.
//
// Merge rules (documented in the package doc):
//   - a string value is appended to the text received so far when the field
//     concatenates, and replaces it otherwise;
//   - null never overwrites a string already received (servers send null to
//     mean "no fragment in this chunk"), nor does any other value once a
//     concatenating field holds text;
//   - otherwise any other value (number, bool, object, array) replaces the
//     field.
type mergeField struct {
	key     string
	isStr   bool
	str     []byte
	raw     []byte
	details *detailsAcc // non-nil for reasoning_details
	seq     int         // placement order; 0 while unplaced
}

// fieldSet keeps fields in the order they were placed.
type fieldSet struct {
	list []*mergeField
	next int
}

func (s *fieldSet) get(key string) *mergeField {
	for _, f := range s.list {
		if f.key == key {
			return f
		}
	}
	return nil
}

func (s *fieldSet) lookup(key string) *mergeField {
	if f := s.get(key); f != nil {
		return f
	}
	f := &mergeField{key: key}
	s.list = append(s.list, f)
	return f
}

// place gives f its position in the output order if it has none yet.
func (s *fieldSet) place(f *mergeField) {
	if f.seq == 0 {
		s.next++
		f.seq = s.next
	}
}

// merge applies one received value to the field key and places it unless
// deferEmpty is set and the field holds no text yet. It returns the field
// and the decoded string fragment when val was a string.
func (s *fieldSet) merge(key string, val []byte, concat, deferEmpty bool) (*mergeField, []byte) {
	f := s.lookup(key)
	var frag []byte
	switch {
	case len(val) > 0 && val[0] == '"':
		base := f.str
		if !concat || !f.isStr {
			base = f.str[:0]
		}
		n := len(base)
		out, ok := appendStringValue(base, val)
		if !ok {
			break // a string with a bad escape: ignored
		}
		f.str, f.isStr = out, true
		frag = f.str[n:]
	case isNull(val) && f.isStr:
	case concat && f.isStr && len(f.str) > 0:
		// Text already received (and shown, for reasoning) stays: a later
		// value of another type is a provider glitch, not a replacement.
	case !json.Valid(val):
		// Not JSON after all: never store it, so requests stay valid.
	default:
		f.isStr = false
		f.raw = append(f.raw[:0], val...)
	}
	if !deferEmpty || (f.isStr && len(f.str) > 0) || (!f.isStr && !isNull(f.raw)) {
		s.place(f)
	}
	return f, frag
}

// fields returns the accumulated members in placement order; fields never
// placed (reasoning fields that stayed empty) come last, and fields that
// never received a valid value are left out.
func (s *fieldSet) fields() []Field {
	if len(s.list) == 0 {
		return nil
	}
	list := append([]*mergeField(nil), s.list...)
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].seq, list[j].seq
		if a == 0 || b == 0 {
			return a != 0 && b == 0
		}
		return a < b
	})
	out := make([]Field, 0, len(list))
	for _, f := range list {
		if !f.isStr && len(f.raw) == 0 && f.details == nil {
			continue // it never received a valid value
		}
		out = append(out, Field{f.key, f.value()})
	}
	return out
}

func (f *mergeField) value() json.RawMessage {
	switch {
	case f.details != nil:
		return f.details.value()
	case f.isStr:
		return encodeString(f.str)
	case len(f.raw) == 0:
		return json.RawMessage("null")
	}
	return append(json.RawMessage(nil), f.raw...)
}

// encodeString returns s as a JSON string without HTML escaping.
func encodeString(s []byte) json.RawMessage { return mustJSON(string(s)) }

// detailsAcc merges reasoning_details arrays: an entry with an "index"
// member merges into the earlier entry of the same index (and same type,
// when both have one); other entries are appended. Within an entry, text,
// summary, data and signature concatenate; other members keep the last
// value. The result is always a JSON array.
type detailsAcc struct {
	entries []*detailEntry
	byIndex map[int]*detailEntry
}

type detailEntry struct {
	typ    string
	fields fieldSet
	raw    []byte // a non-object element, kept as is
}

// merge adds the elements of arr and returns their readable text.
func (d *detailsAcc) merge(arr []byte) []byte {
	var text []byte
	eachElement(arr, func(el []byte) error {
		var index = -1
		var typ string
		if eachMember(el, func(k, v []byte) error {
			switch string(k) {
			case "index":
				if n, ok := intValue(v); ok {
					index = n
				}
			case "type":
				typ, _ = stringValue(v)
			}
			return nil
		}) != nil {
			if json.Valid(el) {
				d.entries = append(d.entries, &detailEntry{raw: append([]byte(nil), el...)})
			}
			return nil
		}
		e := d.byIndex[index]
		if index < 0 || e == nil || (typ != "" && e.typ != "" && typ != e.typ) {
			e = &detailEntry{typ: typ}
			d.entries = append(d.entries, e)
			if index >= 0 {
				if d.byIndex == nil {
					d.byIndex = map[int]*detailEntry{}
				}
				d.byIndex[index] = e
			}
		}
		if e.typ == "" {
			e.typ = typ
		}
		eachMember(el, func(k, v []byte) error {
			key := memberKey(k)
			concat := key == "text" || key == "summary" || key == "data" || key == "signature"
			_, frag := e.fields.merge(key, v, concat, false)
			if key == "text" || key == "summary" {
				text = append(text, frag...)
			}
			return nil
		})
		return nil
	})
	return text
}

func (d *detailsAcc) value() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range d.entries {
		if i > 0 {
			b.WriteByte(',')
		}
		if e.raw != nil {
			b.Write(e.raw)
			continue
		}
		b.WriteByte('{')
		for j, f := range e.fields.fields() {
			writeMember(&b, f.Key, f.Value, j == 0)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.Bytes()
}
