//go:build !(linux || android || darwin || ios || freebsd || netbsd)

package jsonlog

import "os"

// KeyOf is the version of the file fi describes where the system gives
// no inode (Windows among others): size, mtime and mode. An append is
// still told from a rewrite by the bytes compared where the last read
// stopped.
func KeyOf(fi os.FileInfo) Key {
	return Key{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
}
