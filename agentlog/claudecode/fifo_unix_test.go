//go:build unix

package claudecode_test

import (
	"syscall"
	"testing"
)

const fifoSupported = true

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
