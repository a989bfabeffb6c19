package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"harness/llmtest"
)

// fieldsOf is what callLines decodes a call's arguments into, at once.
func fieldsOf(args string) ([]field, bool) {
	fields, ok := objectFields(args)
	if !ok {
		fields, ok = partialFields(args)
	}
	return fields, ok
}

// streamArgs checks that an argStream fed args step bytes at a time
// decodes each prefix as fieldsOf does.
func streamArgs(t *testing.T, args string, step int) {
	t.Helper()
	var a argStream
	for i := step; ; i += step {
		i = min(i, len(args))
		got, gotOK := a.decode(args[:i])
		want, wantOK := fieldsOf(args[:i])
		if len(got) == 0 && len(want) == 0 {
			got, want = nil, nil
		}
		if !reflect.DeepEqual(got, want) || gotOK != wantOK {
			t.Fatalf("step %d after %d bytes %q:\ngot  %q %v\nwant %q %v", step, i, args[:i], got, gotOK, want, wantOK)
		}
		if i == len(args) {
			break
		}
	}
}

func TestArgStream(t *testing.T) {
	patch, _ := json.Marshal(map[string]string{"patch": llmtest.AddFilePatch("a.go", 30), "root": "store"})
	for _, args := range []string{
		string(patch),
		`{"code": "print(\"hi\")\n\tx = '\u00e9' \\ \/ \b\f\r"}`,
		`{"task":"a \ud83d\ude00 b \ud83d x","name":"w1"}`,
		`{"a":"b" "c":"d"}`,
		`{,"a":"b",,"c":"d"}`,
		`{"a":"b",}`,
		`{"n": 3, "a": "b"}`,
		`{"bad \q escape": "\x and \u12"}`,
		`{"a":"b"} trailing`,
		`not an object`,
		`{}`,
		"{\"raw\":\"new\nline\"}",
	} {
		for _, step := range []int{1, 3, 40} {
			streamArgs(t, args, step)
		}
	}
}

func FuzzArgStream(f *testing.F) {
	f.Add(`{"code":"x = \"a\\nb\"","k":"\u00e9"}`, 2)
	f.Add(`{"a":1,"b":"c"}`, 1)
	f.Fuzz(func(t *testing.T, args string, step int) {
		if !strings.HasPrefix(strings.TrimSpace(args), "{") && len(args)%2 == 0 {
			args = "{" + args
		}
		streamArgs(t, args, 1+max(step, -step)%30)
	})
}
