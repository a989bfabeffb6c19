package sensitive

import (
	"strings"
	"testing"
)

func TestScrub(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"MCP server web failed: GET https://h.example/mcp?access_token=abc123&page=2: 401",
			"MCP server web failed: GET https://h.example/mcp?access_token=[REDACTED]&page=2: 401"},
		{"https://h/x?key=K1;sig=S2#frag", "https://h/x?key=[REDACTED];sig=[REDACTED]#frag"},
		{"https://h/x?api_key=&q=a", "https://h/x?api_key=&q=a"},
		{"https://h/x?monkey=1&keyboard=2&token=t", "https://h/x?monkey=1&keyboard=2&token=[REDACTED]"},
		{"--- 2026 harness starts node server.js --token=s3cret --port=8080", "--- 2026 harness starts node server.js --token=[REDACTED] --port=8080"},
		{"mcp-server --api-key abc --verbose", "mcp-server --api-key [REDACTED] --verbose"},
		{"x --password=p@ss -secret v", "x --password=[REDACTED] -secret [REDACTED]"},
		{"x --client-secret --other", "x --client-secret --other"},
		{"env GITHUB_TOKEN=ghp_1 DB_PASSWORD=pw PATH=/bin", "env GITHUB_TOKEN=[REDACTED] DB_PASSWORD=[REDACTED] PATH=/bin"},
		{"Authorization: Bearer eyJhbGc.x.y", "Authorization: Bearer [REDACTED]"},
		{`{"Authorization":"Basic dXNlcjpw"}`, `{"Authorization":"Basic [REDACTED]"}`},
		{"authorization=tok123", "authorization=[REDACTED]"},
		{"nothing to see here: a = b", "nothing to see here: a = b"},
		{"run --key-file=/etc/k", "run --key-file=/etc/k"},
		{"--password secret123", "--password [REDACTED]"},
		{"x --token\tabc", "x --token\t[REDACTED]"},
		{"curl --cookie sid=abc https://h SESSION_COOKIE=c00k", "curl --cookie [REDACTED] https://h SESSION_COOKIE=[REDACTED]"},
	} {
		if got := Scrub(tc.in); got != tc.want {
			t.Errorf("Scrub(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if again := Scrub(tc.want); again != tc.want {
			t.Errorf("Scrub is not stable on %q: %q", tc.want, again)
		}
	}
}

func TestArgs(t *testing.T) {
	got := strings.Join(Args([]string{"--token", "abc", "--port", "80", "--api-key=xyz", "TOKEN=t", "plain", "-v"}), " ")
	if want := "--token [REDACTED] --port 80 --api-key=[REDACTED] TOKEN=[REDACTED] plain -v"; got != want {
		t.Errorf("Args = %q, want %q", got, want)
	}
}

func TestSecretName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", true}, {"--api-key", true}, {"key", true}, {"DB_PASSWORD", true},
		{"session_cookie", true}, {"Authorization", true}, {"client.key", true},
		{"monkey", false}, {"keyboard", false}, {"PATH", false}, {"--port", false}, {"key-file", false},
	} {
		if got := SecretName(tc.name); got != tc.want {
			t.Errorf("SecretName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
