package discover

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// rewritable is a store of one session whose text and title can be
// rewritten while its seqs stay: a log replaced by another of the same
// shape. seqs and versions turn SeqLister and VersionLister on.
type rewritable struct {
	mu      sync.Mutex
	text    string
	title   string
	version string
}

func (r *rewritable) ListSessions(context.Context) ([]sessionref.SessionHeader, error) {
	return []sessionref.SessionHeader{{ID: "rw", CreatedAt: 1}}, nil
}

func (r *rewritable) ReadTitles(_ context.Context, ids []string) ([]sessionref.TitleResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]sessionref.TitleResult, len(ids))
	for i := range ids {
		out[i].Title = &sessionref.Title{Text: r.title, EventSeq: 5}
	}
	return out, nil
}

func (r *rewritable) ReadSurface(context.Context, string) (sessionref.Surface, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, last := int64(0), int64(9)
	return sessionref.Surface{Session: sessionref.SessionHeader{ID: "rw", CreatedAt: 1}, CapturedThroughSeq: &last,
		Events: []sessionref.Event{{Seq: &seq, Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceUser},
			Content: []sessionref.Block{{Type: sessionref.BlockText, Text: r.text}}}}}, nil
}

func (r *rewritable) set(text, title, version string) {
	r.mu.Lock()
	r.text, r.title, r.version = text, title, version
	r.mu.Unlock()
}

type withSeqs struct{ *rewritable }

func (w withSeqs) CapturedSeqs(_ context.Context, ids []string) ([]*int64, error) {
	out := make([]*int64, len(ids))
	for i := range out {
		last := int64(9)
		out[i] = &last
	}
	return out, nil
}

type withVersions struct{ withSeqs }

func (w withVersions) SessionVersions(_ context.Context, ids []string) ([]string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, len(ids))
	for i := range out {
		out[i] = w.version
	}
	return out, nil
}

// A session rewritten with the same seqs is indexed again: by its text's
// hash for a store read in full, by its token for a store that lists
// seqs and versions; a title whose text changed with its seq is indexed
// again by any store. Across restarts too: the index is a file.
func TestRewriteWithSameSeqs(t *testing.T) {
	hits := func(ix *Index, q string) int {
		t.Helper()
		h, err := ix.Search(context.Background(), sessionref.Target{}, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		return len(h)
	}
	r := &rewritable{}
	for _, tc := range []struct {
		name  string
		store sessionref.SessionQuery
	}{{"read in full", r}, {"versions", withVersions{withSeqs{r}}}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.sqlite")
			for step, c := range []struct{ text, title, version, gone, found string }{
				{"the old walrus words", "old heading", "v1", "", "walrus"},
				{"the new narwhal words", "old heading", "v2", "walrus", "narwhal"},
				{"the new narwhal words", "fresh title", "v2", "heading", "fresh"},
			} {
				r.set(c.text, c.title, c.version)
				ix, err := Open(path, tc.store)
				if err != nil {
					t.Fatal(err)
				}
				st, err := ix.Sync(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if c.gone != "" && hits(ix, c.gone) != 0 || hits(ix, c.found) != 1 {
					t.Fatalf("step %d (%+v): %q %d hits, %q %d hits", step, st, c.gone, hits(ix, c.gone), c.found, hits(ix, c.found))
				}
				// Nothing changed since: a second Sync writes nothing.
				if st, err := ix.Sync(context.Background()); err != nil || st.Indexed != 0 {
					t.Fatalf("step %d: second Sync %+v %v", step, st, err)
				}
				ix.Close()
			}
		})
	}
	// Without versions, a store that lists seqs cannot tell a rewrite of
	// the text; its title change is still seen.
	path := filepath.Join(t.TempDir(), "index.sqlite")
	r.set("the old walrus words", "old heading", "")
	ix, err := Open(path, withSeqs{r})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ix.Sync(context.Background())
	r.set("the old walrus words", "fresh heading", "")
	ix.Sync(context.Background())
	if hits(ix, "fresh") != 1 || hits(ix, "walrus") != 1 {
		t.Fatal("title rewritten with its seq is not indexed")
	}
}
