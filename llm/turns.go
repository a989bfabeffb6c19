// Splitting a conversation into turns and counting each turn's tokens.

package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"unsafe"
)

// SplitTurns groups msgs into turns: a user message and every message after
// it up to the next user message. Messages before the first user message
// form a turn of their own. The slices share msgs' backing array.
func SplitTurns(msgs []Message) [][]Message {
	var turns [][]Message
	start := 0
	for i, m := range msgs {
		if m.Role == "user" && i > start {
			turns = append(turns, msgs[start:i])
			start = i
		}
	}
	if start < len(msgs) {
		turns = append(turns, msgs[start:])
	}
	return turns
}

// compact returns the compact JSON of m.
func compact(m Message) []byte {
	raw := m.appendJSON(nil)
	if m.compactJSON() {
		return raw
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// appendCompact appends the compact JSON of m to b.
func appendCompact(b []byte, m Message) []byte {
	if m.compactJSON() {
		return m.appendJSON(b)
	}
	return append(b, compact(m)...)
}

// scratch holds buffers that a message's JSON is made in to be measured
// or hashed, and dropped: a session's turns are keyed and measured as it
// opens and after every turn, megabytes of JSON that need not be kept.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// turnSums returns turn's key (TurnKey) and the size of each of its
// messages' compact JSON, without keeping the JSON.
func turnSums(turn []Message) (string, []int) {
	buf := scratch.Get().(*[]byte)
	h := sha256.New()
	sizes := make([]int, len(turn))
	for i, m := range turn {
		*buf = appendCompact((*buf)[:0], m)
		h.Write(*buf)
		h.Write([]byte{'\n'})
		sizes[i] = len(*buf)
	}
	if cap(*buf) <= 1<<20 {
		scratch.Put(buf)
	}
	return hex.EncodeToString(h.Sum(nil)), sizes
}

// TurnKey identifies a turn's content: the SHA-256 of the compact JSON of
// its messages.
func TurnKey(turn []Message) string {
	key, _ := turnSums(turn)
	return key
}

func keyOf(texts [][]byte) string {
	h := sha256.New()
	for _, t := range texts {
		h.Write(t)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// EstimateTurn counts turn by the heuristic ceil(bytes/3.25): the turn's
// bytes are those of its messages as a compact JSON array, each message's
// those of its own compact JSON. The result is marked Estimated. Use it for
// the active turn.
func EstimateTurn(turn []Message) TurnCount {
	key, sizes := turnSums(turn)
	tc := EstimateSizes(sizes)
	tc.Key = key
	return tc
}

// MessageBytes is the size of m's compact JSON: what EstimateTurn counts
// a message by.
func MessageBytes(m Message) int {
	buf := scratch.Get().(*[]byte)
	*buf = appendCompact((*buf)[:0], m)
	n := len(*buf)
	if cap(*buf) <= 1<<20 {
		scratch.Put(buf)
	}
	return n
}

// EstimateSizes is EstimateTurn for a turn whose messages' MessageBytes
// are sizes, without the Key: a running turn's estimate grows with each
// message without encoding the earlier ones again.
func EstimateSizes(sizes []int) TurnCount {
	tc := TurnCount{Estimated: true, Messages: make([]int, len(sizes))}
	total := len("[]") + max(len(sizes)-1, 0) // brackets and commas
	for i, n := range sizes {
		tc.Messages[i] = EstimateBytes(n)
		total += n
	}
	tc.Tokens = EstimateBytes(total)
	return tc
}

func estimateTexts(texts [][]byte) TurnCount {
	sizes := make([]int, len(texts))
	for i, t := range texts {
		sizes[i] = len(t)
	}
	tc := EstimateSizes(sizes)
	tc.Key = keyOf(texts)
	return tc
}

// CountTurns returns the token count of each turn. A turn whose Key is in
// cache is reused without any request. The others are counted with t by
// progressive prefixes of the compact JSON array of the whole conversation:
// the text through message i is "[m0,m1,…,mi"; a message's count is the
// tokens through it minus the tokens through the message before, and a
// turn's count the sum of its messages'. The count through the turn
// before the first one counted is its cached Through when the turns up to
// it are those it was counted with (its Upto), and otherwise asked for, so
// that a turn added to a counted conversation costs one request per
// message it holds. When t is nil, or any prefix
// request of a turn fails, that turn is estimated (see EstimateTurn) and
// marked Estimated; an estimated turn is reused from the cache like any
// other. A turn estimated only because ctx ended, or because the server
// did not answer in time (which also estimates the rest of the pass
// without asking it again), has an empty Key, so it never matches the
// cache and is counted next time.
func CountTurns(ctx context.Context, t *Tokenizer, turns [][]Message, cache []TurnCount) []TurnCount {
	cached := make(map[string]TurnCount, len(cache))
	for _, c := range cache {
		cached[c.Key] = c
	}
	out := make([]TurnCount, len(turns))
	// The prefix is the whole conversation's JSON (megabytes for a long
	// one), needed only when a turn is counted with t: a first pass finds
	// whether one is and how long the prefix grows, so that when every
	// turn is in the cache (a session opened) it is never made, and
	// otherwise it is made once at its size rather than by doubling.
	size, count := 0, false
	keys, upto := make([]string, len(turns)), make([]string, len(turns))
	for k, turn := range turns {
		key, sizes := turnSums(turn)
		keys[k] = key
		upto[k] = uptoKey(upto, k, key)
		for _, n := range sizes {
			size += 1 + n
		}
		switch c, ok := cached[key]; {
		case ok:
			out[k] = c
		case t == nil:
			out[k] = EstimateSizes(sizes)
			out[k].Key = key
		default:
			count = true
		}
	}
	if !count {
		return out
	}
	// "[m0,…" through the end of the previous turn, each message's JSON
	// made in place: at its size, it is never moved, and a turn's texts
	// are pieces of it.
	prefix := make([]byte, 0, size)
	base, baseKnown := 0, true
	stalled := false
	for k, turn := range turns {
		key := keys[k]
		start := len(prefix)
		texts := make([][]byte, len(turn))
		for i, m := range turn {
			if len(prefix) == 0 {
				prefix = append(prefix, '[')
			} else {
				prefix = append(prefix, ',')
			}
			from := len(prefix)
			prefix = appendCompact(prefix, m)
			texts[i] = prefix[from:len(prefix):len(prefix)]
		}
		if c, ok := cached[key]; ok {
			out[k], baseKnown = c, false
			if c.Through > 0 && c.Upto == upto[k] && !c.Estimated {
				base, baseKnown = c.Through, true // what the turns through it count
			}
			continue
		}
		if t == nil {
			out[k], baseKnown = estimateTexts(texts), false
			if stalled {
				out[k].Key = ""
			}
			continue
		}
		tc, last, err := countTurn(ctx, t, prefix, start, texts, base, baseKnown)
		if err != nil {
			out[k], baseKnown = estimateTexts(texts), false
			if ctx.Err() != nil || timedOut(err) {
				out[k].Key = "" // cut short, not failed: count it next time
			}
			if timedOut(err) {
				t = nil // the server stopped answering: estimate the rest of this pass
				stalled = true
			}
			continue
		}
		tc.Key, tc.Through, tc.Upto = key, last, upto[k]
		out[k], base, baseKnown = tc, last, true
	}
	return out
}

// uptoKey is the Upto of turn k whose key is key, upto holding those of
// the turns before it: a hash of the keys of turns 0 through k.
func uptoKey(upto []string, k int, key string) string {
	h := sha256.New()
	if k > 0 {
		h.Write([]byte(upto[k-1]))
	}
	h.Write([]byte{'\n'})
	h.Write([]byte(key))
	return hex.EncodeToString(h.Sum(nil))
}

// prefixText is all[:n] as a string, without copying it: all is only
// appended to, after the requests that read it have returned, so the bytes
// the string shows never change (a long conversation's prefix is megabytes,
// and each of its messages is a request).
func prefixText(all []byte, n int) string {
	if n == 0 {
		return ""
	}
	return unsafe.String(&all[0], n)
}

// countTurn counts one turn whose messages' text in all starts at offset
// start. base is the count through the previous turn when baseKnown.
func countTurn(ctx context.Context, t *Tokenizer, all []byte, start int, texts [][]byte, base int, baseKnown bool) (TurnCount, int, error) {
	if !baseKnown {
		if start == 0 {
			base = 0
		} else {
			n, err := t.Count(ctx, prefixText(all, start))
			if err != nil {
				return TurnCount{}, 0, err
			}
			base = n
		}
	}
	tc := TurnCount{Messages: make([]int, len(texts))}
	prev, end := base, start
	for i, txt := range texts {
		end += 1 + len(txt) // the "[" or "," before it, then the message
		n, err := t.Count(ctx, prefixText(all, end))
		if err != nil {
			return TurnCount{}, 0, err
		}
		tc.Messages[i] = max(n-prev, 0)
		tc.Tokens += tc.Messages[i]
		prev = n
	}
	return tc, prev, nil
}

// timedOut reports whether a count failed because the server did not
// answer in time (the tokenizer's HTTP client timeout).
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
