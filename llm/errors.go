// Errors the client returns, each saying what went wrong and what to do.

package llm

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
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
	Message string // the provider's message, truncated, without the client's API key
	// Header holds the answer's headers (Retry-After, retry-after-ms).
	Header http.Header
	// Advice says what to do; "" gives the general advice for Code.
	Advice string
	// Window is the context window the body named (llama.cpp's n_ctx in
	// a context-length refusal), or 0.
	Window int
}

func (e *StatusError) Error() string {
	adv := e.Advice
	if adv == "" {
		adv = statusHint(e.Code, e.Message)
	}
	if adv == "" {
		return e.URL + " " + e.Reason()
	}
	return e.URL + " " + e.Reason() + " (" + adv + ")"
}

// Reason says what the server answered, without the URL and the advice.
func (e *StatusError) Reason() string {
	status := e.status()
	msg := "answered " + status
	if e.Message != "" && !strings.EqualFold(e.Message, status) {
		msg += ": " + e.Message
	}
	return msg
}

func (e *StatusError) status() string {
	if text := statusText(e.Code); text != "" {
		return fmt.Sprintf("%d %s", e.Code, text)
	}
	return strconv.Itoa(e.Code)
}

// statusText names an HTTP status, including the unofficial ones proxies
// and hosted endpoints send (Cloudflare's 520–526, 529 for overloaded).
func statusText(code int) string {
	switch code {
	case 520:
		return "Web Server Returned an Unknown Error"
	case 521:
		return "Web Server Is Down"
	case 522:
		return "Connection Timed Out"
	case 523:
		return "Origin Is Unreachable"
	case 524:
		return "A Timeout Occurred"
	case 525:
		return "SSL Handshake Failed"
	case 526:
		return "Invalid SSL Certificate"
	case 529:
		return "Site Overloaded"
	}
	return http.StatusText(code)
}

// short is the status and the start of the message, for retry notices.
func (e *StatusError) short() string {
	s := e.status()
	if e.Message != "" && !strings.EqualFold(e.Message, s) {
		s += ": " + clip(e.Message, 80)
	}
	return s
}

// statusHint is the general advice for an HTTP status.
func statusHint(code int, msg string) string {
	switch {
	case code == 401 || code == 403:
		return "check the API key: [endpoint] api_key_env in config.toml and its value in the environment or .env"
	case code == 413 || contextMarker(msg):
		return "the conversation is longer than the model's context"
	case code == 404 || modelMissing(msg):
		return "check [endpoint] base_url and model in config.toml; `harness doctor` lists the served models"
	case code == 429 && outOfQuota(msg):
		return "the account is out of quota or credit: check the provider's billing, or use another key"
	case code == 429:
		return "rate limited: wait and try again"
	case code >= 500:
		return "the server failed: try again; if it persists, check the server's logs"
	}
	return ""
}

// ContextExceeded reports whether err says the request is longer than the
// model's context: HTTP 413, OpenAI's context_length_exceeded, vLLM's
// "maximum context length", llama.cpp's "exceeds the available context
// size", Anthropic's "prompt is too long", and the like.
func ContextExceeded(err error) bool {
	var se *StatusError
	var pe *ProviderError
	switch {
	case errors.As(err, &se):
		return se.Code == http.StatusRequestEntityTooLarge || (se.Code/100 == 4 && contextMarker(se.Message))
	case errors.As(err, &pe):
		return contextMarker(pe.Code + " " + pe.Message)
	}
	return false
}

var contextMarkers = []string{"context_length_exceeded", "maximum context length", "exceeds the available context size",
	"exceed_context_size", "prompt is too long", "context length", "context window", "input is too long",
	"reduce the length of the messages", "too many tokens", "maximum input length"}

func contextMarker(msg string) bool {
	m := strings.ToLower(msg)
	for _, k := range contextMarkers {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// ModelMissing reports whether err says the configured model is not
// served: a 404, or a message such as "model 'x' not found".
func ModelMissing(err error) bool {
	var se *StatusError
	var pe *ProviderError
	switch {
	case errors.As(err, &se):
		return se.Code == http.StatusNotFound || (se.Code/100 == 4 && modelMissing(se.Message))
	case errors.As(err, &pe):
		return modelMissing(pe.Code + " " + pe.Message)
	}
	return false
}

func modelMissing(msg string) bool {
	m := strings.ToLower(msg)
	if strings.Contains(m, "model_not_found") || strings.Contains(m, "unknown model") || strings.Contains(m, "invalid model") {
		return true
	}
	if !strings.Contains(m, "model") {
		return false
	}
	for _, k := range []string{"not found", "does not exist", "not exist", "no such", "not available", "not served", "not loaded"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// ConnectError is a failure to reach the endpoint at all.
type ConnectError struct {
	URL     string
	Err     error
	Section string // the config table ("" is endpoint)
}

func (e *ConnectError) Error() string {
	sec := e.Section
	if sec == "" {
		sec = "endpoint"
	}
	return fmt.Sprintf("cannot connect to %s: %s; check [%s] base_url in config.toml and run `harness doctor`", e.URL, e.Reason(), sec)
}

// Reason says why the connection failed, without the advice.
func (e *ConnectError) Reason() string {
	switch {
	case errors.Is(e.Err, syscall.ECONNREFUSED):
		return "connection refused (is the server running?)"
	case isDNS(e.Err):
		return "unknown host"
	case errors.Is(e.Err, io.EOF), errors.Is(e.Err, io.ErrUnexpectedEOF):
		return "the server closed the connection without answering"
	case errors.Is(e.Err, syscall.ECONNRESET):
		return "the connection was reset"
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
	Status  int // a numeric code that is an HTTP status (429, 503), else 0
}

// short is the error in a few words, for retry notices.
func (e *ProviderError) short() string {
	s := "the endpoint reported an error"
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	if e.Message != "" {
		s += ": " + clip(e.Message, 80)
	}
	return s
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
	status := 0
	if isDigits(code) && len(code) == 3 && code[0] >= '4' && code[0] <= '5' {
		status, _ = strconv.Atoi(code)
	}
	if code == "" || code == "null" || (isDigits(code) && obj.Type != "") {
		// A numeric code mostly repeats the HTTP status; the type says more.
		code = obj.Type
	}
	msg := obj.Message
	if msg == "" {
		msg = string(raw)
	}
	return &ProviderError{Code: code, Message: truncate(msg), Status: status}
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
	return cutRunes(s, maxMessage) + "… (truncated)"
}

// clip caps s at n bytes on a rune boundary, ending with "…" when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutRunes(s, n) + "…"
}

func cutRunes(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// notStreamError is a 200 answer that is no event stream at all (a web
// page, a proxy's notice): retrying it does not help. It is an
// ErrTruncated.
type notStreamError struct{ msg string }

func (e *notStreamError) Error() string { return e.msg }
func (e *notStreamError) Unwrap() error { return ErrTruncated }

// certificateRejected reports whether a connection failed because the
// client rejected the server's certificate, which retrying does not fix.
func certificateRejected(err error) bool {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &verify)
}
