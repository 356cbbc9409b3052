//go:build darwin || ios || freebsd || netbsd || openbsd || dragonfly

package dshlog

import (
	"os"
	"syscall"
)

// fileKeyOf is the identity and version of a file: device and inode,
// size, mtime and ctime (which a chmod or a rewrite also changes).
func fileKeyOf(fi os.FileInfo) fileKey {
	k := fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.dev, k.ino = uint64(st.Dev), uint64(st.Ino)
		k.ctime = st.Ctimespec.Nano()
	}
	return k
}
