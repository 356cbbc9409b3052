// Command memprobe measures the memory and time of reading hostile
// session logs, one measure per process so that the peak resident set
// (VmHWM) is the measure's own, over the logs dshlog/internal/genhostile
// writes. scripts/bench-hostile runs it.
//
//	memprobe surface -root ROOT -id ID     # one ReadSurface
//	memprobe prepare -root ROOT -id ID     # one Prepare mentioning it (reads its outline)
//	memprobe sync -root ROOT [-index F]    # one full Sync of a new index
//
// Each measure prints one line: name=value pairs (peak_rss_mb, heap_mb,
// ms, and what was read).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/dshlog"
	"github.com/dshkit/mentions/sessionref"
)

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: memprobe surface|sync ...")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	root := fs.String("root", "", "sessions root")
	id := fs.String("id", "", "session id (surface)")
	index := fs.String("index", "", "index file (sync; empty: in memory)")
	fs.Parse(os.Args[2:])
	switch os.Args[1] {
	case "surface":
		measure("surface", func(ctx context.Context) string {
			s, err := dshlog.Open(*root)
			check(err)
			surf, err := s.ReadSurface(ctx, *id)
			if err != nil {
				return fmt.Sprintf("err=%q", err)
			}
			n := 0
			for _, e := range surf.Events {
				for _, b := range e.Content {
					n += len(b.Text)
				}
			}
			return fmt.Sprintf("events=%d text_mb=%.1f", len(surf.Events), float64(n)/(1<<20))
		})
	case "prepare":
		measure("prepare", func(ctx context.Context) string {
			s, err := dshlog.Open(*root)
			check(err)
			r, err := sessionref.NewResolver(s, sessionref.Config{})
			check(err)
			p, err := r.Prepare(ctx, sessionref.Target{ID: "memprobe"}, []sessionref.Block{sessionref.TextBlock("see")},
				[]sessionref.Reference{{SessionID: *id}})
			if err != nil {
				return fmt.Sprintf("err=%q", err)
			}
			rec := p.Context.Source.References[0]
			return fmt.Sprintf("snapshot_kb=%.1f messages=%d kept=%d", float64(len(p.Context.Prompt()))/1024, rec.OriginalMessages, rec.RetainedMessages)
		})
	case "sync":
		measure("sync", func(ctx context.Context) string {
			s, err := dshlog.Open(*root)
			check(err)
			ix, err := discover.Open(*index, s)
			check(err)
			defer ix.Close()
			st, err := ix.Sync(ctx)
			check(err)
			return fmt.Sprintf("sessions=%d indexed=%d failed=%d index_text_mb=%.1f first_err=%q", st.Sessions, st.Indexed, st.Failed, float64(st.Bytes)/(1<<20), errText(st.FirstErr))
		})
	default:
		log.Fatalf("memprobe: unknown command %q", os.Args[1])
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// measure runs f and prints its result with the peak resident set, the
// peak Go heap seen by a sampler, and the wall time.
func measure(name string, f func(context.Context) string) {
	var peakHeap atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peakHeap.Load() {
				peakHeap.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	out := f(context.Background())
	elapsed := time.Since(start)
	close(stop)
	<-done
	runtime.KeepAlive(out)
	fmt.Printf("%s peak_rss_mb=%.0f peak_heap_mb=%.0f ms=%d %s\n", name, vmHWM(), float64(peakHeap.Load())/(1<<20), elapsed.Milliseconds(), out)
}

// vmHWM is the process's peak resident set in MiB (Linux), -1 elsewhere.
func vmHWM() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb / 1024
		}
	}
	return -1
}
