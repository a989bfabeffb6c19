package sessions

import (
	"encoding/json"
	"testing"
)

func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`""`, `"plain"`, `"a\nb\t\"c\"\\ \/"`, `"\u00e9\u003c"`, `"\ud83d\ude00 smile"`,
		`"\ud83d alone"`, `"\ude00 low"`, "\"raw \xff byte\"", `"\u12"`, `"\x"`, `"end\"`,
	} {
		var want string
		werr := json.Unmarshal([]byte(in), &want)
		got, err := unquote([]byte(in))
		if (err != nil) != (werr != nil) || got != want {
			t.Errorf("unquote(%s) = %q, %v; encoding/json gives %q, %v", in, got, err, want, werr)
		}
	}
}
