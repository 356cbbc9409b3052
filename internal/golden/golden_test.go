package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	if d := Diff("a\nb", "a\nb"); d != "" {
		t.Fatalf("equal texts differ: %s", d)
	}
	d := Diff("a\nb\nc", "a\nb \nc")
	if !strings.Contains(d, "line 2") || !strings.Contains(d, `"b "`) {
		t.Fatalf("the diff does not name line 2 and its trailing space:\n%s", d)
	}
	if d := Diff("a", "a\nb"); !strings.Contains(d, "line 2") || !strings.Contains(d, "(no such line)") {
		t.Fatalf("a line added is not shown:\n%s", d)
	}
}

// TestRequireEqual writes a golden with -update's path and reads it back,
// in a temporary directory so the package's own testdata is untouched.
func TestRequireEqual(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
	setUpdate(t, true)
	RequireEqual(t, "one\ntwo\n")
	setUpdate(t, false)
	got, err := os.ReadFile(filepath.Join(dir, "testdata", "TestRequireEqual.golden"))
	if err != nil || string(got) != "one\ntwo\n" {
		t.Fatalf("golden file = %q, %v", got, err)
	}
	RequireEqual(t, []byte("one\ntwo\n"))
	ft := &fakeTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		RequireEqual(ft, "one\nthree\n")
	}()
	if !ft.failed || !strings.Contains(ft.msg, "line 2") {
		t.Fatalf("a different output did not fail: %v %q", ft.failed, ft.msg)
	}
}

// fakeTB records a failure instead of ending the test.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return "TestRequireEqual" }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = format
	if len(args) > 1 {
		f.msg = args[1].(string)
	}
	panic("fatal")
}

func setUpdate(t *testing.T, on bool) {
	t.Helper()
	v := "false"
	if on {
		v = "true"
	}
	if err := flag.Set("update", v); err != nil {
		t.Fatal(err)
	}
}
