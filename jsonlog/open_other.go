//go:build !unix

package jsonlog

import (
	"fmt"
	"os"
)

// openFile opens path for reading unless it is a symbolic link. Without
// O_NOFOLLOW the link test comes first; the caller still checks that it
// got a regular file.
func openFile(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: %w", path, errLink)
	}
	return os.Open(path)
}
