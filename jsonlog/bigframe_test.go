package jsonlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// counting is boxes handing its text over 4 KiB at a time, as a zstd
// decoder does, and counting the text it decodes.
type counting struct {
	boxes
	decoded *atomic.Int64
}

func (x counting) Decode(ctx context.Context, frame []byte, limit int64, emit func([]byte) error) error {
	text := frame[5 : 5+int(binary.BigEndian.Uint32(frame[1:5]))]
	if int64(len(text)) > limit {
		return ErrTooLarge
	}
	for len(text) > 0 {
		p := text[:min(4<<10, len(text))]
		text = text[len(p):]
		x.decoded.Add(int64(len(p)))
		if err := emit(p); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// The lines of a frame too big to keep, read back in order, cost about
// one decode of the frame in all (not one each up to the line); read out
// of order they still read right, and a reader closed or whose context
// ends leaves no decoder running.
func TestBigFrameReadInOrder(t *testing.T) {
	var text strings.Builder
	var places []int64
	for i := 0; text.Len() <= keepFrame+keepFrame/2; i++ {
		places = append(places, int64(text.Len()))
		fmt.Fprintf(&text, "line %d %s\n", i, strings.Repeat("x", i%200))
	}
	path := filepath.Join(t.TempDir(), "log.box")
	write(t, path, box(text.String()))
	decoded := new(atomic.Int64)
	l := New(Limits{}, func(string) *forking { return &forking{} })
	l.SetFraming(func(string) Frames { return counting{boxes{max: 1 << 30}, decoded} })
	_, snap := useFramed(t, l, path)
	all := text.String()
	lineAt := func(i int) (int64, int) {
		end := int64(len(all))
		if i+1 < len(places) {
			end = places[i+1]
		}
		return framePos(0, places[i]), int(end - places[i] - 1)
	}
	goroutines := runtime.NumGoroutine()
	r, err := snap.Open()
	if err != nil {
		t.Fatal(err)
	}
	decoded.Store(0)
	for i := range places {
		at, n := lineAt(i)
		b, err := r.Line(context.Background(), at, n)
		if err != nil || !bytes.Equal(b, []byte(all[places[i]:places[i]+int64(n)])) {
			t.Fatalf("line %d of %d: %q %v", i, len(places), b, err)
		}
		if got := decoded.Load(); got > 3*int64(len(all)) {
			t.Fatalf("%d lines of %d read in order decoded %d bytes of a %d-byte frame", i+1, len(places), got, len(all))
		}
	}
	for _, i := range []int{len(places) - 1, 0, len(places) / 2, 1} { // back and forth
		at, n := lineAt(i)
		if b, err := r.Line(context.Background(), at, n); err != nil || string(b) != all[places[i]:places[i]+int64(n)] {
			t.Fatalf("line %d again: %q %v", i, b, err)
		}
	}
	if at, n := lineAt(len(places) / 2); true {
		if _, err := r.Line(context.Background(), at, n+1); !errors.Is(err, ErrChanged) {
			t.Fatalf("a wrong length: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if at, n := lineAt(3); true {
		if _, err := r.Line(ctx, at, n); !errors.Is(err, context.Canceled) {
			t.Fatalf("a cancelled read: %v", err)
		}
	}
	at, n := lineAt(2)
	if _, err := r.Line(context.Background(), at, n); err != nil {
		t.Fatal(err)
	}
	r.Close()
	for i := 0; runtime.NumGoroutine() > goroutines; i++ {
		if i > 1e6 {
			t.Fatalf("%d goroutines after the reader closed, %d before", runtime.NumGoroutine(), goroutines)
		}
		runtime.Gosched()
	}
}

// Lines of a big frame read newest first, the reader closed between them
// (as Prepare reads an outline's texts), cost one decode of the frame
// while they stay within keepBehind of the first one read.
func TestBigFrameReadBackwardsAcrossCloses(t *testing.T) {
	var text strings.Builder
	var places []int64
	for i := 0; text.Len() <= keepFrame+keepFrame/2; i++ {
		places = append(places, int64(text.Len()))
		fmt.Fprintf(&text, "line %d %s\n", i, strings.Repeat("y", i%150))
	}
	all := text.String()
	path := filepath.Join(t.TempDir(), "log.box")
	write(t, path, box(all))
	decoded := new(atomic.Int64)
	l := New(Limits{}, func(string) *forking { return &forking{} })
	l.SetFraming(func(string) Frames { return counting{boxes{max: 1 << 30}, decoded} })
	_, snap := useFramed(t, l, path)
	r, err := snap.Open()
	if err != nil {
		t.Fatal(err)
	}
	decoded.Store(0)
	last := len(places) - 1
	read := 0
	for i := last; i >= 0 && places[last]-places[i] < keepBehind-1<<10; i-- {
		end := int64(len(all))
		if i < last {
			end = places[i+1]
		}
		b, err := r.Line(context.Background(), framePos(0, places[i]), int(end-places[i]-1))
		if err != nil || string(b) != all[places[i]:end-1] {
			t.Fatalf("line %d: %q %v", i, b, err)
		}
		r.Close()
		read++
	}
	if got := decoded.Load(); got > int64(len(all))+64<<10 {
		t.Fatalf("%d lines read back to front decoded %d bytes of a %d-byte frame", read, got, len(all))
	}
	if read < 1000 {
		t.Fatalf("only %d lines read", read)
	}
}
