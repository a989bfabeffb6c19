// Atomic file replacement and loading of conversation files.

package sessions

import (
	"fmt"
	"io"
	"os"

	"harness/atomicfile"
)

// Load reads and decodes one conversation file. Errors name the file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	f, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
}

// WriteFile encodes f into path atomically (atomicfile.Write): a temporary
// .NAME.harness-PID-RANDOM file in the same directory is written, fsynced,
// closed and renamed over path, and the directory is fsynced so the rename
// survives a crash.
func WriteFile(path string, f *File) error {
	if err := atomicfile.Write(path, 0o600, func(w io.Writer) error { return f.Encode(w) }); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

func syncDir(dir string) error { return atomicfile.SyncDir(dir) }
