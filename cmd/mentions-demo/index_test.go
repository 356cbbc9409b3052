package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// With no cache directory to put the index in, the demo starts without
// full-text search and says why, rather than failing.
func TestIndexWithoutCacheDir(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" || runtime.GOOS == "plan9" {
		t.Skip("the cache directory comes from XDG_CACHE_HOME and HOME on this system only")
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	f, err := parseFlags([]string{"--sessions", t.TempDir()}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	o := demo.Options{Notice: "2 logs skipped"}
	done, err := addIndex(&o, f)
	if err != nil {
		t.Fatalf("no cache directory: %v", err)
	}
	done()
	if o.Discover || !strings.HasPrefix(o.Notice, "2 logs skipped · full-text search is off") {
		t.Fatalf("discover %v, notice %q", o.Discover, o.Notice)
	}
}
