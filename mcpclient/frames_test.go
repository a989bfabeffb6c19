package mcpclient

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestMessageID: the id of a cut message, from its start (the SDK's order)
// or its end, never a nested one.
func TestMessageID(t *testing.T) {
	for _, tc := range []struct{ head, tail, want string }{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"aaa`, `aaa"}]}}`, `7`},
		{`{"jsonrpc":"2.0","result":{"id":99,"content":[{"text":"aaa`, `aaa"}]},"id":"req-3"}`, `"req-3"`},
		{`{"result":{"nested":{"id":5}},"id":12,"jsonrpc"`, `x`, `12`},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"aaa`, `aaa"}}`, ``},
	} {
		if got := string(messageID([]byte(tc.head), []byte(tc.tail))); got != tc.want {
			t.Errorf("messageID(%q, %q) = %q, want %q", tc.head, tc.tail, got, tc.want)
		}
	}
}

// TestFrameFilter: what reaches the SDK from a noisy stdout, with a small
// limit.
func TestFrameFilter(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":4,"result":{"text":"` + strings.Repeat("y", 300) + `"}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		``,
		`Server listening on stdio`,
		`[1,2]`,
		`{"no":"jsonrpc"}`,
		long,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
	}, "\n") + "\n"
	var log bytes.Buffer
	f := &frameFilter{src: io.NopCloser(strings.NewReader(in)), log: &log, limit: 100}
	var out bytes.Buffer
	if err := f.copy(&out); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}
[1,2]
{"error":{"code":-32099,"message":"result too large (0 MB, limit 0 MB)"},"id":4,"jsonrpc":"2.0"}
{"jsonrpc":"2.0","id":5,"result":{}}
`
	if out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", out.String(), want)
	}
	if n := strings.Count(log.String(), "harness: skipped"); n != 2 || !strings.Contains(log.String(), "passed the 100-byte limit") {
		t.Errorf("log:\n%s", log.String())
	}
}
