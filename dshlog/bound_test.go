package dshlog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dshkit/mentions/dshlog/internal/hostile"
	"github.com/dshkit/mentions/sessionref"
)

// writeShaped writes a log of hostile.Shaped under root, raw or zstd,
// and returns its session id.
func writeShaped(t testing.TB, root, shape string, size int, zstd bool) string {
	t.Helper()
	id, name, write := shape, RawName, hostile.Shaped
	if zstd {
		id, name, write = shape+"-z", ZstdName, hostile.ShapedZstd
	}
	path := filepath.Join(root, hostile.ProjectDir, id, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f, id, shape, size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return id
}

// allocated is what fn allocates (the heap's total, not what it keeps).
// A parse cached between the tries would hide the second's cost: each
// try reads on stores of its own (readAll3).
func allocated(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection empties the pool of zstd decoders
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// overCapShapes are the shapes whose record is read (a message, a chunk
// row) and, at the test's size, over a cap on what a read builds.
var overCapShapes = map[string]bool{"chunk-row": true, "message-values": true, "deep-message": true}

// Every hostile shape, raw and zstd, costs a read about what the record
// is, never a parse tree's 250 times it: a skipped record is scanned, a
// read one over a cap is ErrTooLarge naming the session and the seq.
// The bound is a ratio to the same reads of a log whose record is as big
// but one value (a string), in the same run: what the shape adds, the
// three reads together, is at most 12 bytes a byte of the record (a
// zstd decoder made again for a read adds its window, 9 bytes a byte
// here; nothing else adds a byte), where a parse tree adds 450 bytes a
// value, 225 a byte, each read. Under the race detector, whose pool of
// zstd decoders drops some at random, a zstd read may make several
// decoders: their windows are allowed for, four times the bound.
func TestHostileShapesBounded(t *testing.T) {
	const size = 1 << 20
	root := t.TempDir()
	for _, zstd := range []bool{false, true} {
		base := writeShaped(t, root, hostile.OneString, size, zstd)
		for _, shape := range hostile.Shapes {
			id := writeShaped(t, root, shape, size, zstd)
			t.Run(id, func(t *testing.T) {
				var baseAlloc, alloc uint64
				var surf, baseSurf shapeReads
				for _, r := range []struct {
					id  string
					n   *uint64
					out *shapeReads
				}{{base, &baseAlloc, &baseSurf}, {id, &alloc, &surf}} {
					s, err := Open(root)
					if err != nil {
						t.Fatal(err)
					}
					// The least of four tries: a read may make a zstd
					// decoder (its window, not the record).
					*r.n = allocated(func() { *r.out = readAll3(s, r.id) })
					for range 3 {
						*r.n = min(*r.n, allocated(func() { readAll3(s, r.id) }))
					}
				}
				if baseSurf.err != nil {
					t.Fatal(baseSurf.err)
				}
				if overCapShapes[shape] {
					for _, err := range surf.errs() {
						var le *LogError
						if !errors.Is(err, ErrTooLarge) || !errors.As(err, &le) ||
							!strings.Contains(le.Detail, fmt.Sprintf("session %q", id)) || !strings.Contains(le.Detail, "at seq 1:") {
							t.Fatalf("want ErrTooLarge naming session %s and seq 1, got %v", id, err)
						}
					}
				} else if surf.err != nil || surf.events != 2 {
					t.Fatalf("got %d events, %v", surf.events, surf.err)
				}
				extra := int64(alloc) - int64(baseAlloc)
				t.Logf("%s: %d bytes allocated (%.2f a byte of the record), %d for a string as long", id, alloc, float64(extra)/size, baseAlloc)
				if limit := int64(12 * size); extra > limit && !(raceBuild && zstd && extra <= 4*limit) {
					t.Fatalf("the record of %d bytes costs %d bytes more than a string as long", size, extra)
				}
			})
		}
	}
}

// shapeReads is what three reads of a session gave.
type shapeReads struct {
	events        int
	err, out, wlk error
}

func (r shapeReads) errs() []error { return []error{r.err, r.out, r.wlk} }

// readAll3 reads a session as a surface, an outline and a walk, each on
// a store of its own (nothing cached).
func readAll3(s *Store, id string) shapeReads {
	ctx := context.Background()
	var r shapeReads
	surf, err := s.ReadSurface(ctx, id)
	r.events, r.err = len(surf.Events), err
	s2, _ := Open(s.root, WithCacheBytes(0))
	_, r.out = s2.ReadOutline(ctx, id)
	s3, _ := Open(s.root, WithCacheBytes(0))
	_, r.wlk = s3.WalkSurface(ctx, id, func(e *sessionref.Event) bool { return true })
	return r
}

// A walk of a log of one-message replaces holds what the package doc's
// formula says: 5 bytes a message, and about 90 a run of the surface
// (R ≤ 1 + 2 × the replaces: a replace cuts a run in three, the one it
// takes out reused), the log's lines not at all.
func TestWalkOfReplaceStormHoldsItsBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 22 MB log")
	}
	const n, k = 80_000, 40_000
	root := t.TempDir()
	path := filepath.Join(root, hostile.ProjectDir, "storm", RawName)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := hostile.ReplaceStorm(f, "storm", n, k, 208); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := listed(t, root, WithCacheBytes(1))
	before := heldBytes()
	var held int64
	walked := 0
	if _, err := s.WalkSurface(context.Background(), "storm", func(*sessionref.Event) bool {
		if walked++; walked == 1 { // the fold is done; the walk begins
			held = int64(heldBytes()) - int64(before)
		}
		return true
	}); err != nil || walked != n {
		t.Fatalf("walked %d of %d messages: %v", walked, n, err)
	}
	runs := int64(1 + 2*k)
	bound := int64(n+k)*5 + runs*90 + 2<<20 // the window of lines read back, 1 MiB
	t.Logf("%d messages, %d runs: the walk holds %d KiB, bound %d KiB (%.0f bytes a run beside 5 a message)",
		n+k, runs, held>>10, bound>>10, float64(held-int64(n+k)*5-1<<20)/float64(runs))
	if held > bound {
		t.Fatalf("the walk holds %d bytes, over the bound of %d", held, bound)
	}
}

// ReadCost tells what a read's decoding held: twice the log's longest
// record (a line is gathered as it arrives), the read buffer and a zstd
// log's compressed bytes, whatever its surface holds.
func TestReadCost(t *testing.T) {
	const size = 1 << 20
	root := t.TempDir()
	for _, zstd := range []bool{false, true} {
		id := writeShaped(t, root, "wide-array", size, zstd)
		s, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		if c := s.ReadCost(id); c != 0 {
			t.Fatalf("%s: cost %d before a read", id, c)
		}
		if _, err := s.WalkSurface(context.Background(), id, func(*sessionref.Event) bool { return true }); err != nil {
			t.Fatal(err)
		}
		if c := s.ReadCost(id); c < 2*size || c > 2*size+64<<10+256<<10 {
			t.Fatalf("%s: cost %d after a read of a %d-byte record", id, c, size)
		}
	}
}
