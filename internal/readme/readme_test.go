package readme

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code := write("a.go", "package a\n\n// BEGIN README\nfunc A() {}\n// END README\n")
	good := write("good.md", "intro\n```go\nfunc A() {}\n```\n")
	bad := write("bad.md", "intro\n```go\nfunc B() {}\n```\n")
	if err := Check(code, good); err != nil {
		t.Fatalf("a README that shows the code: %v", err)
	}
	if err := Check(code, bad); err == nil {
		t.Fatal("a README that does not show the code passed")
	}
	for _, text := range []string{"package a\n", "// BEGIN README\n", "// BEGIN README\n\n// END README\n"} {
		if err := Check(write("x.go", text), good); err == nil {
			t.Fatalf("a file without a sample passed: %q", text)
		}
	}
}
