package jsonlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// hookedLog is a framed log (boxes for .box paths) whose framing calls
// hook first: the engine asks for a log's framing after opening it and
// before reading it, so the hook can change the file there.
func hookedLog(hook func(path string)) *Log[*forking] {
	l := New(Limits{}, func(string) *forking { return &forking{} })
	l.SetFraming(func(path string) Frames {
		if hook != nil {
			hook(path)
		}
		if strings.HasSuffix(path, ".box") {
			return boxes{max: 1 << 30}
		}
		return nil
	})
	return l
}

// A torn frame's lines are read back only while the torn bytes are the
// ones indexed: a writer that undoes a torn write and writes another
// frame in its place (a bigger file, the bytes before it kept) must not
// have its new lines served as the old ones.
func TestTornFrameRewrittenIsChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	head := box("h\n")
	whole := box("a\nbb\ncc\n")
	write(t, path, head+whole[:len(whole)-1]) // torn: "a", "bb" decode
	l := framedLog(1 << 20)
	got, snap := useFramed(t, l, path)
	if len(got) != 3 || snap.Lines != 3 {
		t.Fatalf("the torn frame's lines: %q", got)
	}
	if b, err := snap.ReadLine(framePos(1, 2), 2); err != nil || string(b) != "bb" {
		t.Fatalf("read back: %q %v", b, err)
	}
	// The writer truncates the torn frame and writes a different one.
	other := box("a\nXY\nccc\n")
	write(t, path, head+other)
	if b, err := snap.ReadLine(framePos(1, 2), 2); !errors.Is(err, ErrChanged) {
		t.Fatalf("the rewritten torn frame was read as the old one: %q %v", b, err)
	}
	// The frame completed as it was written is still read.
	write(t, path, head+whole)
	if b, err := snap.ReadLine(framePos(1, 2), 2); err != nil || string(b) != "bb" {
		t.Fatalf("the torn frame, completed: %q %v", b, err)
	}
}

// A log cut short between its open and its read is a changed log (read
// again), not a corrupt one; its head, cut before its first line ends,
// is no line yet; raw or framed.
func TestShrinkBeforeTheReadIsChanged(t *testing.T) {
	for _, name := range []string{"log.box", "log.jsonl"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			data := box("a\n") + box("bb\n") + box("ccc\n")
			if name == "log.jsonl" {
				data = "a\nbb\nccc\n"
			}
			write(t, path, data)
			cuts := []int64{9, 1}
			l := hookedLog(func(p string) {
				if len(cuts) > 0 {
					if err := os.Truncate(p, cuts[0]); err != nil {
						t.Error(err)
					}
					cuts = cuts[1:]
				}
			})
			err := l.Use(context.Background(), path, func(*forking, Snapshot) error { return nil })
			var fe *FileError
			if !errors.Is(err, ErrChanged) || !errors.As(err, &fe) {
				t.Fatalf("got %v", err)
			}
			if line, _, err := l.Head(context.Background(), path, 100); line != nil || err != nil {
				t.Fatalf("the head of a log cut before its first line ends: %q %v", line, err)
			}
		})
	}
}

// A line read back from a raw log cut short after the reader opened it
// is a changed log, not an unreadable one.
func TestRawLineCutIsChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	write(t, path, "alpha\nbeta\ngamma\n")
	l, _ := newLog(Limits{})
	_, snap := use(t, l, path)
	r, err := snap.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Truncate(path, 8); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Line(context.Background(), 11, 5); !errors.Is(err, ErrChanged) {
		t.Fatalf("a cut line: %q %v", b, err)
	}
}

// Head of a framed log whose first frame is huge reads what the first
// line needs, not the frame.
func TestHeadOfAHugeFirstFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	write(t, path, box("head\n"+strings.Repeat("x", 32<<20)+"\n"))
	l := framedLog(1 << 30)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line, _, err := l.Head(context.Background(), path, 1<<10)
	runtime.ReadMemStats(&after)
	if err != nil || string(line) != "head" {
		t.Fatalf("%q %v", line, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Fatalf("Head allocated %d bytes for a 5-byte line", got)
	}
	// A first line that does not end within the cap is too large.
	write(t, path, box(strings.Repeat("y", 8<<20)+"\n"))
	if _, _, err := l.Head(context.Background(), path, 1<<10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a long first line: %v", err)
	}
}

