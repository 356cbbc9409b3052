package dshlog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshkit/mentions/dshlog/internal/hostile"
	"github.com/dshkit/mentions/sessionref"
)

// foldNaive is the fold as the format states it, on a slice: the
// reference the linked-list fold must agree with.
func foldNaive(path string, evs []event) ([]int64, error) {
	var nodes []int64
	at := func(seq int64) *event {
		i, _ := slices.BinarySearchFunc(evs, seq, func(e event, s int64) int { return int(e.seq - s) })
		return &evs[i]
	}
	{
		for i := range evs {
			e := &evs[i]
			if !e.isMessage() {
				continue
			}
			x := e.extra()
			seen := map[int64]bool{}
			for _, s := range x.sources {
				if s < 0 || s >= e.seq || seen[s] {
					return nil, logErr(path, int(e.line), ErrCorrupt, "sourceEventSeqs of seq %d must be unique, earlier seqs", e.seq)
				}
				seen[s] = true
			}
			if x.replace == nil {
				nodes = append(nodes, e.seq)
				continue
			}
			i, j := slices.Index(nodes, x.replace[0]), slices.Index(nodes, x.replace[1])
			if i < 0 || j < 0 || i > j {
				return nil, logErr(path, int(e.line), ErrCorrupt, "replace %d..%d does not name a current range", x.replace[0], x.replace[1])
			}
			for _, s := range nodes[i : j+1] {
				if len(x.sources) == 0 || !seen[s] {
					return nil, logErr(path, int(e.line), ErrCorrupt, "replace at seq %d does not cite shadowed seq %d", e.seq, s)
				}
			}
			if e.typ == sessionref.EventToolResult && (i != j || at(nodes[i]).typ != sessionref.EventToolResult) {
				return nil, logErr(path, int(e.line), ErrCorrupt, "a tool/result replace must shadow exactly one tool/result")
			}
			nodes = slices.Replace(nodes, i, j+1, e.seq)
		}
	}
	return nodes, nil
}

// opsEvents turns bytes into a run of surface events: appends, and
// replaces of ranges picked among earlier seqs, citing all, some or none
// of them; the types alternate user messages and tool results.
func opsEvents(ops []byte) []event {
	var evs []event
	for i := 0; i+2 < len(ops); i += 3 {
		seq := int64(len(evs))
		typ := sessionref.EventUserMessage
		if ops[i]&4 != 0 {
			typ = sessionref.EventToolResult
		}
		e := event{seq: seq, typ: typ, short: true, line: int32(seq + 2)}
		if ops[i]&3 == 0 && seq > 0 {
			a, b := int64(ops[i+1])%seq, int64(ops[i+2])%seq
			x := e.setExtra()
			x.replace = &[2]int64{a, b}
			lo, hi := min(a, b), max(a, b)
			for s := lo; s <= hi; s++ {
				if ops[i]&8 == 0 || s != hi {
					x.sources = append(x.sources, s)
				}
			}
			if ops[i]&16 != 0 && seq > 1 { // cite everything before
				x.sources = x.sources[:0]
				for s := int64(0); s < seq; s++ {
					x.sources = append(x.sources, s)
				}
			}
		}
		evs = append(evs, e)
	}
	return evs
}

// foldRuns is the fold as an index does it, over runs.
func foldRuns(evs []event) ([]int64, error) {
	var msgs bitset
	runs := newRunList(&msgs)
	kinds := map[int64]string{}
	fr := folder{path: "fuzz", l: runs, toolResult: func(seq int64) bool { return kinds[seq] == sessionref.EventToolResult }}
	for i := range evs {
		msgs.set(evs[i].seq)
		kinds[evs[i].seq] = evs[i].typ
		if err := fr.take(&evs[i]); err != nil {
			return nil, err
		}
	}
	return runs.seqs(), nil
}

// FuzzFold checks the linear fold against the format's own on random
// runs of appends and replaces: the same surface or the same error, with
// seqs consecutive and spread out (as the other events of a log spread
// messages out).
func FuzzFold(f *testing.F) {
	f.Add([]byte{1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 16, 0, 2})
	f.Add([]byte{1, 0, 0, 1, 0, 0, 0, 1, 0}) // a range the wrong way round
	f.Add([]byte{5, 0, 0, 4, 0, 0, 4, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		evs := opsEvents(ops)
		got, err := foldRuns(evs)
		want, werr := foldNaive("fuzz", evs)
		if fmt.Sprint(err) != fmt.Sprint(werr) || !slices.Equal(got, want) {
			t.Fatalf("fold %v %v, by the format %v %v", got, err, want, werr)
		}
		var le *LogError
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("untyped %v", err)
		}
		var spreadEvs []event
		spread := func(s int64) int64 { return 3*s + 1 }
		for _, e := range evs {
			e.seq = spread(e.seq)
			if x := e.x; x != nil {
				c := *x
				if c.replace != nil {
					c.replace = &[2]int64{spread(c.replace[0]), spread(c.replace[1])}
				}
				c.sources = nil
				for _, s := range x.sources {
					c.sources = append(c.sources, spread(s))
				}
				e.x = &c
			}
			spreadEvs = append(spreadEvs, e)
		}
		got2, err2 := foldRuns(spreadEvs)
		want2, werr2 := foldNaive("fuzz", spreadEvs)
		if fmt.Sprint(err2) != fmt.Sprint(werr2) || !slices.Equal(got2, want2) {
			t.Fatalf("spread out: runs %v %v, by the format %v %v", got2, err2, want2, werr2)
		}
		if (werr2 == nil) != (werr == nil) || werr == nil && len(want2) != len(want) {
			t.Fatalf("spread out: %v %v; as written: %v %v", want2, werr2, want, werr)
		}
	})
}

