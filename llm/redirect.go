// Redirects: which the client follows, and the error for the others.

package llm

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// RedirectError says the endpoint answered a request with a redirect that
// harness does not follow: a 301, 302 or 303 on a POST (Go would turn it
// into a GET, whose answer is not a reply), or any redirect to another
// origin (scheme, host, port), where the API key must not go. A 307 or 308
// to the same origin is followed with its method and body; so is any
// redirect of a GET to the same origin.
type RedirectError struct {
	Method  string
	From    string // the URL requested
	To      string // the Location
	Code    int
	Path    string // the path harness appends to base_url ("/chat/completions")
	Section string // the config table
}

func (e *RedirectError) Error() string {
	why := "harness does not follow it: it would resend the request as a GET"
	if !sameOrigin(e.From, e.To) {
		why = "harness does not follow a redirect to another origin, so that the API key goes nowhere else"
	}
	fix := fmt.Sprintf("set [%s] base_url to the address the server redirects to", e.Section)
	if base, ok := strings.CutSuffix(e.To, e.Path); ok && e.Path != "" {
		fix = fmt.Sprintf("set [%s] base_url = %q", e.Section, base)
	}
	return fmt.Sprintf("%s %s was redirected (%d %s) to %s; %s; %s", e.Method, e.From, e.Code, http.StatusText(e.Code), e.To, why, fix)
}

// checkRedirect is the http.Client's CheckRedirect: req is the next
// request, via the ones made so far.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	resp := req.Response
	code := 0
	if resp != nil {
		code = resp.StatusCode
	}
	e := &RedirectError{Method: first.Method, From: via[len(via)-1].URL.String(), To: req.URL.String(), Code: code,
		Path: strings.TrimPrefix(first.URL.String(), strings.TrimRight(c.ep.BaseURL, "/")), Section: c.origin.section()}
	switch {
	case len(via) >= 10:
		return fmt.Errorf("%s %s: stopped after 10 redirects", first.Method, first.URL)
	case !sameOrigin(first.URL.String(), req.URL.String()):
		return e
	case first.Method != http.MethodGet && code != http.StatusTemporaryRedirect && code != http.StatusPermanentRedirect:
		return e
	}
	return nil
}

// sameOrigin reports whether two URLs have the same scheme, host and port.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Hostname(), ub.Hostname()) && port(ua) == port(ub)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
