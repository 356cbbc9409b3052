package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/dshlog"
)

// copyLog copies a real DeepSeek Harness log to dst. It is looked for in
// $MENTIONS_DSHLOG_CORPUS (the full corpus, as CI sets it), else in the
// small copies dshlog keeps in the repository; nothing outside the
// repository is read unless the variable names it. Found nowhere, the
// test skips, saying so, unless MENTIONS_REQUIRE_CORPUS=1, which fails it.
func copyLog(t *testing.T, name, dst string) {
	t.Helper()
	var dirs []string
	if d := os.Getenv("MENTIONS_DSHLOG_CORPUS"); d != "" {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, filepath.Join("..", "..", "dshlog", "testdata"))
	var b []byte
	var err error
	for _, d := range dirs {
		if b, err = os.ReadFile(filepath.Join(d, name)); err == nil {
			break
		}
	}
	if err != nil {
		if os.Getenv("MENTIONS_REQUIRE_CORPUS") == "1" {
			t.Fatalf("the log %s is required (MENTIONS_REQUIRE_CORPUS=1) but found in none of %q: %v", name, dirs, err)
		}
		t.Skipf("SKIP: the log %s is in none of %q; set MENTIONS_DSHLOG_CORPUS: %v", name, dirs, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// realLog is a log of the corpus that dshlog also keeps a copy of.
const realLog = "acp-multi-turn.jsonl"

// TestAddLogsSaysWhyNone: a folder of logs not laid out as a sessions
// root loads no session, and the demo says why: how many logs lie
// directly in it or were skipped and for what, and the layout expected.
func TestAddLogsSaysWhyNone(t *testing.T) {
	flat := t.TempDir()
	for _, n := range []string{"a.jsonl", "b.jsonl", "c.jsonl.zstd"} {
		if err := os.WriteFile(filepath.Join(flat, n), []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(flat, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	misplaced := t.TempDir()
	copyLog(t, realLog, filepath.Join(misplaced, "proj", "sess", "session.jsonl"))
	copyLog(t, realLog, filepath.Join(misplaced, "proj", "sess2", "session.jsonl"))
	// Links below a root are never followed: a root of links lists none.
	links := t.TempDir()
	target := filepath.Join(t.TempDir(), "session.jsonl")
	copyLog(t, realLog, target)
	if err := os.MkdirAll(filepath.Join(links, "proj", "sess"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(links, "proj", "sess", "session.jsonl")); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		root string
		want []string
	}{
		{flat, []string{"0 DeepSeek Harness sessions in " + flat + ". 3 logs directly in it were not read. A sessions root keeps each log at " + layout + "."}},
		// With nothing listed, the first log's own error says what to fix,
		// its path from the root.
		{misplaced, []string{"0 DeepSeek Harness sessions in " + misplaced + "; 2 logs skipped. 2 logs' headers do not match the folders they lie in. ",
			". The first: proj/sess", "/session.jsonl", ": invalid session header: ", "belongs in ", layout}},
		{links, []string{"; 1 log skipped. 1 log is not a regular file (links are not followed). The first: proj/sess/session.jsonl"}},
		{t.TempDir(), []string{"0 DeepSeek Harness sessions in ", ". No logs found. A sessions root keeps each log at " + layout + "."}},
	} {
		o := demo.Options{StoreName: "fakestore, 5 sessions"}
		if err := addLogs(&o, tc.root, false, 5); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(o.Notice, w) {
				t.Errorf("%s: notice %q does not say %q", tc.root, o.Notice, w)
			}
		}
		if tc.root == links && strings.Contains(o.Notice, layout) {
			t.Errorf("%s: a link is no layout problem, and the notice gives the layout: %q", tc.root, o.Notice)
		}
		if strings.Contains(o.Notice, "..") {
			t.Errorf("%s: %q", tc.root, o.Notice)
		}
		if !strings.HasPrefix(o.StoreName, "5 generated + 0 DeepSeek Harness sessions in ") {
			t.Errorf("%s: store name %q", tc.root, o.StoreName)
		}
	}
}

// TestAddLogsQuietWhenFine: a root whose every log lists has no notice.
func TestAddLogsQuietWhenFine(t *testing.T) {
	// A session's id and cwd name its directory: place the log where
	// the store says it belongs.
	root := t.TempDir()
	first := filepath.Join(root, "proj", "sess", "session.jsonl")
	copyLog(t, realLog, first)
	store, err := dshlog.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := store.Sessions(context.Background())
	var le *dshlog.LogError
	if err != nil || len(infos) != 1 || !errors.As(infos[0].Err, &le) {
		t.Fatalf("%v %+v", err, infos)
	}
	_, where, ok := strings.Cut(le.Detail, "belongs in ")
	where, _, _ = strings.Cut(where, ", not here")
	if !ok {
		t.Fatalf("cannot tell where the log belongs: %q", le.Detail)
	}
	copyLog(t, realLog, filepath.Join(root, where, "session.jsonl"))
	if err := os.RemoveAll(filepath.Join(root, "proj")); err != nil {
		t.Fatal(err)
	}
	o := demo.Options{}
	if err := addLogs(&o, root, false, 0); err != nil {
		t.Fatal(err)
	}
	if o.Notice != "" || !strings.HasPrefix(o.StoreName, "0 generated + 1 DeepSeek Harness session in ") {
		t.Fatalf("notice %q, store name %q", o.Notice, o.StoreName)
	}
}

// TestRootNoticeOneSentencePerCause: each cause is its own sentence,
// counted in words that agree with the count; the layout a root expects
// is given only for a cause about where logs lie.
func TestRootNoticeOneSentencePerCause(t *testing.T) {
	errOf := func(s error) dshlog.Info { return dshlog.Info{Err: fmt.Errorf("p/s/session.jsonl: %w", s)} }
	infos := []dshlog.Info{{}, {}, errOf(dshlog.ErrDuplicate), errOf(dshlog.ErrDuplicate), errOf(dshlog.ErrDuplicate), errOf(dshlog.ErrDuplicate), errOf(dshlog.ErrVersion)}
	got := rootNotice("/r", 2, infos, 0)
	want := "2 DeepSeek Harness sessions in /r; 5 logs skipped. 4 session ids are each under two project folders (none of them is listed). 1 log is of an unsupported version."
	if got != want {
		t.Fatalf("notice\n%q\nwant\n%q", got, want)
	}
	got = rootNotice("/r", 1, []dshlog.Info{{}, errOf(dshlog.ErrHeader)}, 0)
	want = "1 DeepSeek Harness session in /r; 1 log skipped. 1 log's header does not match the folder it lies in. A sessions root keeps each log at " + layout + "."
	if got != want {
		t.Fatalf("notice\n%q\nwant\n%q", got, want)
	}
}

// A header that is not a session's, and a raw log beside a zstd one, are
// told as what they are, not as a misplaced log or an id in two project
// folders.
func TestSkipCauseTellsHeadersAndPairs(t *testing.T) {
	for _, c := range []struct {
		err  error
		key  string
		f1   string
		says string
	}{
		{&dshlog.LogError{Path: "p", Line: 1, Err: dshlog.ErrHeader, Detail: "no complete header line"}, "badheader", "no valid session header", "1 log has no valid session header"},
		{&dshlog.LogError{Path: "p", Line: 1, Err: dshlog.ErrHeader, Detail: `session "x" with its cwd belongs in a/b, not here`}, "header", "a header that does not match its folder", "1 log's header does not match the folder it lies in"},
		{&dshlog.LogError{Path: "p", Err: dshlog.ErrDuplicate, Detail: "the session directory also holds session.jsonl, which is read instead"}, "pair", "a zstd log beside a raw one (the raw one is read)", "1 session directory holds both a raw and a zstd log (the raw one is read)"},
		{&dshlog.LogError{Path: "p", Err: dshlog.ErrDuplicate, Detail: `session "x" also has a log at q; neither is read`}, "duplicate", "the same session id in another project folder", "1 session id is under two project folders (neither is listed)"},
	} {
		key, say, _ := skipCause(c.err)
		if key != c.key || dshReason(c.err) != c.f1 || say(1) != c.says {
			t.Errorf("%v: key %q, F1 %q, notice %q", c.err, key, dshReason(c.err), say(1))
		}
	}
}