// BenchmarkFold: 50,000 compactions, each replacing the newest two
// messages of a growing surface, against 150,000 appends (as many
// events) in the same run; scripts/bench-hostile reports the ratio. The
// slice fold took 3 s on the compactions (quadratic); linear, they cost
// about what the appends do.
func BenchmarkFold(b *testing.B) {
	const n = 50_000
	var appends, compactions []event
	for i := range 3 * n {
		appends = append(appends, event{seq: int64(i), typ: sessionref.EventUserMessage, short: true})
	}
	for i := range n {
		u, a := int64(3*i), int64(3*i+1)
		c := event{seq: int64(3*i + 2), typ: sessionref.EventUserMessage, short: true}
		c.setExtra().replace = &[2]int64{u, a}
		c.x.sources = []int64{u, a}
		compactions = append(compactions,
			event{seq: u, typ: sessionref.EventUserMessage, short: true},
			event{seq: a, typ: sessionref.EventUserMessage, short: true}, c)
	}
	for _, c := range []struct {
		name  string
		evs   []event
		nodes int
	}{{"appends", appends, 3 * n}, {"compactions", compactions, n}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				nodes, err := foldRuns(c.evs)
				if err != nil || len(nodes) != c.nodes {
					b.Fatalf("%d nodes, %v", len(nodes), err)
				}
			}
		})
	}
}

// BenchmarkReadHostile reads logs of n and 2n pending tool calls, and of
// n and 2n compactions: the read cost grows linearly when the time of 2n
// is about twice that of n (scripts/bench-hostile prints both ratios and
// the cost of one call or compaction).
func BenchmarkReadHostile(b *testing.B) {
	dir := b.TempDir()
	write := func(name string, fn func(io.Writer) error) string {
		path := filepath.Join(dir, hostile.ProjectDir, name, RawName)
		os.MkdirAll(filepath.Dir(path), 0o755)
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := fn(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		return name
	}
	var cases []string
	for _, n := range []int{50_000, 100_000} {
		cases = append(cases,
			write(fmt.Sprintf("pending-%d", n), func(w io.Writer) error { return hostile.PendingCalls(w, fmt.Sprintf("pending-%d", n), n) }),
			write(fmt.Sprintf("compact-%d", n/2), func(w io.Writer) error { return hostile.Compactions(w, fmt.Sprintf("compact-%d", n/2), n/2) }))
	}
	for _, id := range cases {
		b.Run(id, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				s, _ := Open(dir, WithCacheBytes(1))
				if _, err := s.ReadSurface(context.Background(), id); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// The index folds messages with one folder: taking a message, even one
// that replaces a cited range, allocates nothing of its own (only the
// index's arrays and runs grow, now and then).
func TestIndexFoldAllocates(t *testing.T) {
	const n = 20_000
	var ix *index
	var evs []event
	for i := range n {
		u, a := int64(3*i), int64(3*i+1)
		c := event{seq: int64(3*i + 2), typ: sessionref.EventUserMessage, short: true}
		c.setExtra().replace = &[2]int64{u, a}
		c.x.sources = []int64{u, a}
		evs = append(evs,
			event{seq: u, typ: sessionref.EventUserMessage, short: true},
			event{seq: a, typ: sessionref.EventUserMessage, short: true}, c)
	}
	allocs := testing.AllocsPerRun(1, func() {
		ix = newIndex("x")
		for i := range evs {
			ix.take(&evs[i])
		}
	})
	if ix.foldErr != nil || surfaceLen(ix) != n {
		t.Fatalf("%d messages on the surface, %v", surfaceLen(ix), ix.foldErr)
	}
	if allocs > n/10 {
		t.Errorf("%d messages (%d compactions) took %.0f allocations", 3*n, n, allocs)
	}
	// A fork folds over its own runs: what it takes leaves ix as it was.
	f := ix.Fork()
	f.take(&event{seq: 3 * n, typ: sessionref.EventUserMessage, short: true})
	if f.foldErr != nil || surfaceLen(f) != n+1 || surfaceLen(ix) != n {
		t.Fatalf("fork %d, index %d messages: %v", surfaceLen(f), surfaceLen(ix), f.foldErr)
	}
}

// surfaceLen is how many messages ix's surface holds.
func surfaceLen(ix *index) int {
	n := 0
	ix.runs.each(func(int64) bool { n++; return true })
	return n
}
