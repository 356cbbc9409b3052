//go:build !(linux || android || darwin || ios || freebsd || netbsd || openbsd || dragonfly)

package dshlog

import "os"

// fileKeyOf is the version of a file where no inode is at hand (Windows
// among others): size, mtime and mode. A rewrite in place is still caught
// by comparing the bytes where the last read stopped.
func fileKeyOf(fi os.FileInfo) fileKey {
	return fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}
