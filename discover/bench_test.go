package discover

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// bigCorpus is the benchmark store: the fakestore generator's sessions,
// each topped up to 20 projected messages with varied sentences.
var bigCorpus = struct {
	once  sync.Once
	store *fakestore.Store
	ids   []string
}{}

const benchSessions = 10_000

var (
	benchSubjects = []string{"the parser", "the retry loop", "the cache layer", "the login flow", "the release script", "the indexer", "the theme", "the billing job", "the websocket client", "the config loader", "the migration", "the scheduler"}
	benchVerbs    = []string{"fails on", "is slow with", "leaks memory under", "deadlocks with", "mishandles", "times out on", "double counts", "drops"}
	benchObjects  = []string{"empty input", "large files", "unicode names", "concurrent writers", "a cold start", "retries after a timeout", "zero rows", "a closed socket", "daylight saving time", "nested quotes"}
	benchTails    = []string{"Can you take a look?", "I added a failing test.", "This started after the last deploy.", "Please keep the fix small.", "修复后请补充测试。", "テストも追加してください。", "Merci d'avance ✅", "Danke! 🙏"}
)

func benchSentence(rng *rand.Rand) string {
	return fmt.Sprintf("%s %s %s (ticket %d). %s",
		benchSubjects[rng.IntN(len(benchSubjects))], benchVerbs[rng.IntN(len(benchVerbs))],
		benchObjects[rng.IntN(len(benchObjects))], rng.IntN(100_000), benchTails[rng.IntN(len(benchTails))])
}

