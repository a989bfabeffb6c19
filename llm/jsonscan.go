// A small allocation-free walker over JSON text.

package llm

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The stream parser checks each chunk's structure with wellFormed and then
// walks it with these helpers, which keep every member's raw bytes (so
// unknown fields go back unchanged) without building maps or reflecting into
// structs. Full validation happens where a value is used: strings with
// escapes and numbers are decoded strictly, and a raw value is validated
// with json.Valid before it is stored. The helpers bounds-check so that bad
// input can never panic.

var errScan = errors.New("malformed JSON")

func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string starting at data[i] == '"'.
func skipString(data []byte, i int) (int, error) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errScan
}

// skipValue returns the offset just past the value starting at data[i].
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errScan
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				end, err := skipString(data, i)
				if err != nil {
					return 0, err
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errScan
	default:
		for ; i < len(data); i++ {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i, nil
			}
		}
		return i, nil
	}
}

// wellFormed reports whether data is one complete JSON object or array
// (brackets balanced, strings closed), followed only by whitespace. It is
// the cheap test that tells a whole chunk from a truncated one.
func wellFormed(data []byte) bool {
	i := skipWS(data, 0)
	if i >= len(data) || (data[i] != '{' && data[i] != '[') {
		return false
	}
	end, err := skipValue(data, i)
	return err == nil && skipWS(data, end) == len(data)
}

// eachMember calls fn with each member of the object obj: the key as raw
// string contents (without quotes, escapes not decoded) and the raw value.
// It returns errScan when obj is not an object.
func eachMember(obj []byte, fn func(key, val []byte) error) error {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errScan
	}
	i = skipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return errScan
		}
		end, err := skipString(obj, i)
		if err != nil {
			return err
		}
		key := obj[i+1 : end-1]
		i = skipWS(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return errScan
		}
		i = skipWS(obj, i+1)
		vend, err := skipValue(obj, i)
		if err != nil {
			return err
		}
		if err := fn(key, obj[i:vend]); err != nil {
			return err
		}
		i = skipWS(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
			continue
		}
		if i < len(obj) && obj[i] == '}' {
			return nil
		}
		return errScan
	}
	return errScan
}

// eachElement calls fn with each raw element of the array arr.
func eachElement(arr []byte, fn func(val []byte) error) error {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return errScan
	}
	i = skipWS(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for i < len(arr) {
		end, err := skipValue(arr, i)
		if err != nil {
			return err
		}
		if err := fn(arr[i:end]); err != nil {
			return err
		}
		i = skipWS(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipWS(arr, i+1)
			continue
		}
		if i < len(arr) && arr[i] == ']' {
			return nil
		}
		return errScan
	}
	return errScan
}

// memberKey returns the decoded form of a raw key, as valid UTF-8.
func memberKey(raw []byte) string {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
				return s
			}
			return strings.ToValidUTF8(string(raw), "\uFFFD")
		}
	}
	return string(raw)
}

// appendStringValue appends the decoded contents of the JSON string val to
// dst. ok is false when val is not a string (null, number, object, …).
func appendStringValue(dst, val []byte) (out []byte, ok bool) {
	if len(val) < 2 || val[0] != '"' {
		return dst, false
	}
	inner := val[1 : len(val)-1]
	simple := true
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			simple = false
			break
		}
	}
	if simple {
		return append(dst, inner...), true
	}
	var s string
	if json.Unmarshal(val, &s) != nil {
		return dst, false
	}
	return append(dst, s...), true
}

// stringValue decodes a JSON string; ok is false for any other value.
func stringValue(val []byte) (string, bool) {
	b, ok := appendStringValue(nil, val)
	return string(b), ok
}

// intValue decodes a JSON integer.
func intValue(val []byte) (int, bool) {
	n, err := strconv.Atoi(string(val))
	return n, err == nil
}

func isNull(val []byte) bool { return string(val) == "null" }
