package discover

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// pristineIndex builds a synced index file of the test corpus, closed
// (its WAL checkpointed), and returns its bytes and page size.
func pristineIndex(t *testing.T, c *corpus, path string) ([]byte, int) {
	t.Helper()
	ix := openSynced(t, c, path)
	var pageSize int
	if err := ix.conn().QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b)%pageSize != 0 || len(b) < 4*pageSize {
		t.Fatalf("index of %d bytes, page size %d", len(b), pageSize)
	}
	return b, pageSize
}

// TestDamagedPagesHeal damages each page of a small index in turn (zeroed,
// then random bytes) and checks that after one Sync of a new Index (a
// restart) the search works and finds what it found before. Open never
// fails on a damaged file, and neither does the Sync.
func TestDamagedPagesHeal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	c := newCorpus(t)
	good, pageSize := pristineIndex(t, c, path)
	rng := rand.New(rand.NewPCG(1, 2))
	pages := len(good) / pageSize
	rebuilt := 0
	for page := range pages {
		for _, kind := range []string{"zeroed", "random"} {
			b := slices.Clone(good)
			at := b[page*pageSize : (page+1)*pageSize]
			for i := range at {
				if kind == "zeroed" {
					at[i] = 0
				} else {
					at[i] = byte(rng.Uint32())
				}
			}
			removeIndexFiles(path)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			ix, err := Open(path, c.store)
			if err != nil {
				t.Fatalf("page %d %s: Open: %v", page+1, kind, err)
			}
			if _, err := ix.Sync(context.Background()); err != nil {
				t.Fatalf("page %d %s: Sync: %v", page+1, kind, err)
			}
			for q, want := range map[string][]string{"retry bug": {"aa", "ff"}, "崩溃": {"bb"}, "cafe": {"dd"}} {
				hits, err := ix.Search(context.Background(), sessionref.Target{}, q, 10)
				if err != nil {
					t.Fatalf("page %d %s: search %q after Sync: %v", page+1, kind, q, err)
				}
				var got []string
				for _, h := range hits {
					for n, id := range c.ids {
						if id == h.SessionID {
							got = append(got, n)
						}
					}
				}
				if !slices.Equal(sorted(got), want) {
					t.Fatalf("page %d %s: search %q after Sync: %v, want %v", page+1, kind, q, got, want)
				}
			}
			for _, n := range ix.Notices() {
				if n.Kind == NoticeCorrupt {
					rebuilt++
				}
			}
			ix.Close()
		}
	}
	if rebuilt == 0 {
		t.Fatalf("no damage of %d pages was found and rebuilt", pages)
	}
	t.Logf("%d pages, %d of %d damages rebuilt", pages, rebuilt, 2*pages)
}

// TestSearchDamageRebuiltBySync is a restart onto an index whose
// full-text data is damaged: searches say so (ErrDamaged), across
// restarts, and the next Sync rebuilds the file with a notice although no
// session changed; searches work after it.
func TestSearchDamageRebuiltBySync(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	c := newCorpus(t)
	good, pageSize := pristineIndex(t, c, path)
	ix, err := Open(path, c.store)
	if err != nil {
		t.Fatal(err)
	}
	var page int
	if err := ix.conn().QueryRow("SELECT pageno FROM dbstat WHERE name = 'words_idx'").Scan(&page); err != nil {
		t.Skipf("no dbstat: %v", err)
	}
	ix.Close()
	search := func(ix *Index) error {
		_, err := ix.Search(context.Background(), sessionref.Target{}, "retry bug", 10)
		return err
	}
	// Random bytes over the page, until a search meets them.
	rng := rand.New(rand.NewPCG(3, 4))
	for try := 0; ; try++ {
		if try == 50 {
			t.Fatal("no damage of words_idx made a search fail")
		}
		b := slices.Clone(good)
		for i := (page - 1) * pageSize; i < page*pageSize; i++ {
			b[i] = byte(rng.Uint32())
		}
		removeIndexFiles(path)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		ix, err = Open(path, c.store)
		if err != nil {
			t.Fatal(err)
		}
		err = search(ix)
		ix.Close()
		if err != nil {
			break
		}
	}
	for restart := range 2 {
		ix, err = Open(path, c.store)
		if err != nil {
			t.Fatal(err)
		}
		if err := search(ix); !errors.Is(err, ErrDamaged) {
			t.Fatalf("restart %d: search of a damaged index: %v, want ErrDamaged", restart, err)
		}
		ix.Close() // no Sync: the damage stays
	}
	ix, err = Open(path, c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ix.checked = true // only what the search met tells the Sync
	if err := search(ix); !errors.Is(err, ErrDamaged) {
		t.Fatalf("search of a damaged index: %v, want ErrDamaged", err)
	}
	st, err := ix.Sync(context.Background())
	if err != nil || st.Indexed != len(c.ids) {
		t.Fatalf("Sync: %+v %v", st, err)
	}
	if got := found(t, ix, c, sessionref.Target{}, "retry bug"); !slices.Equal(sorted(got), []string{"aa", "ff"}) {
		t.Fatalf("search after Sync: %v", got)
	}
	if n := ix.Notices(); len(n) != 1 || n[0].Kind != NoticeCorrupt || n[0].Err == nil {
		t.Fatalf("notices: %v", n)
	}
	// A sound index is not rebuilt again.
	if st, err := ix.Sync(context.Background()); err != nil || st.Indexed != 0 || len(ix.Notices()) != 1 {
		t.Fatalf("second Sync: %+v %v %v", st, err, ix.Notices())
	}
}

// TestMemoryIndexHeals: an index in memory that a search found damaged is
// rebuilt by the next Sync too.
func TestMemoryIndexHeals(t *testing.T) {
	c := newCorpus(t)
	ix := openSynced(t, c, "")
	ix.markDamaged(&damageError{"test"})
	st, err := ix.Sync(context.Background())
	if err != nil || st.Indexed != len(c.ids) {
		t.Fatalf("Sync: %+v %v", st, err)
	}
	if n := ix.Notices(); len(n) != 1 || n[0].Kind != NoticeCorrupt {
		t.Fatalf("notices: %v", n)
	}
	if got := found(t, ix, c, sessionref.Target{}, "崩溃"); !slices.Equal(got, []string{"bb"}) {
		t.Fatalf("search after Sync: %v", got)
	}
}
