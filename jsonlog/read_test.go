package jsonlog

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A reader reads a raw log's lines back through its window whatever the
// order it is asked for them in (on, back, at random; lines across the
// window's end and longer than it), and lines asked for in order cost a
// read a window, not one a line.
func TestLinesWindow(t *testing.T) {
	var data []byte
	type place struct {
		at int64
		n  int
	}
	var places []place
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		n := rnd.IntN(300)
		if i%500 == 7 {
			n = readAhead + rnd.IntN(3*readAhead) // longer than the window
		}
		line := bytes.Repeat([]byte{byte('a' + i%26)}, n)
		places = append(places, place{int64(len(data)), n})
		data = append(append(data, line...), '\n')
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l, _ := newLog(Limits{})
	_, snap := use(t, l, path)
	orders := map[string][]int{"on": nil, "back": nil, "random": rnd.Perm(len(places))}
	for i := range places {
		orders["on"] = append(orders["on"], i)
		orders["back"] = append(orders["back"], len(places)-1-i)
	}
	for name, order := range orders {
		r, err := snap.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range order {
			p := places[i]
			b, err := r.Line(context.Background(), p.at, p.n)
			if err != nil || !bytes.Equal(b, data[p.at:p.at+int64(p.n)]) {
				t.Fatalf("%s: line %d: %d bytes, %v", name, i, len(b), err)
			}
		}
		// In order: a read a window, and two for each long line (it and
		// the window after it).
		if most := 2*(len(data)/readAhead+1) + 2*6; name == "on" && r.reads > most {
			t.Errorf("read in order: %d reads of the file for %d lines (%d bytes), want at most %d", r.reads, len(places), len(data), most)
		}
		r.Close()
	}
}

// counted is an indexer that keeps only a count of lines.
type counted struct{ n int }

func (c *counted) Line(int, int64, []byte) { c.n++ }
func (c *counted) Long(int, int64, int64)  { c.n++ }
func (c *counted) Size() int64             { return 8 }
func newCounted(string) *counted           { return &counted{} }
func scanOnce(t *testing.T, path string) int {
	t.Helper()
	l := New(Limits{}, newCounted)
	n := 0
	if err := l.Use(context.Background(), path, func(c *counted, _ Snapshot) error { n = c.n; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// Scans one after another share their read buffer: a listing of many
// logs does not allocate one for each.
func TestScansShareTheirBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops buffers put back in a pool")
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, bytes.Repeat([]byte("a line of a log\n"), 3*bufBytes/16), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := scanOnce(t, path); n != 3*bufBytes/16 {
		t.Fatalf("%d lines", n)
	}
	const scans = 40
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range scans {
		scanOnce(t, path)
	}
	runtime.ReadMemStats(&after)
	// A buffer a scan would be scans × bufBytes.
	if got := after.TotalAlloc - before.TotalAlloc; got > scans/2*bufBytes {
		t.Errorf("%d scans allocated %d bytes (%d a scan), a read buffer is %d", scans, got, got/scans, bufBytes)
	}
}
