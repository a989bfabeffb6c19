package wire

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func pair(t *testing.T) (*Conn, *Conn) {
	t.Helper()
	p, childFile, err := Pair()
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromFile(childFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(); c.Close() })
	return p, c
}

func TestRoundTrip(t *testing.T) {
	p, c := pair(t)
	big := strings.Repeat("x", 3*readChunk+17) // spans several reads
	frames := []Frame{
		Make(Hello, 0, HelloBody{Version: Version, PID: 42}),
		Make(Output, 7, "printed\n"),
		Make(Cancel, 7, nil),
		Make(Output, 8, big),
		Make(Result, 8, ResultBody{Text: "2"}),
	}
	go func() {
		for _, f := range frames {
			if err := p.Send(f); err != nil {
				t.Error(err)
			}
		}
		p.Close()
	}()
	for i, want := range frames {
		got, err := c.Read()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got.Type != want.Type || got.ID != want.ID || !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("frame %d: got %s/%d %d bytes, want %s/%d %d bytes", i, got.Type, got.ID, len(got.Body), want.Type, want.ID, len(want.Body))
		}
	}
	if _, err := c.Read(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

// TestBodiesAreNotShared checks that a frame's body survives later reads.
func TestBodiesAreNotShared(t *testing.T) {
	p, c := pair(t)
	for _, s := range []string{"first", "second"} {
		if err := p.Send(Make(Output, 1, s)); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := c.Read()
	b, _ := c.Read()
	if string(a.Body) != "first" || string(b.Body) != "second" {
		t.Fatalf("bodies %q %q", a.Body, b.Body)
	}
}

func TestFilesRideWithBind(t *testing.T) {
	p, c := pair(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("here"), 0o644)
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	stray := Make(Output, 1, "x")
	stray.Files = []*os.File{d}
	if err := p.Send(stray); err == nil || !strings.Contains(err.Error(), "Output frame cannot carry files") {
		t.Fatalf("files on Output: %v", err)
	}
	bind := Make(Bind, 0, BindBody{Mounts: []string{"repository"}})
	bind.Files = []*os.File{d}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		p.Send(Make(Output, 1, "x"))
		p.Send(Make(Level, 0, LevelBody{Level: 2}))
		p.Send(bind)
	}()
	defer func() { <-sent }()
	for _, want := range []Type{Output, Level} {
		f, err := c.Read()
		if err != nil || f.Type != want || len(f.Files) != 0 {
			t.Fatalf("got %s with %d files (%v), want %s and none", f.Type, len(f.Files), err, want)
		}
	}
	f, err := c.Read()
	if err != nil || f.Type != Bind || len(f.Files) != 1 {
		t.Fatalf("bind: %v, %d files", err, len(f.Files))
	}
	defer f.Files[0].Close()
	var body BindBody
	if err := f.Unmarshal(&body); err != nil || body.Mounts[0] != "repository" {
		t.Fatalf("body %+v, %v", body, err)
	}
	// The received descriptor is the directory, reachable without its path.
	root, err := os.OpenRoot("/proc/self/fd/" + itoa(f.Files[0].Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if data, err := root.ReadFile("inside.txt"); err != nil || string(data) != "here" {
		t.Fatalf("read through the passed descriptor: %q, %v", data, err)
	}
}

func itoa(fd uintptr) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + fd%10)}, b...)
		fd /= 10
		if fd == 0 {
			return string(b)
		}
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
		want string
	}{
		{"short length", []byte{0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0}, "length 3"},
		{"huge length", []byte{0x7f, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0, 0}, "length 2147483647"},
		{"unknown type", []byte{0, 0, 0, 9, 99, 0, 0, 0, 0, 0, 0, 0, 0}, "unknown type 99"},
		{"zero type", []byte{0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "unknown type 0"},
		{"cut off", []byte{0, 0, 0, 20, 5, 0, 0, 0, 0, 0, 0, 0, 1, 'a'}, "ended inside a frame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, c := pair(t)
			go func() { p.uc.Write(tt.raw); p.Close() }()
			_, err := c.Read()
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want ErrFormat with %q", err, tt.want)
			}
		})
	}
	if _, err := Append(nil, Frame{Type: 0}); !errors.Is(err, ErrFormat) {
		t.Errorf("Append of type 0: %v", err)
	}
	var v ResultBody
	if err := (Frame{Type: Result, Body: []byte("{")}).Unmarshal(&v); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "Result body") {
		t.Errorf("Unmarshal of bad JSON: %v", err)
	}
}

// TestReadAfterClose checks that closing the connection ends a blocked Read.
func TestReadAfterClose(t *testing.T) {
	_, c := pair(t)
	done := make(chan error, 1)
	go func() { _, err := c.Read(); done <- err }()
	time.Sleep(10 * time.Millisecond) // let Read block; the outcome is the same if it has not
	c.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Read returned no error after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not return after Close")
	}
}

func FuzzDecode(f *testing.F) {
	seed, _ := Append(nil, Make(Result, 3, ResultBody{Text: "ok"}))
	f.Add(seed)
	f.Add([]byte{0, 0, 0, 9, 5, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		for len(data) > 0 {
			fr, n, err := Decode(data)
			if err != nil || n == 0 {
				return
			}
			if n < headerLen || n > len(data) || fr.Type < 1 || fr.Type > maxType {
				t.Fatalf("Decode took %d of %d bytes, type %d", n, len(data), fr.Type)
			}
			again, err := Append(nil, fr)
			if err != nil || !bytes.Equal(again, data[:n]) {
				t.Fatalf("re-encoding differs: %v", err)
			}
			data = data[n:]
		}
	})
}
