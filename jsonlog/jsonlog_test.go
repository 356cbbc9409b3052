package jsonlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lines is an indexer that records what it is fed.
type lines struct {
	got  []string // "n@off:text" or "n@off:long(len)"
	fed  int      // lines fed to this indexer, across appends
	max  int      // the line cap: a long line is longer
	made *int     // counts indexers made, shared
}

func (l *lines) Line(n int, off int64, line []byte) {
	l.got = append(l.got, fmt.Sprintf("%d@%d:%s", n, off, line))
	l.fed++
}
func (l *lines) Long(n int, off int64, length int64) {
	if length <= int64(l.max) {
		panic(fmt.Sprintf("line %d handed over as long at %d bytes", n, length))
	}
	l.got = append(l.got, fmt.Sprintf("%d@%d:long(%d)", n, off, length))
	l.fed++
}
func (l *lines) Size() int64 { return int64(len(l.got)) * 32 }

func newLog(lim Limits) (*Log[*lines], *int) {
	made := new(int)
	return New(lim, func(string) *lines { *made++; return &lines{made: made, max: lim.withDefaults().MaxLineBytes} }), made
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

func use(t *testing.T, l *Log[*lines], path string) ([]string, Snapshot) {
	t.Helper()
	var got []string
	var snap Snapshot
	err := l.Use(context.Background(), path, func(ix *lines, s Snapshot) error {
		got, snap = slices.Clone(ix.got), s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, snap
}

// Lines are handed over with their numbers and offsets; one over the
// cap, even one longer than the read buffer, is reported by length and
// never held; the torn tail waits.
func TestScan(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	huge := strings.Repeat("x", 200<<10) // over the 64 KiB buffer
	write(t, path, "a\n"+huge+"\nbb\n\n"+strings.Repeat("y", 100<<10)+"\ntorn")
	l, _ := newLog(Limits{MaxLineBytes: 150 << 10})
	got, snap := use(t, l, path)
	want := []string{
		"1@0:a",
		fmt.Sprintf("2@2:long(%d)", 200<<10),
		fmt.Sprintf("3@%d:bb", 3+200<<10),
		fmt.Sprintf("4@%d:", 6+200<<10),
		fmt.Sprintf("5@%d:%s", 7+200<<10, strings.Repeat("y", 100<<10)),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %d lines %.200q", len(got), got)
	}
	if snap.Lines != 5 || snap.End != int64(8+300<<10) {
		t.Fatalf("snapshot lines %d end %d", snap.Lines, snap.End)
	}
	line, err := snap.ReadLine(int64(3+200<<10), 2)
	if err != nil || string(line) != "bb" {
		t.Fatalf("read back %q %v", line, err)
	}
}

// An append feeds the same indexer only the new lines; a rewrite, a
// shrink or a replaced file starts a new one.
func TestAppendAndRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	write(t, path, "one\ntw")
	l, made := newLog(Limits{})
	got, _ := use(t, l, path)
	if !slices.Equal(got, []string{"1@0:one"}) {
		t.Fatal(got)
	}
	appendTo(t, path, "o\nthree\n")
	got, _ = use(t, l, path)
	if !slices.Equal(got, []string{"1@0:one", "2@4:two", "3@8:three"}) || *made != 1 {
		t.Fatalf("after an append: %v, %d indexers", got, *made)
	}
	// A change before the end of what was read is a rewrite.
	write(t, path, "one\ntwo\nthreX\nfour\n")
	got, _ = use(t, l, path)
	if *made != 2 || len(got) != 4 || got[2] != "3@8:threX" {
		t.Fatalf("after a rewrite: %v, %d indexers", got, *made)
	}
	write(t, path, "one\n")
	got, _ = use(t, l, path)
	if *made != 3 || !slices.Equal(got, []string{"1@0:one"}) {
		t.Fatalf("after a shrink: %v, %d indexers", got, *made)
	}
	// Unchanged: the cached index, no read.
	use(t, l, path)
	if *made != 3 {
		t.Fatal("an unchanged file was read again")
	}
}

// A line read back must still be where the index says.
func TestReadLineChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	write(t, path, "alpha\nbeta\n")
	l, _ := newLog(Limits{})
	_, snap := use(t, l, path)
	if _, err := snap.ReadLine(6, 3); !errors.Is(err, ErrChanged) {
		t.Fatalf("a wrong length: %v", err)
	}
	if _, err := snap.ReadLine(6, 40); !errors.Is(err, ErrChanged) {
		t.Fatalf("past the end: %v", err)
	}
	appendTo(t, path, "gamma\n")
	if b, err := snap.ReadLine(6, 4); err != nil || string(b) != "beta" {
		t.Fatalf("after an append: %q %v", b, err)
	}
	write(t, path, "alpha\nBETA\n")
	if _, err := snap.ReadLine(6, 4); !errors.Is(err, ErrChanged) {
		t.Fatalf("after a rewrite: %v", err)
	}
}

// Files that are not logs are refused with a typed error.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.jsonl")
	write(t, big, strings.Repeat("{}\n", 1000))
	l, _ := newLog(Limits{MaxLogBytes: 100})
	err := l.Use(context.Background(), big, func(*lines, Snapshot) error { return nil })
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a big file: %v", err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(big, link); err == nil {
		err = l.Use(context.Background(), link, func(*lines, Snapshot) error { return nil })
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("a link: %v", err)
		}
	}
	err = l.Use(context.Background(), dir, func(*lines, Snapshot) error { return nil })
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a directory: %v", err)
	}
	err = l.Use(context.Background(), filepath.Join(dir, "gone"), func(*lines, Snapshot) error { return nil })
	if !errors.Is(err, ErrUnreadable) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// The cache holds its budget: entries beyond it are dropped.
