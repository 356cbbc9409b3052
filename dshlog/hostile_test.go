package dshlog

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dshkit/mentions/jsonlog"
)

// TestSymlinksNotFollowed: below the root, a linked log, session
// directory or project directory is reported and never read, wherever it
// points; the root itself may be a link.
func TestSymlinksNotFollowed(t *testing.T) {
	outside := t.TempDir()
	target := place(t, outside, fixture(t, "acp-multi-turn.jsonl"), RawName)
	base := t.TempDir()
	root := filepath.Join(base, "root")
	os.MkdirAll(root, 0o755)
	place(t, root, fixture(t, "synthetic-torn-open-turn.jsonl"), RawName)

	// A linked log in a real session directory.
	sdir := filepath.Join(root, "--w--", "linked-file")
	os.MkdirAll(sdir, 0o755)
	if err := os.Symlink(target, filepath.Join(sdir, RawName)); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	// A linked session directory and a linked project directory.
	os.Symlink(filepath.Dir(target), filepath.Join(root, "--w--", "linked-dir"))
	os.Symlink(filepath.Dir(filepath.Dir(target)), filepath.Join(root, "--linked-project--"))
	// The root reached through a link.
	link := filepath.Join(base, "root-link")
	os.Symlink(root, link)

	s, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hs, err := s.ListSessions(ctx)
	if err != nil || len(hs) != 1 {
		t.Fatalf("listed %+v: %v", hs, err)
	}
	infos, _ := s.Sessions(ctx)
	refused := 0
	for _, in := range infos {
		var le *LogError
		if in.Err != nil {
			if !errors.As(in.Err, &le) || !errors.Is(in.Err, ErrNotRegular) || !strings.Contains(in.Err.Error(), "symbolic link") {
				t.Errorf("%s: %v", in.Path, in.Err)
			}
			refused++
		}
	}
	if refused != 3 {
		t.Fatalf("%d links reported, want 3: %+v", refused, infos)
	}
	if _, err := s.ReadSurface(ctx, "228b7b82-84ed-49b7-a567-981c03b28c77"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a session only reachable through a link: %v", err)
	}

	// A listed log whose session directory becomes a link is not read.
	id := hs[0].ID
	path, _ := s.pathOf(ctx, id)
	real := filepath.Dir(path)
	os.Rename(real, real+".moved")
	os.Symlink(real+".moved", real)
	if _, err := s.ReadSurface(ctx, id); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("read through a linked session directory: %v", err)
	}
	if ts, _ := s.ReadTitles(ctx, []string{id}); !errors.Is(ts[0].Err, ErrNotRegular) {
		t.Fatalf("titles through a linked session directory: %+v", ts[0])
	}
}