// FuzzFramesAppend: a framed log read whole, or read at a cut and again
// after the rest is written, gives the same lines, even when the writer
// changed a byte of the torn frame at the cut before finishing it; every
// line reads back; a line read back through the first read's snapshot
// is the line it indexed or ErrChanged, never the new bytes; any error
// is a *FileError.
func FuzzFramesAppend(f *testing.F) {
	f.Add([]byte(box("a\nbb\n")+box("ccc\n")+box("dd\ne\n")), uint16(9), uint8(2), uint8(0))
	f.Add([]byte(box("h\n")+box("ab\ncd\n")), uint16(17), uint8(9), uint8(6))
	f.Add([]byte(box("a\n")+"xyz"), uint16(3), uint8(0), uint8(0))
	f.Add([]byte(box("")+box("\n\n")+box("abc")), uint16(12), uint8(1), uint8(3))
	f.Add([]byte(box("a\n")+box(strings.Repeat("z", 40)+"\n")), uint16(20), uint8(4), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, cap8, flip uint8) {
		path := filepath.Join(t.TempDir(), "log.box")
		maxLine := int(cap8) + 1
		newL := func() *Log[*forking] {
			l := New(Limits{MaxLineBytes: maxLine}, func(string) *forking { return &forking{lines: lines{max: maxLine}} })
			l.SetFraming(func(string) Frames { return boxes{max: 1 << 12} })
			return l
		}
		c := int(cut) % (len(data) + 1)
		first := bytes.Clone(data[:c])
		if t0 := tornAt(first); flip != 0 && c > t0 {
			first[t0+(int(flip)-1)%(c-t0)] ^= 0x20 // a byte of the torn frame, as the writer first wrote it
		}
		write(t, path, string(first))
		inc := newL()
		got1, snap1, err1 := readFramed(t, inc, path)
		write(t, path, string(data)) // the same file: only the torn frame may differ
		got, snap, err := readFramed(t, inc, path)
		want, _, werr := readFramed(t, newL(), path)
		if (err == nil) != (werr == nil) || !slices.Equal(got, want) {
			t.Fatalf("after the write %q %v; read whole %q %v", got, err, want, werr)
		}
		if err1 == nil {
			checkLines(t, snap1, got1, true)
		}
		if err == nil {
			checkLines(t, snap, got, false)
		}
	})
}

// tornAt is where the last frame of b that is not whole starts (len(b)
// when every frame is whole, or where the bytes stop being frames).
func tornAt(b []byte) int {
	off := 0
	for off < len(b) {
		n, whole, err := (boxes{}).Frame(b[off:])
		if err != nil || !whole {
			return off
		}
		off += n
	}
	return off
}

func readFramed(t *testing.T, l *Log[*forking], path string) ([]string, Snapshot, error) {
	t.Helper()
	var got []string
	var snap Snapshot
	err := l.Use(context.Background(), path, func(ix *forking, s Snapshot) error {
		got, snap = slices.Clone(ix.got), s
		return nil
	})
	var fe *FileError
	if err != nil && (!errors.As(err, &fe) || !(errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTooLarge))) {
		t.Fatalf("an untyped error: %v", err)
	}
	return got, snap, err
}

// checkLines reads back every line of got ("n@at:text") through snap:
// each must be what was indexed, or, when stale is set, ErrChanged.
func checkLines(t *testing.T, snap Snapshot, got []string, stale bool) {
	t.Helper()
	r, err := snap.Open()
	if stale && errors.Is(err, ErrChanged) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, g := range got {
		if strings.Contains(g, ":long(") {
			continue
		}
		var n int
		var at int64
		var text string
		if err := parseLine(g, &n, &at, &text); err != nil {
			t.Fatal(err)
		}
		b, err := r.Line(context.Background(), at, len(text))
		if stale && errors.Is(err, ErrChanged) {
			continue
		}
		if err != nil || string(b) != text {
			t.Fatalf("line %d at %d: %q %v, want %q", n, at, b, err, text)
		}
	}
}

