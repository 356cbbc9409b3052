//go:build !unix

package dshlog

import (
	"fmt"
	"os"
)

// openNoFollow opens path for reading when it is not a symbolic link.
// Where the system has no O_NOFOLLOW the link is looked for first, and
// the caller checks that what it opened is a regular file.
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link", path)
	}
	return os.Open(path)
}

// openNonBlocking opens path for reading, following a link (OpenFile's
// own path, which the caller chose).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
