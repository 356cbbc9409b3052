//go:build linux || android

package jsonlog

import (
	"os"
	"syscall"
)

// KeyOf is the identity (device, inode) and version (size, mtime, ctime,
// mode) of the file fi describes.
func KeyOf(fi os.FileInfo) Key {
	k := Key{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.Dev, k.Ino, k.Ctime = uint64(st.Dev), uint64(st.Ino), st.Ctim.Nano()
	}
	return k
}
