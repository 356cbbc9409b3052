package jsonlog

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
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