func TestCacheBudget(t *testing.T) {
	dir := t.TempDir()
	l, made := newLog(Limits{CacheBytes: 3 * (EntryOverhead + 32*10)})
	for i := range 10 {
		p := filepath.Join(dir, fmt.Sprint(i))
		write(t, p, strings.Repeat("line\n", 10))
		use(t, l, p)
	}
	l.mu.Lock()
	n, used := len(l.files), l.used
	l.mu.Unlock()
	if n > 3 || used > l.lim.CacheBytes || *made != 10 {
		t.Fatalf("%d entries, %d bytes, %d indexers", n, used, *made)
	}
}

// A cancelled context stops a read.
func TestCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	write(t, path, strings.Repeat("x\n", 5000))
	l, _ := newLog(Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Use(ctx, path, func(*lines, Snapshot) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// FuzzScan: whatever the bytes and the line cap, the lines handed over
// are exactly the file's complete lines (or their lengths), in order,
// and a torn tail already over the cap (by its length), and reading one
// back returns it.
func FuzzScan(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint8(2))
	f.Add([]byte("\n\n\n"), uint8(0))
	f.Add(bytes.Repeat([]byte("xy\n"), 100), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cap8 uint8) {
		path := filepath.Join(t.TempDir(), "log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		maxLine := int(cap8) + 1
		l, _ := newLog(Limits{MaxLineBytes: maxLine})
		got, snap := use(t, l, path)
		var want []string
		off := 0
		for n := 1; ; n++ {
			i := bytes.IndexByte(data[off:], '\n')
			if i < 0 {
				break
			}
			if i > maxLine {
				want = append(want, fmt.Sprintf("%d@%d:long(%d)", n, off, i))
			} else {
				want = append(want, fmt.Sprintf("%d@%d:%s", n, off, data[off:off+i]))
				b, err := snap.ReadLine(int64(off), i)
				if err != nil || !bytes.Equal(b, data[off:off+i]) {
					t.Fatalf("read back line %d: %q %v", n, b, err)
				}
			}
			off += i + 1
		}
		if !slices.Equal(got, want) || snap.End != int64(off) || snap.Lines != len(want) {
			t.Fatalf("got %q end %d, want %q end %d", got, snap.End, want, off)
		}
	})
}
