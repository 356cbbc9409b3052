package discover

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// corpus is a small store with one session per kind of text.
type corpus struct {
	store *fakestore.Store
	ids   map[string]string // name → id
	at    time.Time
}

func strp(s string) *string { return &s }

func (c *corpus) add(t testing.TB, name string, cwd *string, title string, msgs ...string) string {
	t.Helper()
	id := "00000000-0000-4000-8000-" + name + strings.Repeat("0", 12-len(name))
	if err := c.store.Create(id, cwd, c.at); err != nil {
		t.Fatal(err)
	}
	c.at = c.at.Add(time.Minute)
	for i, m := range msgs {
		var err error
		if i%2 == 0 {
			_, err = c.store.AppendUser(id, m)
		} else {
			_, err = c.store.AppendAssistant(id, m)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if title != "" {
		if _, err := c.store.SetTitle(id, title); err != nil {
			t.Fatal(err)
		}
	}
	c.ids[name] = id
	return id
}

func newCorpus(t testing.TB) *corpus {
	t.Helper()
	c := &corpus{store: fakestore.New(), ids: map[string]string{}, at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.add(t, "aa", strp("/src/a"), "Payment retry", "the retry bug in payments", "I fixed the exponential backoff in retry.go")
	c.add(t, "bb", strp("/src/b"), "", "请帮我看看解析器，空输入时会崩溃。", "已修复崩溃并添加了回归测试。")
	c.add(t, "cc", nil, "リファクタリング", "パーサーをテストしやすいように整理してください。", "了解しました 🎉")
	c.add(t, "dd", strp("/src/a"), "Café menu", "the menu shows cafe\u0301 wrong", "Fixed the accents in the crème brûlée line.")
	c.add(t, "ee", strp("/src/c"), "Go tooling", "go vet says nothing", "golang is fine, the CI is green")
	c.add(t, "ff", strp("/src/c"), "Bug triage", "which bug first? the retry one can wait", "Start with the login bug.")
	return c
}

func openSynced(t testing.TB, c *corpus, path string, opts ...Option) *Index {
	t.Helper()
	ix, err := Open(path, c.store, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// found returns the corpus names of the hits of q, in order.
func found(t testing.TB, ix *Index, c *corpus, target sessionref.Target, q string) []string {
	t.Helper()
	hits, err := ix.Search(context.Background(), target, q, 50)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	names := map[string]string{}
	for n, id := range c.ids {
		names[id] = n
	}
	var out []string
	for _, h := range hits {
		checkHit(t, q, h)
		out = append(out, names[h.SessionID])
	}
	return out
}

// checkHit asserts a hit's snippet is one safe line and its ranges are
// sorted, disjoint, on rune boundaries and inside it.
func checkHit(t testing.TB, q string, h Hit) {
	t.Helper()
	if !utf8.ValidString(h.Snippet) {
		t.Fatalf("%q: snippet is not UTF-8: %q", q, h.Snippet)
	}
	for _, r := range h.Snippet {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			t.Fatalf("%q: snippet holds control %U: %q", q, r, h.Snippet)
		}
	}
	last := 0
	for _, m := range h.Match {
		if m[0] < last || m[1] <= m[0] || m[1] > len(h.Snippet) ||
			!utf8.RuneStart(h.Snippet[m[0]]) || m[1] < len(h.Snippet) && !utf8.RuneStart(h.Snippet[m[1]]) {
			t.Fatalf("%q: bad match %v in %q (%v)", q, m, h.Snippet, h.Match)
		}
		last = m[1]
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func TestSearchFinds(t *testing.T) {
	c := newCorpus(t)
	ix := openSynced(t, c, "")
	cases := []struct {
		q    string
		want []string // sorted
	}{
		{"retry", []string{"aa", "ff"}},
		{"retry bug", []string{"aa", "ff"}},  // both words, anywhere
		{`"retry bug"`, []string{"aa"}},      // the phrase as written
		{`“retry bug”`, []string{"aa"}},      // curly quotes
		{`"retry bug`, []string{"aa"}},       // an unclosed quote runs to the end
		{"expon", []string{"aa"}},            // the start of a word being typed
		{"RETRY.GO", []string{"aa"}},         // case, punctuation inside a word
		{"go", []string{"aa", "ee"}},         // a short word being typed: go, golang, retry.go
		{"go vet", []string{"ee"}},           // a short word before others is a whole word
		{"ci", []string{"ee"}},               // two letters
		{"崩溃", []string{"bb"}},               // a two-character Chinese word
		{"解析器", []string{"bb"}},              // three characters
		{"回归 测试", []string{"bb"}},            // two two-character words
		{"整理", []string{"cc"}},               // Japanese, two characters
		{"リファクタ", []string{"cc"}},            // katakana, in the title
		{"🎉", []string{"cc"}},                // a lone emoji
		{"cafe", []string{"dd"}},             // decomposed accent, found without it
		{"café", []string{"dd"}},             // and with it
		{"creme brulee", []string{"dd"}},     // composed accents
		{"BRÛLÉE", []string{"dd"}},           // upper case with accents
		{"zebra", nil},                       // nothing
		{"retry zebra", nil},                 // all words must match
		{"payment", []string{"aa"}},          // the title alone
		{"(retry),", []string{"aa", "ff"}},   // punctuation around a word
		{"retry -bug", []string{"aa", "ff"}}, // "-" is not a negation
		{"login OR zebra", nil},              // OR is a word, not an operator
	}
	for _, tc := range cases {
		if got := sorted(found(t, ix, c, sessionref.Target{}, tc.q)); !slices.Equal(got, tc.want) {
			t.Errorf("Search(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestSearchHostileQueries(t *testing.T) {
	c := newCorpus(t)
	c.add(t, "gg", nil, "", `she said "NEAR(retry, bug)" AND OR NOT * ^ - {col}: x`)
	ix := openSynced(t, c, "")
	huge := strings.Repeat("retry ", 1<<20/6) + strings.Repeat(`"*(`, 1000)
	for _, q := range []string{`"`, `""`, `"""`, `*`, `**`, `NEAR(`, `NEAR(retry bug)`, `-`, `--`, `AND OR`, `AND`, `OR`, `NOT`,
		`(`, `)`, `^`, `:`, `title:retry`, `body: x`, `{title}:retry`, `retry*`, `*retry`, `'`, `\`, "\x00", "\xff\xfe",
		"\x1b[31m", "re\x00try", `" OR "`, `retry" OR "bug`, huge, strings.Repeat("a", 1<<20), strings.Repeat(`"`, 1<<20)} {
		hits, err := ix.Search(context.Background(), sessionref.Target{}, q, 10)
		if err != nil {
			t.Errorf("Search(%.40q) failed: %v", q, err)
		}
		for _, h := range hits {
			checkHit(t, q, h)
		}
	}
	// Nothing searchable: no hits, no error.
	for _, q := range []string{"", "   ", `"`, `*`, `-`, `NEAR(`[4:], `()`, `""`, "...", "\t\n", "\x00\x01", `+-*/`} {
		hits, err := ix.Search(context.Background(), sessionref.Target{}, q, 10)
		if err != nil || len(hits) != 0 {
			t.Errorf("Search(%q) = %d hits, %v; want none, no error", q, len(hits), err)
		}
	}
	// Operators are text: they find the session that says them.
	for _, q := range []string{`NEAR(`, `AND OR`, `"NEAR(retry, bug)"`, `col`} {
		if got := found(t, ix, c, sessionref.Target{}, q); !slices.Equal(got, []string{"gg"}) {
			t.Errorf("Search(%q) = %v, want [gg]", q, got)
		}
	}
	if _, err := ix.Search(context.Background(), sessionref.Target{}, "retry", 0); !errors.Is(err, ErrLimit) {
		t.Errorf("limit 0: %v, want ErrLimit", err)
	}
}

func TestSearchExcludesTargetAndRanksByCwd(t *testing.T) {
	c := &corpus{store: fakestore.New(), ids: map[string]string{}, at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	text := "the flaky websocket reconnect"
	c.add(t, "other", strp("/src/other"), "", text)
	c.add(t, "nocwd", nil, "", text)
	c.add(t, "same", strp("/src/here"), "", text)
	c.add(t, "self", strp("/src/here"), "", text)
	c.add(t, "titled", strp("/src/other"), "websocket reconnect", text) // a title match ranks first
	ix := openSynced(t, c, "")
	target := sessionref.Target{ID: c.ids["self"], Cwd: strp("/src/here")}
	got := found(t, ix, c, target, "websocket")
	want := []string{"titled", "same", "nocwd", "other"}
	if !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
	hits, _ := ix.Search(context.Background(), target, "websocket", 50)
	for _, h := range hits {
		if h.Rank != sessionref.RankOf(target, h.Cwd) {
			t.Errorf("%s: rank %v, want %v", h.Label, h.Rank, sessionref.RankOf(target, h.Cwd))
		}
	}
	if hits[0].Label != "websocket reconnect" || hits[1].Label != c.ids["same"] {
		t.Errorf("labels %q, %q: want the title, then the id", hits[0].Label, hits[1].Label)
	}
	// A limit keeps the best.
	if hits, _ := ix.Search(context.Background(), target, "websocket", 2); len(hits) != 2 || hits[1].SessionID != c.ids["same"] {
		t.Errorf("limit 2 gave %v", hits)
	}
}

func TestIndexesOnlyWhatPrepareShows(t *testing.T) {
	c := newCorpus(t)
	id := c.ids["aa"]
	must := func(_ int64, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.store.AppendTool(id, "toolsecret in the output"))
	must(c.store.AppendPlugin(id, "hooks", "pluginsecret note"))
	must(c.store.Append(id, sessionref.Event{Type: sessionref.EventAssistantMessage, Source: sessionref.Source{Kind: sessionref.SourceModel},
		Content: []sessionref.Block{{Type: sessionref.BlockReasoning, Text: "reasoningsecret"}, sessionref.TextBlock("visible answer")}}))
	must(c.store.Append(id, sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceSessionReference},
		Content: []sessionref.Block{sessionref.TextBlock("snapshotsecret")}}))
	ix := openSynced(t, c, "")
	for _, q := range []string{"toolsecret", "pluginsecret", "reasoningsecret", "snapshotsecret"} {
		if got := found(t, ix, c, sessionref.Target{}, q); len(got) != 0 {
			t.Errorf("%q was indexed: %v", q, got)
		}
	}
	if got := found(t, ix, c, sessionref.Target{}, "visible answer"); !slices.Equal(got, []string{"aa"}) {
		t.Errorf("assistant text not found: %v", got)
	}
	// A compaction checkpoint is shown, what it replaced is not.
	if _, err := c.store.CompactAll(id, "summary mentions the checkpointword"); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := found(t, ix, c, sessionref.Target{}, "checkpointword"); !slices.Equal(got, []string{"aa"}) {
		t.Errorf("checkpoint not found: %v", got)
	}
	if got := found(t, ix, c, sessionref.Target{}, "exponential"); len(got) != 0 {
		t.Errorf("compacted-away text still found: %v", got)
	}
}

func TestSyncIsIncremental(t *testing.T) {
	c := newCorpus(t)
	var mu sync.Mutex
	var progress []Progress
	ix := openSynced(t, c, "", WithProgress(func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }))
	ctx := context.Background()
	mu.Lock()
	if n := len(progress); n != len(c.ids)+1 || progress[0] != (Progress{0, len(c.ids)}) || progress[n-1] != (Progress{len(c.ids), len(c.ids)}) {
		t.Errorf("progress %v", progress)
	}
	mu.Unlock()

	st, err := ix.Sync(ctx)
	if err != nil || st.Indexed != 0 || st.Unchanged != len(c.ids) || st.Removed != 0 {
		t.Fatalf("second Sync: %+v, %v", st, err)
	}

	// A new message, a new title, a deleted session, a new session.
	if _, err := c.store.AppendUser(c.ids["aa"], "now also the kangaroo"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.store.SetTitle(c.ids["bb"], "解析器 wombat"); err != nil {
		t.Fatal(err)
	}
	if err := c.store.Delete(c.ids["ff"]); err != nil {
		t.Fatal(err)
	}
	c.add(t, "hh", nil, "", "a platypus appears")
	st, err = ix.Sync(ctx)
	if err != nil || st.Indexed != 3 || st.Removed != 1 || st.Unchanged != 3 || st.Sessions != 6 {
		t.Fatalf("Sync after changes: %+v, %v", st, err)
	}
	for q, want := range map[string]string{"kangaroo": "aa", "wombat": "bb", "platypus": "hh"} {
		if got := found(t, ix, c, sessionref.Target{}, q); !slices.Equal(got, []string{want}) {
			t.Errorf("%q = %v, want [%s]", q, got, want)
		}
	}
	hits, _ := ix.Search(ctx, sessionref.Target{}, "wombat", 5)
	if len(hits) != 1 || hits[0].Label != "解析器 wombat" {
		t.Errorf("new title not the label: %+v", hits)
	}
	if got := found(t, ix, c, sessionref.Target{}, "login"); len(got) != 0 {
		t.Errorf("deleted session still found: %v", got)
	}

	// A session that cannot be read is counted, and its entry kept.
	c.store.FailReads(c.ids["aa"], errors.New("disk on fire"))
	if _, err := c.store.AppendUser(c.ids["aa"], "unseen"); err != nil {
		t.Fatal(err)
	}
	st, err = ix.Sync(ctx)
	if err != nil || st.Failed != 1 || st.FirstErr == nil {
		t.Fatalf("Sync with a failing read: %+v, %v", st, err)
	}
	if got := found(t, ix, c, sessionref.Target{}, "kangaroo"); !slices.Equal(got, []string{"aa"}) {
		t.Errorf("unreadable session lost its entry: %v", got)
	}
}

func TestSyncHonoursContext(t *testing.T) {
	c := newCorpus(t)
	ix, err := Open("", c.store, WithProgress(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Sync(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Sync: %v", err)
	}
	// Cancelled half-way: what was done is kept, the next Sync finishes.
	ctx, cancel = context.WithCancel(context.Background())
	ix.opts.progress = func(p Progress) {
		if p.Done == 3 {
			cancel()
		}
	}
	st, err := ix.Sync(ctx)
	if !errors.Is(err, context.Canceled) || st.Indexed != 3 {
		t.Fatalf("Sync cancelled after 3: %+v, %v", st, err)
	}
	ix.opts.progress = nil
	st, err = ix.Sync(context.Background())
	if err != nil || st.Indexed != len(c.ids)-3 || st.Unchanged != 3 {
		t.Fatalf("resumed Sync: %+v, %v", st, err)
	}
	// A cancelled search says so.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Search(ctx, sessionref.Target{}, "retry", 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Search: %v", err)
	}
}

func TestSnippetIsSafe(t *testing.T) {
	c := newCorpus(t)
	long := strings.Repeat("padding words here ", 40)
	c.add(t, "zz", nil, "evil\x1b]0;title\x07", "line one\nthe \x1b[31m redhot\x1b[0m value \u202eevil\u202c and \r carriage\n"+long+"needle at the end "+long)
	ix := openSynced(t, c, "")
	hits, err := ix.Search(context.Background(), sessionref.Target{}, "redhot", 5)
	if err != nil || len(hits) != 1 {
		t.Fatal(hits, err)
	}
	h := hits[0]
	checkHit(t, "redhot", h)
	if strings.Contains(h.Snippet, "line one") || strings.Contains(h.Snippet, "padding") {
		t.Errorf("snippet is not the one matching line: %q", h.Snippet)
	}
	if len(h.Match) != 1 || h.Snippet[h.Match[0][0]:h.Match[0][1]] != "redhot" {
		t.Errorf("match %v in %q", h.Match, h.Snippet)
	}
	if strings.Contains(h.Label, "\x1b") {
		// The label is the store's text; the picker sanitises labels as it
		// does every candidate's. Only the snippet is ours.
		t.Logf("label kept verbatim: %q", h.Label)
	}
	hits, _ = ix.Search(context.Background(), sessionref.Target{}, "needle", 5)
	if len(hits) != 1 {
		t.Fatal(hits)
	}
	h = hits[0]
	checkHit(t, "needle", h)
	if utf8.RuneCountInString(h.Snippet) > snippetRunes+2 || !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") {
		t.Errorf("long line not cut around the match: %q", h.Snippet)
	}
	if len(h.Match) != 1 || h.Snippet[h.Match[0][0]:h.Match[0][1]] != "needle" {
		t.Errorf("match %v in %q", h.Match, h.Snippet)
	}
	// Accents and case: the match covers the text as written.
	hits, _ = ix.Search(context.Background(), sessionref.Target{}, "cafe", 5)
	if len(hits) != 1 || hits[0].Snippet[hits[0].Match[0][0]:hits[0].Match[0][1]] != "cafe\u0301" {
		t.Errorf("cafe: %+v", hits)
	}
}

func TestIndexFileIsACache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "index.sqlite")
	c := newCorpus(t)
	ix := openSynced(t, c, path)
	if n := ix.Notices(); len(n) != 1 || n[0].Kind != NoticeCreated {
		t.Fatalf("notices of a new file: %v", n)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("index file mode %v, %v: want private", fi.Mode(), err)
		}
	}
	ix.Close()

	// Reopened: nothing to say, nothing to index again.
	ix = openSynced(t, c, path)
	if n := ix.Notices(); len(n) != 0 {
		t.Fatalf("notices of a sound file: %v", n)
	}
	if st, err := ix.Sync(context.Background()); err != nil || st.Indexed != 0 {
		t.Fatalf("Sync after reopen: %+v %v", st, err)
	}
	ix.Close()

	// Older schema: rebuilt.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 0"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix = openSynced(t, c, path)
	if n := ix.Notices(); len(n) != 1 || n[0].Kind != NoticeSchema || !strings.Contains(n[0].String(), "rebuilt") {
		t.Fatalf("notices of an old file: %v", n)
	}
	if got := found(t, ix, c, sessionref.Target{}, "崩溃"); !slices.Equal(got, []string{"bb"}) {
		t.Fatalf("rebuilt index: %v", got)
	}
	ix.Close()

	// Garbage, and a file cut in half: rebuilt with a notice.
	for _, damage := range []func(){
		func() { os.WriteFile(path, []byte(strings.Repeat("not a database\n", 500)), 0o600) },
		func() {
			b, _ := os.ReadFile(path)
			os.WriteFile(path, append(b[:100], make([]byte, len(b)/2)...), 0o600)
		},
	} {
		removeIndexFiles(path + "-x") // no-op: the WAL is checkpointed on close
		damage()
		ix, err := Open(path, c.store)
		if err != nil {
			t.Fatalf("Open of a damaged file: %v", err)
		}
		if _, err := ix.Sync(context.Background()); err != nil {
			t.Fatalf("Sync of a damaged file: %v", err)
		}
		if n := ix.Notices(); len(n) != 1 || n[0].Kind != NoticeCorrupt || n[0].Err == nil {
			t.Fatalf("notices of a damaged file: %v", n)
		}
		if got := found(t, ix, c, sessionref.Target{}, "retry bug"); !slices.Equal(sorted(got), []string{"aa", "ff"}) {
			t.Fatalf("rebuilt index: %v", got)
		}
		ix.Close()
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	c := newCorpus(t)
	// Another database is never rebuilt over.
	foreign := filepath.Join(dir, "app.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE precious(x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.ReadFile(foreign)
	if err != nil || len(before) == 0 {
		t.Fatalf("the foreign database: %d bytes, %v", len(before), err)
	}
	if _, err := Open(foreign, c.store); !errors.Is(err, ErrForeign) {
		t.Errorf("foreign database: %v", err)
	}
	if after, err := os.ReadFile(foreign); err != nil || !slices.Equal(before, after) {
		t.Errorf("foreign database changed (%v)", err)
	}
	// Not a regular file.
	if _, err := Open(dir, c.store); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(dir, "link.sqlite")
		if err := os.Symlink(foreign, link); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(link, c.store); !errors.Is(err, ErrNotRegular) {
			t.Errorf("symlink: %v", err)
		}
	}
	// Never inside a sessions root.
	root := filepath.Join(dir, "sessions")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "x.sqlite"), filepath.Join(root, "p", "s", "x.sqlite")} {
		if _, err := Open(p, c.store, RefuseInside(root)); !errors.Is(err, ErrInsideRoot) {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := os.Stat(filepath.Dir(p)); filepath.Dir(p) != root && err == nil {
			t.Errorf("%s: directory created inside the root", p)
		}
	}
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 0 {
		t.Errorf("the sessions root was written: %v (%v)", entries, err)
	}
	ix, err := Open(filepath.Join(dir, "sessions-index.sqlite"), c.store, RefuseInside(root))
	if err != nil {
		t.Errorf("a sibling of the root: %v", err)
	} else {
		ix.Close()
	}
	if _, err := Open("", nil); err == nil {
		t.Error("nil store accepted")
	}
}

func TestDefaultPath(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv("LocalAppData", cache)
	a, err := DefaultPath("/some/root")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultPath("/some/root/")
	other, _ := DefaultPath("/other/root")
	if a != b || a == other {
		t.Errorf("paths %q %q %q: want one per root", a, b, other)
	}
	ucd, _ := os.UserCacheDir()
	if !strings.HasPrefix(a, ucd) {
		t.Errorf("%q is not under the cache dir %q", a, ucd)
	}
	if _, err := DefaultPath(filepath.Dir(ucd)); !errors.Is(err, ErrInsideRoot) {
		t.Errorf("a root holding the cache dir: %v", err)
	}
}

// TestTwoIndexesOneFile has two Index values (as two processes would)
// sync and search one file at once.
func TestTwoIndexesOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.sqlite")
	c := newCorpus(t)
	for i := range 40 {
		c.add(t, "n"+string(rune('a'+i/26))+string(rune('a'+i%26)), nil, "", "filler message about the numbat", "and its reply")
	}
	a, err := Open(path, c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for _, ix := range []*Index{a, b} {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 3 {
				if _, err := ix.Sync(ctx); err != nil {
					errs <- err
				}
				if _, err := c.store.AppendUser(c.ids["aa"], "more about the numbat"); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := ix.Search(ctx, sessionref.Target{}, "numbat", 100); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, ix := range []*Index{a, b} {
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if got := found(t, ix, c, sessionref.Target{}, "numbat"); len(got) != 41 {
			t.Errorf("numbat: %d hits, want 41", len(got))
		}
		if n := ix.Notices(); len(n) > 1 || len(n) == 1 && n[0].Kind != NoticeCreated {
			t.Errorf("notices: %v", n)
		}
	}
	var n int
	if err := a.conn().QueryRow(`SELECT count(*) FROM sessions`).Scan(&n); err != nil || n != len(c.ids) {
		t.Errorf("sessions rows %d, %v; want %d", n, err, len(c.ids))
	}
	if err := a.conn().QueryRow(`SELECT count(*) FROM docs`).Scan(&n); err != nil || n != len(c.ids) {
		t.Errorf("docs rows %d, %v; want %d", n, err, len(c.ids))
	}
	if _, err := a.conn().Exec(`INSERT INTO words(words) VALUES ('integrity-check')`); err != nil {
		t.Errorf("integrity: %v", err)
	}
}

// TestSyncSeesOtherWriters checks that a Sync does not trust what it
// remembers of the file once another Index wrote to it.
func TestSyncSeesOtherWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.sqlite")
	c := newCorpus(t)
	a := openSynced(t, c, path)
	b := openSynced(t, c, path)
	ctx := context.Background()
	if _, err := c.store.AppendUser(c.ids["aa"], "the quokka arrives"); err != nil {
		t.Fatal(err)
	}
	if err := c.store.Delete(c.ids["ff"]); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Sync(ctx); err != nil || st.Indexed != 1 || st.Removed != 1 {
		t.Fatalf("b: %+v %v", st, err)
	}
	// a learns from the file that both changes are done.
	if st, err := a.Sync(ctx); err != nil || st.Indexed != 0 || st.Removed != 0 {
		t.Fatalf("a after b: %+v %v", st, err)
	}
	// Another process empties the file behind a's back: a indexes again.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM sessions; DELETE FROM docs; DELETE FROM words; DELETE FROM tri; UPDATE meta SET v = v + 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if st, err := a.Sync(ctx); err != nil || st.Indexed != len(c.ids)-1 {
		t.Fatalf("a after the file was emptied: %+v %v", st, err)
	}
	if got := found(t, a, c, sessionref.Target{}, "quokka"); !slices.Equal(got, []string{"aa"}) {
		t.Fatalf("quokka: %v", got)
	}
}

// TestSearchWhileSyncing searches an in-memory index while its first
// Sync runs: no error, and what is done is found.
func TestSearchWhileSyncing(t *testing.T) {
	c := newCorpus(t)
	for i := range 300 {
		c.add(t, fmt.Sprintf("m%05d", i), nil, "", "a bilby story", "and more")
	}
	ix, err := Open("", c.store)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	done := make(chan error, 1)
	go func() { _, err := ix.Sync(context.Background()); done <- err }()
	for searching := true; searching; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			searching = false
		default:
			if _, err := ix.Search(context.Background(), sessionref.Target{}, "bilby", 5); err != nil {
				t.Fatal(err)
			}
		}
	}
	if hits, err := ix.Search(context.Background(), sessionref.Target{}, "bilby", 500); err != nil || len(hits) != 300 {
		t.Fatalf("after Sync: %d hits, %v", len(hits), err)
	}
}

func TestClosed(t *testing.T) {
	c := newCorpus(t)
	ix := openSynced(t, c, "")
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Search(context.Background(), sessionref.Target{}, "retry", 5); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close: %v", err)
	}
	if _, err := ix.Sync(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Sync after Close: %v", err)
	}
}
