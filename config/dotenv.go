// Parsing of $HARNESS_HOME/.env: private KEY=VALUE settings such as API keys.

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// loadDotenv reads path. A missing file is not an error: .env is optional.
func loadDotenv(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read: %v; fix its permissions or remove it", err), Err: err}
	}
	return parseDotenv(path, string(data))
}

// parseDotenv parses .env text. The format, one setting per line:
//
//	# a comment            blank lines and comment lines are ignored
//	KEY=value              unquoted: surrounding blanks and a " # comment" are dropped
//	export KEY=value       the shell's export prefix is allowed
//	KEY="a \"b\"\n"        double quotes: \n \t \r \" \\ and \$ are escapes
//	KEY='literal $x'       single quotes: taken as written
//
// Names are letters, digits and underscores, not starting with a digit. A
// later line for the same name replaces the earlier one. Values never span
// lines. Any other line is an error naming the file and line (never the
// line's text, which may hold a secret).
func parseDotenv(path, text string) (map[string]string, error) {
	out := map[string]string{}
	text = strings.TrimPrefix(text, "\ufeff")
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		key, val, err := parseDotenvLine(trimmed)
		if err != nil {
			return nil, &Error{File: path, Line: n + 1, Key: key, Msg: err.Error()}
		}
		out[key] = val
	}
	return out, nil
}

func parseDotenvLine(line string) (key, val string, err error) {
	if rest, ok := strings.CutPrefix(line, "export"); ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t")) {
		line = strings.TrimSpace(rest)
	}
	k, v, ok := strings.Cut(line, "=")
	key = strings.TrimSpace(k)
	if !ok {
		return "", "", errors.New("expected NAME=value; write NAME=value, or start the line with # to make it a comment")
	}
	if !validEnvName(key) {
		return "", "", errors.New("the text before = is not a variable name; use letters, digits and underscores, not starting with a digit")
	}
	val, err = dotenvValue(strings.TrimSpace(v))
	return key, val, err
}

func dotenvValue(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	switch v[0] {
	case '"':
		return doubleQuoted(v)
	case '\'':
		end := strings.IndexByte(v[1:], '\'')
		if end < 0 {
			return "", errors.New("single quote is not closed; close it on the same line (values cannot span lines)")
		}
		return v[1 : end+1], afterQuote(v[end+2:])
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	} else if i := strings.Index(v, "\t#"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v), nil
}

func doubleQuoted(v string) (string, error) {
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			return b.String(), afterQuote(v[i+1:])
		case c == '\\' && i+1 < len(v):
			i++
			switch e := v[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\', '$', '\'':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("double quote is not closed; close it on the same line (values cannot span lines)")
}

// afterQuote checks what follows a closing quote: blanks and a comment only.
func afterQuote(rest string) error {
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.HasPrefix(rest, "#") {
		return nil
	}
	return errors.New("unexpected text after the closing quote; put the whole value inside the quotes")
}

func validEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
