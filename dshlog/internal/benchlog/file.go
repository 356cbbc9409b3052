package benchlog

import (
	"io"
	"os"
	"path/filepath"
)

// WriteFile creates path (and its directories) and fills it with write:
// the generators' one way to put a log on disk.
func WriteFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
