package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dshkit/mentions/demo"
)

// --no-index turns discovery off; without it the index is in memory for
// the embedded store alone, and under the user's cache directory, keyed
// by the root, with --sessions.
func TestIndexFlags(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("LocalAppData", cache)
	root := t.TempDir()
	cacheDir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		discover bool
		inCache  bool
	}{
		{nil, true, false},
		{[]string{"--no-index"}, false, false},
		{[]string{"--sessions", root}, true, true},
		{[]string{"--sessions", root, "--no-index"}, false, false},
	} {
		f, err := parseFlags(c.args, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		var o demo.Options
		done, err := addIndex(&o, f)
		if err != nil {
			t.Fatal(err)
		}
		done()
		if o.Discover != c.discover || (o.DiscoverPath != "") != c.inCache {
			t.Fatalf("%q: discover %v path %q", c.args, o.Discover, o.DiscoverPath)
		}
		if c.inCache {
			if strings.HasPrefix(o.DiscoverPath, root) || len(o.DiscoverRefuse) != 1 || o.DiscoverRefuse[0] != root {
				t.Fatalf("%q: path %q refuse %q", c.args, o.DiscoverPath, o.DiscoverRefuse)
			}
			if d, err := filepath.Rel(cacheDir, o.DiscoverPath); err != nil || strings.HasPrefix(d, "..") {
				t.Fatalf("%q: %q is not under the cache dir %q", c.args, o.DiscoverPath, cacheDir)
			}
		}
	}
	// A big embedded corpus is indexed in a temporary file, removed after.
	f, err := parseFlags([]string{"--count", fmt.Sprint(memoryIndexMax + 1)}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var o demo.Options
	done, err := addIndex(&o, f)
	if err != nil || !o.Discover || o.DiscoverPath == "" {
		t.Fatalf("a big corpus: discover %v path %q err %v", o.Discover, o.DiscoverPath, err)
	}
	// …bounded: the index holds the head of each generated session.
	if len(o.DiscoverOptions) != 1 {
		t.Fatalf("a big corpus's index is not bounded: %d options", len(o.DiscoverOptions))
	}
	if _, err := os.Stat(filepath.Dir(o.DiscoverPath)); err != nil {
		t.Fatal(err)
	}
	done()
	if _, err := os.Stat(filepath.Dir(o.DiscoverPath)); !os.IsNotExist(err) {
		t.Fatalf("the temporary index is left: %v", err)
	}
	if _, err := parseFlags([]string{"--no-index=maybe"}, noEnv); err == nil || !strings.Contains(err.Error(), "--no-index") {
		t.Fatalf("bad --no-index: %v", err)
	}
}

// TestBoundMemory: a big generated corpus runs under a soft memory limit
// of 1.25 × the store + 384 MiB; a small one, or GOMEMLIMIT set, is left
// alone.
func TestBoundMemory(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	was := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(was)
	boundMemory(300)
	if got := debug.SetMemoryLimit(-1); got != was {
		t.Fatalf("a small corpus set a limit of %d", got)
	}
	boundMemory(100000)
	if got, want := debug.SetMemoryLimit(-1), int64(100000)*storeBytesPerSession*5/4+384<<20; got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
	debug.SetMemoryLimit(was)
	t.Setenv("GOMEMLIMIT", "8GiB")
	boundMemory(100000)
	if got := debug.SetMemoryLimit(-1); got != was {
		t.Fatalf("GOMEMLIMIT set, yet a limit of %d", got)
	}
}
