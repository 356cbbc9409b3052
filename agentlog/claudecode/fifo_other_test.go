//go:build !unix

package claudecode_test

import "testing"

const fifoSupported = false

func mkfifo(*testing.T, string) {}