// topUp appends messages to id until its surface projects to n messages.
func topUp(tb testing.TB, store *fakestore.Store, id string, n int, rng *rand.Rand) {
	surf, err := store.ReadSurface(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	for k := len(sessionref.Project(surf.Events)); k < n; k++ {
		if k%2 == 0 {
			_, err = store.AppendUser(id, benchSentence(rng))
		} else {
			_, err = store.AppendAssistant(id, benchSentence(rng)+" "+benchSentence(rng))
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

func corpus10k(tb testing.TB) (*fakestore.Store, []string) {
	bigCorpus.once.Do(func() {
		s := fakestore.New()
		ids := s.Seed(fakestore.SeedOptions{Count: benchSessions, Seed: 7})
		rng := rand.New(rand.NewPCG(7, 7))
		for _, id := range ids {
			topUp(tb, s, id, 20, rng)
		}
		bigCorpus.store, bigCorpus.ids = s, ids
	})
	return bigCorpus.store, bigCorpus.ids
}

// fileSize is the bytes of an index file with its WAL.
func fileSize(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// BenchmarkSyncFull indexes 10,000 sessions of 20 messages into a new
// file. Target: under 30 s. The baseline is one pass reading and
// projecting every surface (what any indexer must do), in the same run.
func BenchmarkSyncFull(b *testing.B) {
	store, ids := corpus10k(b)
	ctx := context.Background()
	b.Run("baseline-read-project", func(b *testing.B) {
		for b.Loop() {
			for _, id := range ids {
				s, err := store.ReadSurface(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				_ = body(s.Events, 16<<10, 512<<10)
			}
		}
	})
	b.Run("index", func(b *testing.B) {
		var size int64
		var st SyncStats
		for b.Loop() {
			path := filepath.Join(b.TempDir(), "index.sqlite")
			ix, err := Open(path, store)
			if err != nil {
				b.Fatal(err)
			}
			if st, err = ix.Sync(ctx); err != nil {
				b.Fatal(err)
			}
			size = fileSize(path)
			ix.Close()
		}
		b.ReportMetric(float64(size)/(1<<20), "MiB-on-disk")
		b.ReportMetric(float64(st.Bytes)/(1<<20), "MiB-text")
		b.ReportMetric(float64(st.Indexed), "sessions")
	})
}

var sharedIndex = struct {
	once sync.Once
	path string
	err  error
}{}

// indexed10k returns the path of an index of the 10k corpus, built once.
func indexed10k(b *testing.B) string {
	store, _ := corpus10k(b)
	sharedIndex.once.Do(func() {
		dir, err := os.MkdirTemp("", "discover-bench")
		if err != nil {
			sharedIndex.err = err
			return
		}
		sharedIndex.path = filepath.Join(dir, "index.sqlite")
		ix, err := Open(sharedIndex.path, store)
		if err != nil {
			sharedIndex.err = err
			return
		}
		defer ix.Close()
		_, sharedIndex.err = ix.Sync(context.Background())
	})
	if sharedIndex.err != nil {
		b.Fatal(sharedIndex.err)
	}
	return sharedIndex.path
}

// plainQuery hides fakestore's SeqLister fast path, so Sync sees a plain
// SessionQuery and must read every surface to learn its seq.
type plainQuery struct{ sessionref.SessionQuery }

var _ SeqLister = (*fakestore.Store)(nil)

// BenchmarkSyncOneChanged re-syncs 10,000 indexed sessions after one of
// them got a new message. Target: under 50 ms. Baseline: a Sync with
// nothing changed, same run. "generic" is a plain SessionQuery (every
// surface is read to learn its seq); "seqlister" fakestore itself, which
// offers the SeqLister fast path.
func BenchmarkSyncOneChanged(b *testing.B) {
	path := indexed10k(b)
	store, ids := corpus10k(b)
	ctx := context.Background()
	for _, kind := range []string{"generic", "seqlister"} {
		var q sessionref.SessionQuery = plainQuery{store}
		if kind == "seqlister" {
			q = store
		}
		appendUser := store.AppendUser
		ix, err := Open(path, q)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Sync(ctx); err != nil {
			b.Fatal(err)
		}
		b.Run(kind+"/baseline-nothing-changed", func(b *testing.B) {
			for b.Loop() {
				if st, err := ix.Sync(ctx); err != nil || st.Indexed != 0 {
					b.Fatal(st, err)
				}
			}
		})
		b.Run(kind+"/one-changed", func(b *testing.B) {
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				if _, err := appendUser(ids[(i*7919)%len(ids)], fmt.Sprintf("follow-up number %d on the flaky test", i)); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if st, err := ix.Sync(ctx); err != nil || st.Indexed != 1 {
					b.Fatal(st, err)
				}
			}
		})
		ix.Close()
	}
}

// BenchmarkSearch runs two-word queries on the 10k index. Target: under
// 20 ms. Baseline: the candidate listing of the same query (a substring
// scan of ids, cwds and titles), same run.
func BenchmarkSearch(b *testing.B) {
	path := indexed10k(b)
	store, _ := corpus10k(b)
	ix, err := Open(path, store)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	cwd := fakestore.Cwds("")[0]
	target := sessionref.Target{ID: "none", Cwd: &cwd}
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		b.Fatal(err)
	}
	queries := map[string]string{
		"common":  "retry timeout",
		"topic":   "redis cache",
		"cjk":     "修复 测试",
		"typing":  "cache la",
		"phrase":  `"the login flow"`,
		"nomatch": "zebra quokka",
	}
	for name, q := range queries {
		b.Run("baseline-candidates/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.ListCandidates(ctx, target, q, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("search/"+name, func(b *testing.B) {
			var n int
			for b.Loop() {
				hits, err := ix.Search(ctx, target, q, 20)
				if err != nil {
					b.Fatal(err)
				}
				n = len(hits)
			}
			b.ReportMetric(float64(n), "hits")
		})
	}
}

// BenchmarkDemoStart is the demo's start: its default 300 seeded
// sessions indexed in memory and a first search answered. Target: within
// 1 s. Baseline: seeding the store, same run.
func BenchmarkDemoStart(b *testing.B) {
	ctx := context.Background()
	seed := func() *fakestore.Store {
		s := fakestore.New()
		s.Seed(fakestore.SeedOptions{Count: 300, Seed: 1})
		return s
	}
	b.Run("baseline-seed", func(b *testing.B) {
		for b.Loop() {
			seed()
		}
	})
	b.Run("searchable", func(b *testing.B) {
		for b.Loop() {
			store := seed()
			ix, err := Open("", store)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ix.Sync(ctx); err != nil {
				b.Fatal(err)
			}
			hits, err := ix.Search(ctx, sessionref.Target{}, "regression test", 20)
			if err != nil || len(hits) == 0 {
				b.Fatal(len(hits), err)
			}
			ix.Close()
		}
	})
}
