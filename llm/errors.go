// Errors the client returns, each saying what went wrong and what to do.

package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"unicode/utf8"
)

var (
	// ErrTruncated: the stream stopped before the reply was complete (the
	// connection was cut, or the body ended without a finish_reason). The
	// Response holds the partial message.
	ErrTruncated = errors.New("the endpoint's stream ended before the reply was complete")
	// ErrMalformed: a chunk was not valid JSON. The Response holds the
	// message up to that chunk.
	ErrMalformed = errors.New("the endpoint sent a malformed chunk")
)

// maxMessage caps the provider text quoted in an error.
const maxMessage = 400

// StatusError is a non-2xx HTTP answer.
type StatusError struct {
	URL     string
	Code    int    // HTTP status code
	Message string // the provider's message, truncated
}

func (e *StatusError) Error() string {
	return e.URL + " " + e.Reason() + statusHint(e.Code)
}

// Reason says what the server answered, without the URL and the advice.
func (e *StatusError) Reason() string {
	status := fmt.Sprintf("%d %s", e.Code, http.StatusText(e.Code))
	msg := "answered " + status
	if e.Message != "" && !strings.EqualFold(e.Message, status) {
		msg += ": " + e.Message
	}
	return msg
}

func statusHint(code int) string {
	switch {
	case code == 401 || code == 403:
		return " (check the API key: [endpoint] api_key_env in config.toml and its value in the environment or .env)"
	case code == 404:
		return " (check [endpoint] base_url and model in config.toml; `harness doctor` lists the served models)"
	case code == 429:
		return " (rate limited or out of quota: wait and try again)"
	case code >= 500:
		return " (the server failed: try again; if it persists, check the server's logs)"
	}
	return ""
}

// ConnectError is a failure to reach the endpoint at all.
type ConnectError struct {
	URL string
	Err error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("cannot connect to %s: %s; check [endpoint] base_url in config.toml and run `harness doctor`", e.URL, e.Reason())
}

// Reason says why the connection failed, without the advice.
func (e *ConnectError) Reason() string {
	switch {
	case errors.Is(e.Err, syscall.ECONNREFUSED):
		return "connection refused (is the server running?)"
	case isDNS(e.Err):
		return "unknown host"
	}
	return e.Err.Error()
}

func (e *ConnectError) Unwrap() error { return e.Err }

func isDNS(err error) bool {
	var d *net.DNSError
	return errors.As(err, &d)
}

// ProviderError is an error object the endpoint sent inside the stream (or
// as the whole body of a 200 answer).
type ProviderError struct {
	Code    string
	Message string
}

func (e *ProviderError) Error() string {
	msg := "the endpoint reported an error"
	if e.Code != "" {
		msg += " (" + e.Code + ")"
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// providerError decodes an "error" member: an object with message/code
// (code may be a number or a string), possibly wrapped in another "error"
// member, or a plain string.
func providerError(raw []byte) *ProviderError {
	if s, ok := stringValue(raw); ok {
		return &ProviderError{Message: truncate(s)}
	}
	var obj struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return &ProviderError{Message: truncate(string(raw))}
	}
	if obj.Message == "" && len(obj.Error) > 0 && !isNull(obj.Error) {
		return providerError(obj.Error) // a wrapped upstream error
	}
	code := strings.Trim(string(obj.Code), `"`)
	if code == "" || code == "null" || (isDigits(code) && obj.Type != "") {
		// A numeric code mostly repeats the HTTP status; the type says more.
		code = obj.Type
	}
	msg := obj.Message
	if msg == "" {
		msg = string(raw)
	}
	return &ProviderError{Code: code, Message: truncate(msg)}
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// bodyMessage extracts the provider's message from an error body: the usual
// JSON shapes ({"error":{"message"}}, {"error":"…"}, {"message"},
// {"detail"}), else the text itself.
func bodyMessage(body []byte) string {
	var obj struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &obj) == nil {
		switch {
		case len(obj.Error) > 0 && !isNull(obj.Error):
			pe := providerError(obj.Error)
			if pe.Code != "" && !isDigits(pe.Code) && !strings.Contains(pe.Message, pe.Code) {
				return pe.Code + ": " + pe.Message
			}
			return pe.Message
		case obj.Message != "":
			return truncate(obj.Message)
		case len(obj.Detail) > 0:
			if s, ok := stringValue(obj.Detail); ok {
				return truncate(s)
			}
			return truncate(string(obj.Detail))
		}
	}
	if t, ok := htmlText(body); ok {
		return truncate(t)
	}
	return truncate(strings.Join(strings.Fields(string(body)), " "))
}

// htmlText returns what an HTML error page (from a proxy or gateway) says:
// its title, else its text without tags. ok is false when body is not HTML.
func htmlText(body []byte) (string, bool) {
	s := strings.TrimSpace(string(body))
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "<!doctype html") && !strings.HasPrefix(lower, "<html") {
		return "", false
	}
	if i := strings.Index(lower, "<title>"); i >= 0 {
		if j := strings.Index(lower[i:], "</title>"); j >= 0 {
			if t := strings.Join(strings.Fields(s[i+len("<title>"):i+j]), " "); t != "" {
				return t, true
			}
		}
	}
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
			b.WriteByte(' ')
		case r == '>':
			inTag = false
		case !inTag:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " "), true
}

// truncate caps s at maxMessage bytes on a rune boundary.
func truncate(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (truncated)"
}