// TestRewriteInPlaceIsReadInFull: a log rewritten in place with a longer
// file (same inode, bigger, different earlier bytes) is not decoded as an
// append.
func TestRewriteInPlaceIsReadInFull(t *testing.T) {
	path := filepath.Join(t.TempDir(), RawName)
	data := fixture(t, "acp-multi-turn.jsonl")
	os.WriteFile(path, data, 0o644)
	s, _ := OpenFile(path)
	ctx := context.Background()
	id := "228b7b82-84ed-49b7-a567-981c03b28c77"
	first, err := s.ReadSurface(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// The same log with its first prompt changed, longer.
	changed := strings.Replace(string(data), "Reply with exactly the word: ONE.", "Reply with exactly the word: ONE, and at length, please.", -1)
	if changed == string(data) {
		t.Fatal("the fixture changed; pick another edit")
	}
	rewriteInPlace(t, path, changed)
	second, err := s.ReadSurface(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := OpenFile(path)
	want, _ := fresh.ReadSurface(ctx, id)
	if !reflect.DeepEqual(second, want) || reflect.DeepEqual(second, first) {
		t.Fatal("a rewrite in place was decoded as an append")
	}
}

// TestErrorsNameTheFile: listing errors, Info.Err and read errors are
// *LogError naming the file; permission denied is not not-found; a header
// error is not kept past a change of the file.
func TestErrorsNameTheFile(t *testing.T) {
	le := ioErr("/x/session.jsonl", &fs.PathError{Op: "open", Path: "/x/session.jsonl", Err: syscall.EACCES})
	if !errors.Is(le, ErrUnreadable) || !errors.Is(le, fs.ErrPermission) || errors.Is(le, ErrNotFound) ||
		!strings.Contains(le.Error(), "permission denied") || !strings.Contains(le.Error(), "/x/session.jsonl") {
		t.Fatalf("permission error: %v", le)
	}
	if nf := ioErr("/y", &fs.PathError{Op: "open", Path: "/y", Err: syscall.ENOENT}); !errors.Is(nf, ErrNotFound) || !errors.Is(nf, fs.ErrNotExist) {
		t.Fatalf("not found: %v", nf)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing root: %v", err)
	}

	root := t.TempDir()
	good := fixture(t, "acp-multi-turn.jsonl")
	path := place(t, root, good, RawName)
	// Break the header, keeping the size, so only ctime tells.
	bad := []byte(strings.Replace(string(good), `"type":"session"`, `"type":"sessioX"`, 1))
	st, _ := os.Stat(path)
	os.WriteFile(path, bad, 0o644)
	os.Chtimes(path, st.ModTime(), st.ModTime())
	s, _ := Open(root)
	ctx := context.Background()
	infos, _ := s.Sessions(ctx)
	var e *LogError
	if len(infos) != 1 || !errors.As(infos[0].Err, &e) || !errors.Is(e, ErrHeader) || e.Path != path {
		t.Fatalf("bad header: %+v", infos)
	}
	time.Sleep(10 * time.Millisecond) // a ctime that differs
	os.WriteFile(path, good, 0o644)
	os.Chtimes(path, st.ModTime(), st.ModTime())
	if hs, _ := s.ListSessions(ctx); len(hs) != 1 {
		t.Fatal("a header error was kept past a change of the file")
	}

	if os.Geteuid() != 0 && os.Getenv("GOOS") != "windows" {
		os.Chmod(path, 0)
		defer os.Chmod(path, 0o644)
		s2, _ := Open(root)
		infos, _ := s2.Sessions(ctx)
		if len(infos) != 1 || !errors.Is(infos[0].Err, fs.ErrPermission) || errors.Is(infos[0].Err, ErrNotFound) {
			t.Fatalf("permission denied read as %v", infos[0].Err)
		}
	}
}

// TestClosersAtScale: 40,000 pending calls in an open turn get one
// closer each, in call order, with the code their logging implies, and
// a log's index has them.
func TestClosersAtScale(t *testing.T) {
	evs := pendingCalls(40000)
	out := closersOf(evs)
	if len(out) != 40002 {
		t.Fatalf("%d closers", len(out))
	}
	for i, e := range out[:40000] {
		if e.extra().callID != evs[2].extra().toolCalls[i] || (i%2 == 0) != (len(e.extra().sources) == 1) {
			t.Fatalf("closer %d: %+v", i, e)
		}
	}
	if out[40000].typ != "step/end" || out[40001].typ != "turn/end" || out[40001].seq != int64(len(evs))+40001 {
		t.Fatal("step/end and turn/end close the list")
	}
	// A result closes its call; a step/end clears them all.
	done := append(evs[:len(evs):len(evs)], event{seq: int64(len(evs)), typ: "tool/result", x: &eventExtra{callID: "call-7"}})
	if n := len(closersOf(done)); n != 40001 {
		t.Fatalf("%d closers after one result", n)
	}
	ended := append(evs[:len(evs):len(evs)], event{seq: int64(len(evs)), typ: "step/end"})
	if n := len(closersOf(ended)); n != 1 {
		t.Fatalf("%d closers after step/end", n)
	}
	s, info := open1(t, "synthetic-torn-open-turn.jsonl")
	if p := statsOf(t, s, info.Path); p.closers != 4 { // the manifest says 4
		t.Fatalf("%d closers", p.closers)
	}
}

// closersOf is the crash-repair closers of events, applied in order.
func closersOf(evs []event) []event {
	var t turnState
	for i := range evs {
		t.apply(&evs[i])
	}
	return t.closers(int64(len(evs)) - 1)
}

// TestCacheBudget: the cache of indexes stays within its byte budget,
// evicting the least recently read log.
func TestCacheBudget(t *testing.T) {
	root := t.TempDir()
	// Four sessions (fixtures with four different ids).
	names := []string{"acp-multi-turn.jsonl", "headless-compaction-recovery.jsonl", "synthetic-unknown-ignorable.jsonl", "acp-packed-chunks.jsonl"}
	var ids []string
	for _, n := range names {
		place(t, root, fixture(t, n), RawName)
		_, info := open1(t, n)
		ids = append(ids, info.Header.ID)
	}
	ctx := context.Background()
	probe, _ := Open(root)
	var costs []int64
	var paths []string
	for _, id := range ids {
		if _, err := probe.ReadSurface(ctx, id); err != nil {
			t.Fatal(err)
		}
		path, _ := probe.pathOf(ctx, id)
		cost, _ := probe.logs.Cached(path)
		costs, paths = append(costs, cost), append(paths, path)
	}
	budget := costs[0] + costs[1] + costs[2] // not room for all four
	s, _ := Open(root, WithCacheBytes(budget))
	for round := 0; round < 3; round++ {
		for _, id := range ids {
			if _, err := s.ReadSurface(ctx, id); err != nil {
				t.Fatal(err)
			}
			if _, used := s.logs.CacheStats(); used > budget {
				t.Fatalf("cache holds %d bytes, budget %d", used, budget)
			}
		}
	}
	if n, _ := s.logs.CacheStats(); n == len(ids) || n == 0 {
		t.Fatalf("%d logs cached", n)
	}
	// The most recent read is kept, the least recent evicted.
	if _, ok := s.logs.Cached(paths[3]); !ok {
		t.Fatal("the most recent read is not cached")
	}
	if _, ok := s.logs.Cached(paths[0]); ok {
		t.Fatal("the least recent read is still cached")
	}
}

// TestLayoutMapping: the directory names follow the writer's rules, a
// header that does not map back to its directory is not listed, and an id
// under two project directories is not read from either.
func TestLayoutMapping(t *testing.T) {
	cwd := func(s string) *string { return &s }
	for in, want := range map[string]string{
		"/home/alice/src/my app":       "--home-alice-src-my~0020app--",
		`C:\Users\bob\proj`:            "--C-Users-bob-proj--",
		"/":                            "--root--",
		"~/x//y::z":                    "--~007E-x-y-z--",
		"/a/😀":                         "--a-~D83D~DE00--",
		"/" + strings.Repeat("a", 300): "--" + strings.Repeat("a", 251) + "--",
	} {
		if got := projectDir(cwd(in)); got != want {
			t.Errorf("projectDir(%q) = %s, want %s", in, got, want)
		}
	}
	if projectDir(nil) != "_no-cwd" || sessionDir(".") != "~002E" || sessionDir("..") != "~002E~002E" ||
		sessionDir("a/b c") != "a~002Fb~0020c" || sessionDir("228b7b82-84ed") != "228b7b82-84ed" {
		t.Error("session directory names")
	}

	root := t.TempDir()
	data := fixture(t, "acp-multi-turn.jsonl")
	id := "228b7b82-84ed-49b7-a567-981c03b28c77"
	// Misplaced: right project, wrong session directory.
	wrong := filepath.Join(root, projectDir(cwd("{{cwd}}")), "not-its-id", RawName)
	os.MkdirAll(filepath.Dir(wrong), 0o755)
	os.WriteFile(wrong, data, 0o644)
	s, _ := Open(root)
	ctx := context.Background()
	if hs, _ := s.ListSessions(ctx); len(hs) != 0 {
		t.Fatalf("a misplaced log is listed: %+v", hs)
	}
	if infos, _ := s.Sessions(ctx); len(infos) != 1 || !errors.Is(infos[0].Err, ErrHeader) {
		t.Fatalf("misplaced: %+v", infos)
	}
	os.RemoveAll(filepath.Dir(wrong))

	// The same id under two project directories (cwds that differ).
	place(t, root, data, RawName)
	other := strings.Replace(string(data), `"cwd":"{{cwd}}"`, `"cwd":"/elsewhere"`, 1)
	place(t, root, []byte(other), RawName)
	s, _ = Open(root)
	if hs, _ := s.ListSessions(ctx); len(hs) != 0 {
		t.Fatalf("a duplicated id is listed: %+v", hs)
	}
	if _, err := s.ReadSurface(ctx, id); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("a duplicated id is read: %v", err)
	}
	if ts, _ := s.ReadTitles(ctx, []string{id}); !errors.Is(ts[0].Err, ErrDuplicate) {
		t.Fatalf("titles of a duplicated id: %+v", ts)
	}
}

// TestLegacyWebToolResult: older web logs write a tool result's callId,
// content and isError directly in data; the reference reads one
// tool-result block whose content is data.content.
func TestLegacyWebToolResult(t *testing.T) {
	surf := read(t, "web-code-mode-round.jsonl")
	found := false
	for _, e := range surf.Events {
		if e.Type != "tool/result" {
			continue
		}
		found = true
		if len(e.Content) != 1 || e.Content[0].Type != "tool-result" || string(e.Content[0].Fields["toolCallId"]) != `"call_00_6VNoF1gDSerTBKoCfYSH3765"` ||
			!strings.HasPrefix(string(e.Content[0].Fields["content"]), `[{"type":"text","text":"{\n  \"bash\"`) ||
			string(e.Content[0].Fields["isError"]) != "false" || string(e.Source.Fields["callId"]) != `"call_00_6VNoF1gDSerTBKoCfYSH3765"` {
			t.Fatalf("legacy tool result read as %+v", e)
		}
	}
	if !found {
		t.Fatal("no tool result on the surface")
	}
}

// TestOpenFileFollowsItsOwnLink: the one file a caller names may be a
// link; it is read like the file it points to.
func TestOpenFileFollowsItsOwnLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.jsonl")
	os.WriteFile(target, fixture(t, "acp-multi-turn.jsonl"), 0o644)
	link := filepath.Join(dir, RawName)
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	s, err := OpenFile(link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadSurface(context.Background(), "228b7b82-84ed-49b7-a567-981c03b28c77"); err != nil {
		t.Fatal(err)
	}
}

// TestRewriteKeepingTheMark: a rewrite in place that keeps the bytes
// before the last stop is still told from an append when it changes the
// log's first 4 KiB (then grows), or when it keeps the size and even the
// mtime (the ctime changed); for surfaces and titles alike.
func TestRewriteKeepingTheMark(t *testing.T) {
	ctx := context.Background()
	data := string(fixture(t, "acp-multi-turn.jsonl"))
	id := "228b7b82-84ed-49b7-a567-981c03b28c77"
	// The same length, so every later byte keeps its offset.
	edited := strings.ReplaceAll(data, "Reply with exactly the word: ONE.", "Reply with exactly the word: SIX.")
	if edited == data || strings.Index(data, "word: ONE.") > 4<<10-100 || edited[len(data)-64:] != data[len(data)-64:] {
		t.Fatal("the fixture changed; pick another edit")
	}
	titled := func(title string) string {
		return `{"type":"session","version":0,"id":"rw","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n" +
			titleLine(0, title) + strings.Repeat(`{"type":"x/y","seq":1,"time":1,"ignorable":true}`+"\n", 3)
	}
	for _, tc := range []struct {
		name             string
		before, after    string
		keepMtime, title bool
	}{
		{"grown, head changed", data, edited + `{"type":"turn/sta`, false, false},
		{"same size, mtime kept", data, edited, true, false},
		{"title grown, head changed", titled("alpha"), titled("omega") + `{"ty`, false, true},
		{"title same size, mtime kept", titled("alpha"), titled("omega"), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), RawName)
			os.WriteFile(path, []byte(tc.before), 0o644)
			old, _ := os.Stat(path)
			s, _ := OpenFile(path)
			read := func(s *Store) any {
				if tc.title {
					ts, err := s.ReadTitles(ctx, []string{"rw"})
					if err != nil || ts[0].Err != nil || ts[0].Title == nil {
						t.Fatal(ts, err)
					}
					return ts[0].Title.Text
				}
				sf, err := s.ReadSurface(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				return sf
			}
			first := read(s)
			rewriteInPlace(t, path, tc.after)
			if tc.keepMtime {
				if err := os.Chtimes(path, old.ModTime(), old.ModTime()); err != nil {
					t.Fatal(err)
				}
			}
			now, _ := os.Stat(path)
			if k1, k2 := jsonlog.KeyOf(old), jsonlog.KeyOf(now); !k1.SameFile(k2) || (tc.keepMtime && (k1.Size != k2.Size || k1.Mtime != k2.Mtime)) {
				t.Fatalf("not the rewrite meant: %+v %+v", k1, k2)
			}
			fresh, _ := OpenFile(path)
			second, want := read(s), read(fresh)
			if !reflect.DeepEqual(second, want) || reflect.DeepEqual(second, first) {
				t.Fatalf("a rewrite in place was served as before: %v", second)
			}
		})
	}
}
