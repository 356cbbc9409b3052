package dshlog

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// writeMessages writes a raw log of n small messages (user and assistant
// in turn, in turns of ten) and returns its path and size.
func writeMessages(t testing.TB, dir, id string, n, textLen int) (string, int64) {
	t.Helper()
	path := filepath.Join(dir, "--p--", id, RawName)
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"type":"session","version":0,"id":%q,"createdAt":1,"cwd":"/p","delegationDepth":0}`+"\n", id)
	seq := 0
	ev := func(typ, data, extra string) {
		fmt.Fprintf(w, `{"type":%q,"seq":%d,"time":%d,"data":%s%s}`+"\n", typ, seq, seq, data, extra)
		seq++
	}
	text := make([]byte, textLen)
	for i := range text {
		text[i] = 'a' + byte(i%26)
	}
	for i := range n {
		if i%10 == 0 {
			ev("turn/start", `{"turn":1}`, "")
		}
		if i%2 == 0 {
			ev("user/message", fmt.Sprintf(`{"content":[{"type":"text","text":"%d %s"}],"source":{"kind":"user"}}`, i, text), `,"surfaceOp":"append"`)
		} else {
			ev("assistant/message", fmt.Sprintf(`{"message":{"content":[{"type":"text","text":"%d %s"}],"source":{"kind":"model"}}}`, i, text), `,"surfaceOp":"append"`)
		}
		if i%10 == 9 {
			ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, fi.Size()
}

// listed opens a store over dir and lists it, as a program does first.
func listed(t *testing.T, dir string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListSessions(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// heldBytes is the heap in use after a collection.
func heldBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestReadHoldsItsBound: a log of small messages, too big for the
// cache, is read into a surface holding no more than the package doc's
// formula: per message about 200 bytes of structure (17 in the index,
// 150 in the surface) plus its text once (in the surface: the index
// keeps where each text is, not the text), nothing per byte of the log's
// envelopes.
func TestReadHoldsItsBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 30 MB log")
	}
	const n, textLen = 200_000, 40
	dir := t.TempDir()
	_, size := writeMessages(t, dir, "big", n, textLen)
	s := listed(t, dir, WithCacheBytes(1<<20))
	before := heldBytes()
	surf, err := s.ReadSurface(context.Background(), "big")
	if err != nil || len(surf.Events) != n {
		t.Fatalf("%d events, %v", len(surf.Events), err)
	}
	held := int64(heldBytes()) - int64(before)
	text := int64(n * (textLen + 7))
	bound := int64(n)*(indexBytes+32+150) + text + 4<<20
	t.Logf("log %d MiB, %d messages: held %d MiB, bound %d MiB", size>>20, n, held>>20, bound>>20)
	if held > bound {
		t.Fatalf("a read of %d messages holds %d bytes, over the bound of %d", n, held, bound)
	}
	runtime.KeepAlive(surf)
}

// TestOutlineHoldsNoText: the outline Prepare reads of a big raw log of
// long messages holds about 37 bytes a message (17 the index's, 20 the
// outline's) and none of the text. The snapshot built from it is the
// surface's.
func TestOutlineHoldsNoText(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 110 MB log")
	}
	const n, textLen = 200_000, 400
	dir := t.TempDir()
	_, size := writeMessages(t, dir, "long", n, textLen)
	s := listed(t, dir, WithCacheBytes(1))
	before := heldBytes()
	o, err := s.ReadOutline(context.Background(), "long")
	if err != nil || len(o.Messages) != n {
		t.Fatalf("%d messages, %v", len(o.Messages), err)
	}
	held := int64(heldBytes()) - int64(before)
	text := int64(n * (textLen + 7))
	bound := int64(n)*(indexBytes+20+8) + 1<<20
	t.Logf("log %d MiB, text %d MiB: the outline holds %d KiB, bound %d KiB", size>>20, text>>20, held>>10, bound>>10)
	if held > bound {
		t.Fatalf("an outline of %d messages holds %d bytes (bound %d, text %d)", n, held, bound, text)
	}
	runtime.KeepAlive(o)

	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	viaOutline, err := r.Prepare(context.Background(), sessionref.Target{ID: "x"}, nil, []sessionref.Reference{{SessionID: "long"}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := sessionref.NewResolver(surfaceOnly{s}, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	viaSurface, err := plain.Prepare(context.Background(), sessionref.Target{ID: "x"}, nil, []sessionref.Reference{{SessionID: "long"}})
	if err != nil {
		t.Fatal(err)
	}
	if viaOutline.Context.Prompt() != viaSurface.Context.Prompt() || !reflect.DeepEqual(viaOutline.Context.Source, viaSurface.Context.Source) {
		t.Fatal("the snapshot from the outline is not the surface's")
	}
}

// TestToolOutputsNotHeld: a raw log whose bytes are mostly tool output
// (as real histories are: files read, commands run) is folded, outlined
// and walked holding none of that output: about 17 bytes a message in
// the index, 20 more a projected message in the outline, and nothing of
// a turn, step or tool-call event.
func TestToolOutputsNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 40 MB log")
	}
	const calls, output = 10_000, 4000
	dir := t.TempDir()
	path := filepath.Join(dir, "--p--", "tools", RawName)
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, `{"type":"session","version":0,"id":"tools","createdAt":1,"cwd":"/p","delegationDepth":0}`)
	seq := 0
	ev := func(typ, data, extra string) {
		fmt.Fprintf(w, `{"type":%q,"seq":%d,"time":%d,"data":%s%s}`+"\n", typ, seq, seq, data, extra)
		seq++
	}
	out := strings.Repeat("x", output)
	for i := range calls {
		call := fmt.Sprintf("c%d", i)
		ev("turn/start", `{"turn":1}`, "")
		ev("user/message", fmt.Sprintf(`{"content":[{"type":"text","text":"read file %d"}],"source":{"kind":"user"}}`, i), `,"surfaceOp":"append"`)
		ev("assistant/message", fmt.Sprintf(`{"message":{"content":[{"type":"text","text":"reading"},{"type":"tool-call","id":%q,"name":"read","arguments":"{}"}],"source":{"kind":"model"}}}`, call), `,"surfaceOp":"append"`)
		ev("tool/call", fmt.Sprintf(`{"callId":%q,"name":"read","arguments":"{}"}`, call), "")
		ev("tool/result", fmt.Sprintf(`{"message":{"source":{"kind":"tool","callId":%q},"content":[{"type":"tool-result","toolCallId":%q,"content":[{"type":"text","text":%q}]}]}}`, call, call, out), `,"surfaceOp":"append"`)
		ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	outputs := int64(calls * output)
	for _, c := range []struct {
		name  string
		bound int64
	}{
		{"indexed", int64(3*calls)*(indexBytes+8) + int64(2*calls)*(20+8) + 1<<20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := listed(t, dir, WithCacheBytes(1))
			before := heldBytes()
			o, err := s.ReadOutline(context.Background(), "tools")
			if err != nil || len(o.Messages) != 2*calls {
				t.Fatalf("%d projected messages, %v", len(o.Messages), err)
			}
			held := int64(heldBytes()) - int64(before)
			t.Logf("%d MiB of tool output: the outline holds %d KiB, bound %d KiB", outputs>>20, held>>10, c.bound>>10)
			if held > c.bound || held > outputs/4 {
				t.Fatalf("an outline holds %d bytes (bound %d, tool output %d)", held, c.bound, outputs)
			}
			runtime.KeepAlive(o)
			n := 0
			if _, err := s.WalkSurface(context.Background(), "tools", func(e *sessionref.Event) bool {
				if e.Type == sessionref.EventToolResult {
					if got := string(e.Content[0].Fields["content"]); !strings.Contains(got, out) {
						t.Fatalf("tool result %d read back as %.80q", n, got)
					}
					n++
				}
				return true
			}); err != nil || n != calls {
				t.Fatalf("%d tool results walked, %v", n, err)
			}
		})
	}
}

// surfaceOnly hides a store's outline, so Prepare reads its surface.
type surfaceOnly struct{ *Store }

func (surfaceOnly) ReadOutline() {}

// TestReadBytesBound: reads of four logs at once, each a third of the
// store's read bound, never decode more than the bound at once; a log
// bigger than the bound is still read (alone).
func TestReadBytesBound(t *testing.T) {
	dir := t.TempDir()
	var size int64
	for i := range 4 {
		_, size = writeMessages(t, dir, fmt.Sprintf("s%d", i), 3000, 100)
	}
	s, err := Open(dir, WithReadBytes(size*3+size/2), WithCacheBytes(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListSessions(context.Background()); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range 4 {
			wg.Go(func() { _, errs[i] = s.ReadSurface(context.Background(), fmt.Sprintf("s%d", i)) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, s%d: %v", round, i, err)
			}
		}
	}
	if peak, limit := s.logs.PeakReadBytes(), s.logs.Limits().ReadBytes; peak > limit {
		t.Fatalf("peak %d of %d", peak, limit)
	}
	// Alone, over the bound.
	small, err := Open(dir, WithReadBytes(10), WithCacheBytes(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.ReadSurface(context.Background(), "s0"); err != nil {
		t.Fatal(err)
	}
	// A read stops with its context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.ReadSurface(ctx, "s1"); err == nil {
		t.Fatal("a cancelled read succeeded")
	}
}

// WalkSurface passes exactly the events ReadSurface returns, in order,
// with the same captured seq, and stops when told.
func TestWalkSurfaceIsReadSurface(t *testing.T) {
	dir := t.TempDir()
	writeMessages(t, dir, "w", 2500, 30)
	for _, cache := range []int64{1, 64 << 20} { // a private parse, a cached one
		s, err := Open(dir, WithCacheBytes(cache))
		if err != nil {
			t.Fatal(err)
		}
		surf, err := s.ReadSurface(context.Background(), "w")
		if err != nil {
			t.Fatal(err)
		}
		var walked []sessionref.Event
		captured, err := s.WalkSurface(context.Background(), "w", func(e *sessionref.Event) bool {
			walked = append(walked, e.Clone())
			return true
		})
		if err != nil || captured == nil || *captured != *surf.CapturedThroughSeq || !reflect.DeepEqual(walked, surf.Events) {
			t.Fatalf("cache %d: walked %d events (captured %v, %v), read %d", cache, len(walked), captured, err, len(surf.Events))
		}
		n := 0
		s.WalkSurface(context.Background(), "w", func(*sessionref.Event) bool { n++; return n < 10 })
		if n != 10 {
			t.Fatalf("walk went on after false: %d", n)
		}
	}
}

// SessionVersions changes when a log is replaced by another of the same
// size and seqs (a new file renamed over it), and stays while nothing
// changes; an unknown id gets "".
func TestSessionVersions(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeMessages(t, dir, "v", 20, 10)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := s.SessionVersions(ctx, []string{"v", "nope"})
	if err != nil || a[0] == "" || a[1] != "" {
		t.Fatalf("versions %q, %v", a, err)
	}
	if b, err := s.SessionVersions(ctx, []string{"v"}); err != nil || b[0] != a[0] {
		t.Fatalf("unchanged log: %q then %q", a[0], b[0])
	}
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := []byte(strings.Replace(string(body), "abcdefghij", "zyxwvutsrq", -1))
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if c, err := s.SessionVersions(ctx, []string{"v"}); err != nil || c[0] == a[0] {
		t.Fatalf("a replaced log keeps its version %q", c[0])
	}
}