// parseLine parses "n@at:text" as the lines indexer writes it.
func parseLine(s string, n *int, at *int64, text *string) error {
	num, rest, ok := strings.Cut(s, "@")
	pos, txt, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return errors.New("not a line: " + s)
	}
	var err error
	if *n, err = strconv.Atoi(num); err != nil {
		return err
	}
	p, err := strconv.Atoi(pos)
	*at, *text = int64(p), txt
	return err
}

// Head of a framed log whose first frame is torn gives what its whole
// lines say: the first line when it is whole, else no line.
func TestHeadOfATornFirstFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	l := framedLog(1 << 20)
	for data, want := range map[string]string{box("head\nrest\n")[:8]: "", box("head\nrest\n")[:11]: "head"} {
		write(t, path, data)
		line, _, err := l.Head(context.Background(), path, 100)
		if err != nil || string(line) != want || (want == "") != (line == nil) {
			t.Fatalf("%q: %q %v", data, line, err)
		}
	}
}

// badFrames says every frame is whole and n bytes long, whatever the
// bytes: a Frames that breaks its contract.
type badFrames struct{ n int }

func (x badFrames) Frame([]byte) (int, bool, error) { return x.n, true, nil }
func (badFrames) Decode(_ context.Context, frame []byte, _ int64, emit func([]byte) error) error {
	return emit(frame)
}
func (badFrames) MaxText(int64) int64 { return 1 << 20 }

// A framing that calls a frame empty, or longer than the bytes there
// are, makes the log corrupt: it neither hangs nor panics the engine.
func TestFramesBreakingTheirContract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.bad")
	write(t, path, "a\nb\n")
	for _, n := range []int{0, -1, 100} {
		l := New(Limits{}, func(string) *forking { return &forking{} })
		l.SetFraming(func(string) Frames { return badFrames{n} })
		err := l.Use(context.Background(), path, func(*forking, Snapshot) error { return nil })
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("a frame of %d bytes: %v", n, err)
		}
		if _, _, err := l.Head(context.Background(), path, 100); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("the head, a frame of %d bytes: %v", n, err)
		}
	}
}

// countedBoxes are boxes decoded in pieces of 4 KiB, counting the text
// they decode.
type countedBoxes struct {
	boxes
	decoded *int64
}

func (x countedBoxes) Decode(ctx context.Context, frame []byte, limit int64, emit func([]byte) error) error {
	text := frame[min(5, len(frame)):]
	if len(frame) >= 5 {
		text = text[:min(len(text), int(binary.BigEndian.Uint32(frame[1:5])))]
	}
	for len(text) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := text[:min(4<<10, len(text))]
		text = text[len(p):]
		*x.decoded += int64(len(p))
		if err := emit(p); err != nil {
			return err
		}
	}
	return nil
}

