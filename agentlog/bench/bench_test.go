package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/agentlog/codex"
	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/dshlog"
	"github.com/dshkit/mentions/sessionref"
)

// The scale of the benchmarks: the 1,000 sessions / 1 GB and one
// 200 MB session, scaled to what two shared cores run in minutes.
const (
	listSessions = 200 // sessions of the listing and Sync corpora
	listMessages = 120 // messages each: about 100 KB a session
	bigMessages  = 40_000
	textBytes    = 400
	toolEvery    = 3
)

// store is a store of one format as the benchmarks use it.
type store interface {
	sessionref.SessionQuery
	sessionref.TitleLister
}

var opens = map[string]func(root string) (store, error){
	"claude": func(root string) (store, error) { return claudecode.Open(root) },
	"codex":  func(root string) (store, error) { return codex.Open(root) },
	"dsh":    func(root string) (store, error) { return dshlog.Open(root) },
}

// corpus is a generated history of each format, written once a run.
type corpus struct {
	list, big map[string]string // root by format
	bytes     map[string][2]int64
	err       error
}

var (
	once sync.Once
	data corpus
	tmp  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if tmp != "" {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

func generated(b *testing.B) *corpus {
	b.Helper()
	once.Do(func() {
		tmp, data.err = os.MkdirTemp("", "agentlog-bench-")
		if data.err != nil {
			return
		}
		data.list, data.big, data.bytes = map[string]string{}, map[string]string{}, map[string][2]int64{}
		start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		for _, f := range Formats {
			list, big := fmt.Sprintf("%s/%s-list", tmp, f.Name), fmt.Sprintf("%s/%s-big", tmp, f.Name)
			n1, err := Generate(f, list, listSessions, Shape{Messages: listMessages, TextBytes: textBytes, ToolEvery: toolEvery, Start: start})
			if err != nil {
				data.err = err
				return
			}
			n2, err := Generate(f, big, 1, Shape{Messages: bigMessages, TextBytes: textBytes, ToolEvery: toolEvery, Start: start})
			if err != nil {
				data.err = err
				return
			}
			data.list[f.Name], data.big[f.Name], data.bytes[f.Name] = list, big, [2]int64{n1, n2}
		}
	})
	if data.err != nil {
		b.Fatal(data.err)
	}
	return &data
}

func open(b *testing.B, format, root string) store {
	b.Helper()
	s, err := opens[format](root)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkList lists every session with its title: cold (a new store,
// nothing cached; the files are in the system's page cache) and warm
// (the same store again, nothing changed).
func BenchmarkList(b *testing.B) {
	c := generated(b)
	for _, f := range Formats {
		for _, warm := range []bool{false, true} {
			name := f.Name + "/cold"
			if warm {
				name = f.Name + "/warm"
			}
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				s := open(b, f.Name, c.list[f.Name])
				if warm {
					if _, _, err := s.ListSessionsWithTitles(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for range b.N {
					if !warm {
						b.StopTimer()
						s = open(b, f.Name, c.list[f.Name])
						b.StartTimer()
					}
					h, t, err := s.ListSessionsWithTitles(ctx)
					if err != nil || len(h) != listSessions || t[0].Title == nil {
						b.Fatalf("%d sessions, %v", len(h), err)
					}
				}
				b.ReportMetric(float64(c.bytes[f.Name][0])/(1<<20), "corpus-MB")
			})
		}
	}
}

// peakHeap runs fn and returns the most heap its objects took above what
// they took before it, sampled every 100 µs.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	peak := base
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak - base
}

// BenchmarkPrepare prepares a reference to one big session from a new
// store (a cold read: the log is indexed, then the kept messages read
// back) and reports the peak heap above the baseline.
func BenchmarkPrepare(b *testing.B) {
	c := generated(b)
	for _, f := range Formats {
		b.Run(f.Name, func(b *testing.B) {
			ctx := context.Background()
			var peak uint64
			for range b.N {
				s := open(b, f.Name, c.big[f.Name])
				h, err := s.ListSessions(ctx)
				if err != nil || len(h) != 1 {
					b.Fatal(h, err)
				}
				r, err := sessionref.NewResolver(s, sessionref.Config{})
				if err != nil {
					b.Fatal(err)
				}
				label := "big"
				ref := []sessionref.Reference{{SessionID: h[0].ID, Label: &label}}
				var p sessionref.Prepared
				peak = max(peak, peakHeap(func() {
					p, err = r.Prepare(ctx, sessionref.Target{ID: "me"}, []sessionref.Block{sessionref.TextBlock("see")}, ref)
				}))
				if err != nil || p.Context == nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.bytes[f.Name][1])/(1<<20), "log-MB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}

// BenchmarkSync indexes the whole listing corpus for full-text
// discovery, in memory, from a new store.
func BenchmarkSync(b *testing.B) {
	c := generated(b)
	for _, f := range Formats {
		b.Run(f.Name, func(b *testing.B) {
			ctx := context.Background()
			for range b.N {
				s := open(b, f.Name, c.list[f.Name])
				ix, err := discover.Open("", s)
				if err != nil {
					b.Fatal(err)
				}
				st, err := ix.Sync(ctx)
				if err != nil || st.Sessions != listSessions {
					b.Fatal(st, err)
				}
				ix.Close()
			}
			b.ReportMetric(float64(c.bytes[f.Name][0])/(1<<20), "corpus-MB")
		})
	}
}
