// Package golden compares a test's output with a file kept beside the
// test, testdata/<test name>.golden, and rewrites that file when the tests
// run with -update. It is the project's own, so that no library module
// requires a test-only module of someone else's (a host would pay for it
// in its own go.mod).
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The -update flag. A test binary that also links another golden package
// (teatest brings one) has the flag already: it is then shared, not
// defined twice (which would panic). Packages initialise in import path
// order, and that one's path sorts first.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "update .golden files")
	}
}

// updating reports whether the tests run with -update.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Path is the golden file of tb: testdata/<tb.Name()>.golden, relative to
// the test's package directory.
func Path(tb testing.TB) string {
	return filepath.Join("testdata", tb.Name()+".golden")
}

// RequireEqual fails tb unless out is the content of its golden file
// (see [Path]); with -update it writes out there first. Line breaks in
// the file read as "\n" on Windows, where Git may check it out with
// "\r\n". The failure shows the first line that differs, with control
// bytes quoted, and both texts.
func RequireEqual[T []byte | string](tb testing.TB, out T) {
	tb.Helper()
	path := Path(tb)
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := string(want)
	if runtime.GOOS == "windows" {
		w = strings.ReplaceAll(w, "\r\n", "\n")
	}
	if d := Diff(w, string(out)); d != "" {
		tb.Fatalf("output does not match %s (run with -update to accept it):\n%s", path, d)
	}
}

// Diff describes how got differs from want: empty when they are equal,
// else the first line that differs in each (quoted, so control bytes
// and trailing spaces show) and both texts in full.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return strconv.Quote(ls[i])
		}
		return "(no such line)"
	}
	return fmt.Sprintf("first difference at line %d:\n  want %s\n  got  %s\n\nwant:\n%s\n\ngot:\n%s", i+1, line(wl), line(gl), want, got)
}
