package jsonlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// boxes is a framing for tests: a frame is 'B', a 4-byte length and the
// text, stored as is.
type boxes struct{ max int64 }

func (boxes) Frame(b []byte) (int, bool, error) {
	if len(b) > 0 && b[0] != 'B' {
		return 0, false, errors.New("not a box")
	}
	if len(b) < 5 {
		return 0, false, nil
	}
	n := 5 + int(binary.BigEndian.Uint32(b[1:5]))
	return n, n <= len(b), nil
}

func (x boxes) Decode(ctx context.Context, frame []byte, limit int64, emit func([]byte) error) error {
	text := frame[min(5, len(frame)):]
	if len(frame) >= 5 {
		text = text[:min(len(text), int(binary.BigEndian.Uint32(frame[1:5])))]
	}
	if int64(len(text)) > limit {
		return ErrTooLarge
	}
	for len(text) > 0 { // in pieces of 3, as a stream would
		p := text[:min(3, len(text))]
		text = text[len(p):]
		if err := emit(p); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (x boxes) MaxText(int64) int64 { return x.max }

func box(text string) string {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(text)))
	return "B" + string(n[:]) + text
}

// forking is a lines indexer that can fork.
type forking struct{ lines }

func (f *forking) Fork() *forking {
	c := *f
	c.got = slices.Clone(f.got)
	return &c
}

func framedLog(max int64) *Log[*forking] {
	l := New(Limits{}, func(string) *forking { return &forking{} })
	l.SetFraming(func(path string) Frames {
		if strings.HasSuffix(path, ".box") {
			return boxes{max: max}
		}
		return nil
	})
	return l
}

func useFramed(t *testing.T, l *Log[*forking], path string) ([]string, Snapshot) {
	t.Helper()
	var got []string
	var snap Snapshot
	if err := l.Use(context.Background(), path, func(ix *forking, s Snapshot) error {
		got, snap = slices.Clone(ix.got), s
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got, snap
}

// A framed log's lines are fed frame by frame; those of a torn last
// frame go to a fork, which the next read after an append drops; every
// line reads back by its place.
func TestFrames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	write(t, path, box("a\nbb\n")+box("ccc\n")+box("dd\ne\n")[:9])
	l := framedLog(1 << 20)
	got, snap := useFramed(t, l, path)
	want := []string{"1@0:a", "2@2:bb", fmt.Sprintf("3@%d:ccc", framePos(1, 0)), fmt.Sprintf("4@%d:dd", framePos(2, 0))}
	if !slices.Equal(got, want) || snap.Lines != 4 || snap.End != 19 {
		t.Fatalf("got %q lines %d end %d", got, snap.Lines, snap.End)
	}
	for _, c := range []struct {
		at   int64
		n    int
		want string
	}{{2, 2, "bb"}, {0, 1, "a"}, {framePos(1, 0), 3, "ccc"}, {framePos(2, 0), 2, "dd"}} {
		if b, err := snap.ReadLine(c.at, c.n); err != nil || string(b) != c.want {
			t.Fatalf("read back %d: %q %v", c.at, b, err)
		}
	}
	if _, err := snap.ReadLine(framePos(1, 0), 2); !errors.Is(err, ErrChanged) {
		t.Fatalf("a wrong length: %v", err)
	}
	// The torn frame is finished: its lines now go to the index itself.
	write(t, path, box("a\nbb\n")+box("ccc\n")+box("dd\ne\n")+box("f\n"))
	got, _ = useFramed(t, l, path)
	if want := append(want, fmt.Sprintf("5@%d:e", framePos(2, 3)), fmt.Sprintf("6@%d:f", framePos(3, 0))); !slices.Equal(got, want) {
		t.Fatalf("after the append: %q", got)
	}
}

// Framing that is not frames, a frame that ends inside a line and text
// over the cap are typed errors.
func TestFramesHostile(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data string
		max  int64
		want error
	}{
		"garbage": {box("a\n") + "xyz", 1 << 20, ErrCorrupt},
		"cut":     {box("a\nb"), 1 << 20, ErrCorrupt},
		"bomb":    {box("a\n") + box(strings.Repeat("x\n", 100)), 50, ErrTooLarge},
	} {
		path := filepath.Join(dir, name+".box")
		write(t, path, c.data)
		err := framedLog(c.max).Use(context.Background(), path, func(*forking, Snapshot) error { return nil })
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Head reads the first line only, of a raw or a framed log.
func TestHead(t *testing.T) {
	dir := t.TempDir()
	l := framedLog(1 << 20)
	for name, data := range map[string]string{"a.jsonl": "head\nrest\n", "b.box": box("head\nrest\n") + "B"} {
		path := filepath.Join(dir, name)
		write(t, path, data)
		line, key, err := l.Head(context.Background(), path, 100)
		if err != nil || string(line) != "head" || key.Size != int64(len(data)) {
			t.Fatalf("%s: %q %v", name, line, err)
		}
	}
	torn := filepath.Join(dir, "c.jsonl")
	write(t, torn, "hea")
	if line, _, err := l.Head(context.Background(), torn, 100); line != nil || err != nil {
		t.Fatalf("a torn first line: %q %v", line, err)
	}
	if _, _, err := l.Head(context.Background(), torn, 2); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a long first line: %v", err)
	}
	if err := os.Remove(torn); err != nil {
		t.Fatal(err)
	}
}