// Lines read back in order from a frame bigger than keepFrame decode it
// once, not once a line; out of order, and after a cancelled line, they
// are still right; a cancelled line is a cancellation, not a change.
func TestLinesOfABigFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	var text strings.Builder
	for i := range (keepFrame + 1<<20) / 256 {
		fmt.Fprintf(&text, "%0255d\n", i)
	}
	write(t, path, box("h\n")+box(text.String()))
	decoded := new(int64)
	l := New(Limits{}, func(string) *forking { return &forking{} })
	l.SetFraming(func(string) Frames { return countedBoxes{boxes{max: 1 << 30}, decoded} })
	var snap Snapshot
	var got []string
	if err := l.Use(context.Background(), path, func(ix *forking, s Snapshot) error {
		snap, got = s, slices.Clone(ix.got)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	*decoded = 0
	r, err := snap.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	read := func(ctx context.Context, i int) ([]byte, error) {
		var n int
		var at int64
		var want string
		if err := parseLine(got[i], &n, &at, &want); err != nil {
			t.Fatal(err)
		}
		b, err := r.Line(ctx, at, len(want))
		if err == nil && string(b) != want {
			t.Fatalf("line %d: %q, want %q", i, b, want)
		}
		return b, err
	}
	for i := 1; i < len(got); i++ {
		if _, err := read(context.Background(), i); err != nil {
			t.Fatal(err)
		}
		if size := int64(text.Len()); *decoded > 2*size {
			t.Fatalf("reading %d lines in order decoded %d bytes of a %d-byte frame", i, *decoded, size)
		}
	}
	for _, i := range []int{len(got) - 1, 1, len(got) / 2, 2} {
		if _, err := read(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := read(ctx, 1); !errors.Is(err, context.Canceled) || errors.Is(err, ErrChanged) {
		t.Fatalf("a cancelled line: %v", err)
	}
	if _, err := read(context.Background(), len(got)-1); err != nil {
		t.Fatalf("after a cancelled line: %v", err)
	}
}

// Many goroutines reading, dropping and forgetting logs through one
// cache with a small budget: the cache ends within its budget, counting
// exactly the entries it holds, and every read sees its file's lines.
// Run it with -race.
func TestCacheUnderConcurrency(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 12 {
		p := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		write(t, p, strings.Repeat(fmt.Sprintf("line %d\n", i), 10+i))
		paths = append(paths, p)
	}
	l := New(Limits{CacheBytes: 4 * (EntryOverhead + 32*20)}, func(string) *lines { return &lines{max: DefaultMaxLineBytes} })
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 300 {
				i := (g*7 + n) % len(paths)
				switch {
				case n%50 == 49 && g == 0:
					l.Forget()
				case n%17 == 0:
					l.Drop(paths[i])
				}
				err := l.Use(context.Background(), paths[i], func(ix *lines, s Snapshot) error {
					if len(ix.got) != 10+i || s.Lines != 10+i {
						return fmt.Errorf("%s: %d lines", paths[i], len(ix.got))
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	sum := int64(0)
	for _, e := range l.files {
		sum += e.size
	}
	if sum != l.used || l.used > l.lim.CacheBytes || len(l.files) == 0 {
		t.Fatalf("%d entries counted %d bytes, hold %d; budget %d", len(l.files), l.used, sum, l.lim.CacheBytes)
	}
}

// Frames that hold no line cost the index nothing: a log of many empty
// frames keeps the places of the frames with lines only, and each line
// still reads back.
func TestEmptyFramesKeepNoPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.box")
	data := box("h\n") + strings.Repeat(box(""), 1000) + box("a\nb\n") + strings.Repeat(box(""), 1000) + box("c\n")
	write(t, path, data)
	got, snap := useFramed(t, framedLog(1<<20), path)
	if len(snap.offs) != 3 || len(got) != 4 {
		t.Fatalf("%d places kept for %q", len(snap.offs), got)
	}
	checkLines(t, snap, got, false)
}

// A torn last line already over the cap is no line yet: completed by
// an append, it is handed over as Long once, with its length, and the
// lines after it keep their numbers and offsets (its bytes before the
// append are only counted again, not gathered).
func TestTornLongLineOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	write(t, path, "a\n"+strings.Repeat("x", 10))
	l, _ := newLog(Limits{MaxLineBytes: 4})
	if got, snap := use(t, l, path); !slices.Equal(got, []string{"1@0:a"}) || snap.End != 2 || snap.Lines != 1 {
		t.Fatalf("%q end %d", got, snap.End)
	}
	appendTo(t, path, "xx\nbb\n")
	got, snap := use(t, l, path)
	if want := []string{"1@0:a", "2@2:long(12)", "3@15:bb"}; !slices.Equal(got, want) || snap.End != 18 || snap.Lines != 3 {
		t.Fatalf("after the append: %q end %d lines %d, want %q", got, snap.End, snap.Lines, want)
	}
	if b, err := snap.ReadLine(15, 2); err != nil || string(b) != "bb" {
		t.Fatalf("read back: %q %v", b, err)
	}
}
