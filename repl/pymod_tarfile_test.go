package repl

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// tarView is what both sides print of an archive: each member's name,
// size, type, mode, whole-second mtime, link and data (hex).
const tarView = `import json, tarfile
def tar_view(path, mode="r"):
    with tarfile.open(path, mode) as t:
        return json.dumps([[m.name, m.size, m.type.decode(), m.mode, int(m.mtime), m.linkname,
            t.extractfile(m).read().hex() if m.isfile() else None] for m in t.getmembers()])
`

// tarWriteREPL makes archives with the REPL's tarfile.
const tarWriteREPL = `import io, os
os.makedirs("tree/sub", exist_ok=True)
open("tree/a.txt", "w").write("alpha\n")
open("tree/sub/é.txt", "w").write("accent\n")
open("tree/" + "n" * 120 + ".txt", "w").write("long name\n")
with tarfile.open("repl.tar.gz", "w:gz") as t:
    t.add("tree")
    data = bytes(range(256)) * 3
    ti = tarfile.TarInfo("mem/data.bin"); ti.size = len(data); ti.mtime = 1700000000; ti.mode = 0o600
    t.addfile(ti, io.BytesIO(data))
    d = tarfile.TarInfo("mem/empty"); d.type = tarfile.DIRTYPE; d.mode = 0o750
    t.addfile(d)
with tarfile.open("repl.tar", "w") as t:
    t.add("tree/a.txt", arcname="a.txt")
with tarfile.open("repl.tar", "a") as t:
    t.add("tree/sub", arcname="appended")
`

// tarWritePython makes archives with CPython's tarfile: PAX (the
// default, with a long and a non-ASCII name), GNU and USTAR, and a link.
const tarWritePython = `import io, os, tarfile
os.makedirs("pytree/d", exist_ok=True)
open("pytree/x.txt", "w").write("x\n" * 100)
open("pytree/d/ü.md", "w").write("# title\n")
open("pytree/" + "m" * 150, "w").write("m\n")
with tarfile.open("py.tar.gz", "w:gz") as t:
    t.add("pytree")
    ti = tarfile.TarInfo("pytree/link"); ti.type = tarfile.SYMTYPE; ti.linkname = "x.txt"
    t.addfile(ti)
    ti = tarfile.TarInfo("hard"); ti.type = tarfile.LNKTYPE; ti.linkname = "pytree/x.txt"
    t.addfile(ti)
for name, fmt in [("gnu.tar", tarfile.GNU_FORMAT), ("ustar.tar", tarfile.USTAR_FORMAT)]:
    with tarfile.open(name, "w", format=fmt) as t:
        t.add("pytree/x.txt", arcname="x.txt")
        t.add("pytree/d")
with tarfile.open("py.tar.bz2", "w:bz2") as t:
    t.add("pytree/x.txt")
`

// TestTarfileCPython checks archives the REPL writes read the same in
// CPython's tarfile, and archives CPython writes read the same in the
// REPL: each side prints tar_view of each archive, and the prints agree.
func TestTarfileCPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the tar files the REPL writes are not checked against CPython's tarfile")
	}
	e := newEnv(t)
	if out, failed := e.repl.exec(context.Background(), tarView+tarWriteREPL); failed {
		t.Fatalf("REPL writing: %s", out)
	}
	py := exec.Command("python3", "-c", tarWritePython)
	py.Dir = e.repo
	if out, err := py.CombinedOutput(); err != nil {
		t.Fatalf("python3 writing: %v\n%s", err, out)
	}
	for _, archive := range []string{"repl.tar.gz", "repl.tar", "py.tar.gz", "gnu.tar", "ustar.tar", "py.tar.bz2"} {
		t.Run(archive, func(t *testing.T) {
			call := "print(tar_view(" + `"` + archive + `"` + "))"
			got, failed := e.repl.exec(context.Background(), call)
			if failed {
				t.Fatalf("REPL reading: %s", got)
			}
			cmd := exec.Command("python3", "-c", tarView+call)
			cmd.Dir = e.repo
			want, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("python3 reading: %v\n%s", err, want)
			}
			if strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
				t.Errorf("REPL and CPython read %s differently:\nREPL:    %s\nCPython: %s", archive, got, want)
			}
			if !strings.HasPrefix(got, "[[") {
				t.Errorf("%s has no members: %s", archive, got)
			}
		})
	}
}
