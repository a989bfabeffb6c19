// Package sensitive removes values that look like secrets from text harness
// writes to its own files (failure notes, MCP server logs, workers.log)
// when it cannot know the secret itself: the Redactor of package redact
// removes the values harness knows (API keys, MCP header and env values),
// this package the ones that only their place gives away.
//
// A value is replaced by [REDACTED] when it is
//
//   - a URL query value whose name looks secret: ?access_token=…,
//     &api_key=…, &key=…, &password=…, &client_secret=…, &sig=…;
//   - a command-line option's value whose name looks secret: --token=…,
//     --api-key …, -password=…, --client-secret …;
//   - an assignment NAME=… whose NAME looks secret (GITHUB_TOKEN=…,
//     DB_PASSWORD=…, AWS_SECRET_ACCESS_KEY=…);
//   - an Authorization header's value, after Bearer, Basic or Token.
//
// A name looks secret (SecretName) when, in lower case, it contains token,
// secret, passw, credential, auth or cookie, is key or sig, or ends in key, _key or -key.
// Scrub may take a harmless value (--key-file=path) for a secret; it
// never leaves one it recognises.
package sensitive

import (
	"regexp"
	"strings"
)

// Mask replaces every value Scrub removes.
const Mask = "[REDACTED]"

var (
	// The value runs to the next separator of its kind.
	query  = regexp.MustCompile(`([?&;])([^=&#?;\s"'<>]+)=([^&#;\s"'<>]*)`)
	option = regexp.MustCompile(`(^|[\s"'\[,(])(--?[A-Za-z][A-Za-z0-9_.-]*)(=|\s+)(\[REDACTED\]|[^\s"',\])]+)`)
	assign = regexp.MustCompile(`(^|[\s"'\[,({])([A-Za-z_][A-Za-z0-9_]*)=(\[REDACTED\]|[^\s"',\])}&]+)`)
	header = regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?(\[REDACTED\]|[^\s"',]+)`)
)

// SecretName reports whether a parameter, option or variable name looks
// like it holds a secret.
func SecretName(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	for _, w := range []string{"token", "secret", "passw", "credential", "auth", "cookie"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return n == "key" || n == "sig" || n == "signature" || strings.HasSuffix(n, "apikey") ||
		strings.HasSuffix(n, "_key") || strings.HasSuffix(n, "-key") || strings.HasSuffix(n, ".key")
}

// Scrub returns s with the values that look like secrets replaced by Mask.
func Scrub(s string) string {
	if !strings.ContainsAny(s, "=:-") {
		return s
	}
	s = header.ReplaceAllString(s, "${1}${2}"+Mask)
	s = query.ReplaceAllStringFunc(s, func(m string) string {
		p := query.FindStringSubmatch(m)
		if !SecretName(p[2]) || p[3] == "" || p[3] == Mask {
			return m
		}
		return p[1] + p[2] + "=" + Mask
	})
	s = option.ReplaceAllStringFunc(s, func(m string) string {
		p := option.FindStringSubmatch(m)
		if !SecretName(p[2]) || p[4] == Mask || strings.HasPrefix(p[4], "-") {
			return m
		}
		return p[1] + p[2] + p[3] + Mask
	})
	return assign.ReplaceAllStringFunc(s, func(m string) string {
		p := assign.FindStringSubmatch(m)
		if !SecretName(p[2]) || p[3] == Mask {
			return m
		}
		return p[1] + p[2] + "=" + Mask
	})
}

// Args returns a copy of a command line with secret-looking values
// replaced: --token=… and NAME=… in one argument, and the argument after
// a secret-looking option given alone (--password x).
func Args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && SecretName(args[i-1]) && !strings.HasPrefix(a, "-") {
			out[i] = Mask
			continue
		}
		out[i] = Scrub(a)
	}
	return out
}
