package dshlog

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/dshlog/internal/benchlog"
	"github.com/dshkit/mentions/sessionref"
)

// The benchmark table's inputs: a history of 100 logs of 2.5 MB (raw, and
// zstd with one frame per 400 lines) and one 50 MB raw log, shaped by
// benchlog like a day of real use. scripts/bench-dshlog generates them
// once (DSHLOG_BENCH_DIR) and runs Node's baseline on the same big file;
// without it they are generated here.
const (
	historyLogs = 100
	historySize = 5 << 19 // 2.5 MiB
	bigSize     = 50 << 20
)

var (
	benchOnce sync.Once
	benchRoot string
)

func benchFiles(b *testing.B) string {
	if dir := os.Getenv("DSHLOG_BENCH_DIR"); dir != "" {
		return dir
	}
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dshlog-bench")
		if err != nil {
			b.Fatal(err)
		}
		for i := range historyLogs {
			id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
			for _, enc := range []struct {
				sub, name string
				write     func(io.Writer, string, int) error
			}{{"raw", RawName, benchlog.WriteRaw}, {"zstd", ZstdName, benchlog.WriteZstd}} {
				writeFile(b, filepath.Join(dir, enc.sub, "--home-dev-src-big--", id, enc.name), func(w io.Writer) error { return enc.write(w, id, historySize) })
			}
		}
		writeFile(b, filepath.Join(dir, "big", RawName), func(w io.Writer) error { return benchlog.WriteRaw(w, "big", bigSize) })
		benchRoot = dir
	})
	return benchRoot
}

func writeFile(b *testing.B, path string, fn func(io.Writer) error) {
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := fn(f); err != nil {
		b.Fatal(err)
	}
}

// reportCPU reports the process's CPU time per op since start (cpu-ms/op).
func reportCPU(b *testing.B, start time.Duration) {
	if start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// query is the picker's first filtered query: it needs every title.
func query(b *testing.B, r *sessionref.Resolver) {
	cands, err := r.ListCandidates(context.Background(), sessionref.Target{ID: "me"}, "quoting", 20)
	if err != nil || len(cands) == 0 {
		b.Fatalf("%d candidates: %v", len(cands), err)
	}
}

// BenchmarkHistory is the picker over a 100-log history: the first
// filtered query on a new store (cold; the files in the page cache, as
// after any earlier run), the same query again (warm), and the heap the
// store keeps after the first query (heap-MB).
func BenchmarkHistory(b *testing.B) {
	dir := benchFiles(b)
	for _, enc := range []string{"raw", "zstd"} {
		root := filepath.Join(dir, enc)
		b.Run(enc+"/cold", func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				s, _ := Open(root)
				r, _ := sessionref.NewResolver(s, sessionref.Config{})
				query(b, r)
			}
			reportCPU(b, cpu)
		})
		b.Run(enc+"/warm", func(b *testing.B) {
			s, _ := Open(root)
			r, _ := sessionref.NewResolver(s, sessionref.Config{})
			query(b, r)
			for b.Loop() {
				query(b, r)
			}
		})
		b.Run(enc+"/heap", func(b *testing.B) {
			var kept float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				s, _ := Open(root)
				r, _ := sessionref.NewResolver(s, sessionref.Config{})
				query(b, r)
				runtime.GC()
				runtime.ReadMemStats(&after)
				kept = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
				runtime.KeepAlive(s)
			}
			b.ReportMetric(kept, "heap-MB")
		})
	}
}

// BenchmarkReadSurface50MB is a cold ReadSurface of one 50 MB raw log
// (the baseline: Node's JSON.parse per line of the same file), and a warm
// one from the cache.
func BenchmarkReadSurface50MB(b *testing.B) {
	path := filepath.Join(benchFiles(b), "big", RawName)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(fi.Size())
		cpu := cpuTime()
		for b.Loop() {
			s, _ := OpenFile(path)
			if _, err := s.ReadSurface(context.Background(), "big"); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	b.Run("warm", func(b *testing.B) {
		s, _ := OpenFile(path)
		s.ReadSurface(context.Background(), "big")
		for b.Loop() {
			if _, err := s.ReadSurface(context.Background(), "big"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkClosers40k: the crash-repair closers of a turn left open with
// 40,000 pending tool calls; linear in the calls.
func BenchmarkClosers40k(b *testing.B) {
	evs := pendingCalls(40000)
	for b.Loop() {
		var t turnState
		for i := range evs {
			t.apply(&evs[i])
		}
		if n := len(t.closers(int64(len(evs)) - 1)); n != 40002 {
			b.Fatal(n)
		}
	}
}

// pendingCalls is an open turn and step with n tool calls, half of them
// logged as started (tool/call), none with a result.
func pendingCalls(n int) []event {
	evs := []event{{seq: 0, typ: "turn/start"}, {seq: 1, typ: "step/start"}}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("call-%d", i)
	}
	evs = append(evs, event{seq: 2, typ: sessionref.EventAssistantMessage, x: &eventExtra{toolCalls: ids}})
	for i := 0; i < n; i += 2 {
		evs = append(evs, event{seq: int64(len(evs)), typ: "tool/call", x: &eventExtra{callID: ids[i]}})
	}
	return evs
}

func BenchmarkList10k(b *testing.B) {
	root := b.TempDir()
	for i := range 10000 {
		cwd := fmt.Sprintf("/home/dev/p%d", i%50)
		id := fmt.Sprintf("s%05d", i)
		dir := filepath.Join(root, projectDir(&cwd), id)
		os.MkdirAll(dir, 0o755)
		line := fmt.Sprintf(`{"type":"session","version":0,"id":%q,"createdAt":%d,"cwd":%q,"delegationDepth":0}`+"\n", id, 1700000000000+i, cwd)
		os.WriteFile(filepath.Join(dir, RawName), []byte(line+`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`+"\n"), 0o644)
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			s, _ := Open(root)
			if hs, err := s.ListSessions(context.Background()); err != nil || len(hs) != 10000 {
				b.Fatal(len(hs), err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		s, _ := Open(root)
		s.ListSessions(context.Background())
		for b.Loop() {
			if hs, err := s.ListSessions(context.Background()); err != nil || len(hs) != 10000 {
				b.Fatal(len(hs), err)
			}
		}
	})
	// read-one: one session's surface after a listing, as Prepare does; it
	// must not cost a scan of the whole root.
	b.Run("read-one", func(b *testing.B) {
		s, _ := Open(root)
		s.ListSessions(context.Background())
		for i := 0; b.Loop(); i++ {
			if _, err := s.ReadSurface(context.Background(), fmt.Sprintf("s%05d", i%10000)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
