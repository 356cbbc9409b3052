package dshlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dshkit/mentions/dshlog/internal/benchlog"
	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// fixtures are the small logs the unit tests need, kept in the repo.
const fixtures = "testdata"

// corpusDir finds the full 80-log corpus where $MENTIONS_DSHLOG_CORPUS
// says (.ci/run sets it); nothing outside the repository is read
// otherwise. Without it the corpus tests skip, saying so, unless
// MENTIONS_REQUIRE_CORPUS=1 (CI), which fails.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MENTIONS_DSHLOG_CORPUS")
	if dir == "" {
		if os.Getenv("MENTIONS_REQUIRE_CORPUS") == "1" {
			t.Fatal("the dshlog corpus is required (MENTIONS_REQUIRE_CORPUS=1) but MENTIONS_DSHLOG_CORPUS is not set")
		}
		t.Skip("SKIP: set MENTIONS_DSHLOG_CORPUS to the 80-log corpus to run the corpus tests")
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		if os.Getenv("MENTIONS_REQUIRE_CORPUS") == "1" {
			t.Fatalf("the dshlog corpus is required (MENTIONS_REQUIRE_CORPUS=1) but not found: %v", err)
		}
		t.Skipf("SKIP: the dshlog corpus is not here (%v); set MENTIONS_DSHLOG_CORPUS to run the 80-log corpus test", err)
	}
	return dir
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type row struct {
	file      string
	lines     int
	features  map[string]string
	reference string
}

func manifest(t testing.TB, corpus string) []row {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "file\t") || line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		n, _ := strconv.Atoi(cols[2])
		r := row{file: cols[0], lines: n, features: map[string]string{}}
		for _, ft := range strings.Fields(cols[3]) {
			k, v, _ := strings.Cut(ft, "=")
			r.features[k] = v
		}
		r.reference = r.features["reference"]
		rows = append(rows, r)
	}
	return rows
}

func open1(t testing.TB, name string) (*Store, Info) {
	t.Helper()
	return openPath(t, filepath.Join(fixtures, name))
}

func openPath(t testing.TB, path string) (*Store, Info) {
	t.Helper()
	name := filepath.Base(path)
	s, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := s.Sessions(context.Background())
	if err != nil || len(infos) != 1 {
		t.Fatalf("%s: %v", name, err)
	}
	return s, infos[0]
}

// TestCorpusOutcomes loads every corpus log and checks the outcome its
// manifest row implies.
func TestCorpusOutcomes(t *testing.T) {
	corpus := corpusDir(t)
	rows := manifest(t, corpus)
	if len(rows) != 80 {
		t.Fatalf("manifest has %d rows", len(rows))
	}
	ctx := context.Background()
	for _, r := range rows {
		t.Run(r.file, func(t *testing.T) {
			s, info := openPath(t, filepath.Join(corpus, r.file))
			if r.reference == "refused-format-version" {
				if !errors.Is(info.Err, ErrVersion) || !strings.Contains(info.Err.Error(), "upgrade") {
					t.Fatalf("want a version refusal that says to upgrade, got %v", info.Err)
				}
				return
			}
			if info.Err != nil {
				t.Fatalf("header: %v", info.Err)
			}
			if _, gap := r.features["header-no-delegationDepth"]; gap && len(info.Warnings) == 0 {
				t.Error("a header without delegationDepth should warn")
			}
			if _, gap := r.features["header-no-version"]; gap && len(info.Warnings) == 0 {
				t.Error("a header without version should warn")
			}
			hs, _ := s.ListSessions(ctx)
			if len(hs) != 1 || hs[0].ID != info.Header.ID {
				t.Fatalf("not listed: %+v", hs)
			}
			surf, err := s.ReadSurface(ctx, info.Header.ID)
			switch r.reference {
			case "corrupt":
				var le *LogError
				if !errors.As(err, &le) || !errors.Is(err, ErrCorrupt) || le.Line == 0 || !strings.Contains(err.Error(), r.file) {
					t.Fatalf("want corruption naming the file and line, got %v", err)
				}
				return
			case "refused-unknown-event-type":
				var le *LogError
				if !errors.As(err, &le) || !errors.Is(err, ErrUnknownEvent) || le.Line == 0 || !strings.Contains(err.Error(), r.file) {
					t.Fatalf("want an unknown-event refusal naming the file and line, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			// The decoded line count matches the manifest (header included).
			p := statsOf(t, s, info.Path)
			if got := p.lines; got != r.lines && r.features["crash-closers"] == "" && !strings.HasPrefix(r.file, "synthetic-garbage") {
				t.Errorf("decoded %d lines, manifest says %d", got, r.lines)
			}
			// Titles: the last session/title event.
			titles, _ := s.ReadTitles(ctx, []string{info.Header.ID})
			if n, _ := strconv.Atoi(r.features["titles"]); n > 0 && titles[0].Title == nil {
				t.Error("no title")
			} else if n == 0 && titles[0].Title != nil && r.features["titles"] != "" {
				t.Error("unexpected title")
			}
			// Crash-repair closers only for an open final turn.
			want, _ := strconv.Atoi(r.features["crash-closers"])
			if got := p.closers; got != want {
				t.Errorf("%d crash-repair closers, manifest says %d", got, want)
			}
			// Every surface event carries its seq and capturedThroughSeq
			// bounds them.
			for _, e := range surf.Events {
				if e.Seq == nil || surf.CapturedThroughSeq == nil || *e.Seq > *surf.CapturedThroughSeq {
					t.Fatalf("event seq %v beyond captured %v", e.Seq, surf.CapturedThroughSeq)
				}
			}
		})
	}
}

func seqs(s sessionref.Surface) []int64 {
	var out []int64
	for _, e := range s.Events {
		out = append(out, *e.Seq)
	}
	return out
}

func read(t *testing.T, name string) sessionref.Surface {
	t.Helper()
	s, info := open1(t, name)
	surf, err := s.ReadSurface(context.Background(), info.Header.ID)
	if err != nil {
		t.Fatal(err)
	}
	return surf
}

func TestCompactionFold(t *testing.T) {
	for _, name := range []string{"headless-compaction-recovery.jsonl", "synthetic-zstd-compaction-recovery.jsonl.zstd"} {
		surf := read(t, name)
		if got := seqs(surf); !reflect.DeepEqual(got, []int64{21, 13, 15, 28}) || *surf.CapturedThroughSeq != 30 {
			t.Fatalf("%s: surface %v captured %d", name, got, *surf.CapturedThroughSeq)
		}
		if !surf.Events[0].Source.IsCheckpoint() || surf.Events[2].Type != sessionref.EventToolResult {
			t.Fatalf("%s: checkpoint or tool result misplaced", name)
		}
		if *surf.Session.Cwd != "{{cwd}}" || surf.Session.ID != "{{sessionId}}" {
			t.Fatalf("placeholders are plain strings: %+v", surf.Session)
		}
	}
}

func TestTornOpenTurnClosers(t *testing.T) {
	surf := read(t, "synthetic-torn-open-turn.jsonl")
	if got := seqs(surf); !reflect.DeepEqual(got, []int64{4, 5, 17, 19, 20}) || *surf.CapturedThroughSeq != 22 {
		t.Fatalf("surface %v captured %d", got, *surf.CapturedThroughSeq)
	}
	codes := map[string]bool{}
	for _, e := range surf.Events[3:] {
		if !e.Synthetic || e.Type != sessionref.EventToolResult {
			t.Fatalf("closer %+v not marked synthetic", e)
		}
		var errInfo struct{ Code string }
		json.Unmarshal(e.Content[0].Fields["error"], &errInfo)
		codes[errInfo.Code] = true
	}
	if !codes[CodeToolOutcomeUnknown] || !codes[CodeToolNotStarted] {
		t.Fatalf("closer codes %v", codes)
	}
	for _, e := range surf.Events[:3] {
		if e.Synthetic {
			t.Fatal("a logged event marked synthetic")
		}
	}
	s, info := open1(t, "synthetic-torn-open-turn.jsonl")
	if open, _ := s.Open(context.Background(), info.Header.ID); !open {
		t.Fatal("an open final turn should read as in progress")
	}
}

func TestBadLineInOpenTurnIsTornTail(t *testing.T) {
	surf := read(t, "synthetic-garbage-in-open-turn.jsonl")
	if got := seqs(surf); !reflect.DeepEqual(got, []int64{4, 5, 34, 41}) || *surf.CapturedThroughSeq != 43 {
		t.Fatalf("surface %v captured %d", got, *surf.CapturedThroughSeq)
	}
}

func TestIgnorableUnknownEvent(t *testing.T) {
	surf := read(t, "synthetic-unknown-ignorable.jsonl")
	if *surf.CapturedThroughSeq != 40 { // the reference keeps the ignorable event in its view
		t.Fatalf("captured %d", *surf.CapturedThroughSeq)
	}
}

func TestZstdTornFrame(t *testing.T) {
	surf := read(t, "synthetic-zstd-torn-multi-turn.jsonl.zstd")
	if got := seqs(surf); !reflect.DeepEqual(got, []int64{4, 5, 34}) || *surf.CapturedThroughSeq != 36 {
		t.Fatalf("surface %v captured %d", got, *surf.CapturedThroughSeq)
	}
	// Cutting the file anywhere never makes it corrupt: the rest is a tail.
	data := fixture(t, "synthetic-zstd-compaction-recovery.jsonl.zstd")
	dir := t.TempDir()
	last := 0
	for cut := 1; cut <= len(data); cut += max(len(data)/97, 1) {
		path := filepath.Join(dir, "cut.jsonl.zstd")
		os.WriteFile(path, data[:cut], 0o644)
		s, _ := OpenFile(path)
		infos, _ := s.Sessions(context.Background())
		if infos[0].Err != nil {
			continue // the header frame is not whole yet
		}
		p := statsOf(t, s, path)
		if p.err != nil {
			t.Fatalf("cut at %d: %v", cut, p.err)
		}
		if n := int(p.next); n < last {
			t.Fatalf("cut at %d: %d events, fewer than %d", cut, n, last)
		} else {
			last = n
		}
	}
}

func TestDiscoveryAndDefaultRoot(t *testing.T) {
	root := t.TempDir()
	put := func(project, sid, name, src string) {
		dir := filepath.Join(root, project, sid)
		os.MkdirAll(dir, 0o755)
		data := fixture(t, src)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The layout's names, from the headers: cwd "{{cwd}}" and ids.
	put("--~007B~007Bcwd~007D~007D--", "228b7b82-84ed-49b7-a567-981c03b28c77", RawName, "acp-multi-turn.jsonl")
	put("--~007B~007Bcwd~007D~007D--", "~007B~007BsessionId~007D~007D", ZstdName, "synthetic-zstd-compaction-recovery.jsonl.zstd")
	put("_no-cwd", "00000000-0000-0000-0000-000000000000", RawName, "acp-handshake.jsonl")
	put("--x--", "d", RawName, "synthetic-version-1.jsonl")
	os.WriteFile(filepath.Join(root, "--x--", "d", "session.jsonl.0123456789ab.tmp"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(root, "stray.jsonl"), []byte("junk"), 0o644)
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := s.ListSessions(context.Background())
	if err != nil || len(hs) != 3 {
		t.Fatalf("listed %d: %v", len(hs), err)
	}
	for i := 1; i < len(hs); i++ {
		if hs[i-1].CreatedAt < hs[i].CreatedAt {
			t.Fatal("not newest first")
		}
	}
	r, _ := sessionref.NewResolver(s, sessionref.Config{})
	cands, err := r.ListCandidates(context.Background(), sessionref.Target{ID: "x"}, "", 10)
	if err != nil || len(cands) != 3 {
		t.Fatalf("candidates %d: %v", len(cands), err)
	}

	home, _ := os.UserHomeDir()
	for env, want := range map[string]string{"": filepath.Join(home, ".dsh", "sessions"), "   ": filepath.Join(home, ".dsh", "sessions"),
		"~/dsh": filepath.Join(home, "dsh", "sessions"), "/opt/dsh": "/opt/dsh/sessions"} {
		t.Setenv("DSH_HOME", env)
		if got, _ := DefaultRoot(); got != want {
			t.Errorf("DSH_HOME=%q: %s, want %s", env, got, want)
		}
	}
	t.Setenv("DSH_HOME", "rel")
	wd, _ := os.Getwd()
	if got, _ := DefaultRoot(); got != filepath.Join(wd, "rel", "sessions") {
		t.Errorf("relative DSH_HOME: %s", got)
	}
}

func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, RawName)
	data := fixture(t, "synthetic-torn-open-turn.jsonl")
	if err := os.WriteFile(path, data, 0o444); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := s.Sessions(context.Background())
	if err != nil || len(infos) != 1 {
		t.Fatalf("%d sessions, %v", len(infos), err)
	}
	// The log's last turn is open: the read adds closers, in memory only.
	surf, err := s.ReadSurface(context.Background(), infos[0].Header.ID)
	if err != nil || len(surf.Events) == 0 {
		t.Fatalf("%d events, %v", len(surf.Events), err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) || before.Mode() != after.Mode() || len(entries) != 1 {
		t.Fatal("the store changed the directory or the file")
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the file's bytes changed (%v)", err)
	}
}

// TestLiveAppend reads a log while another writer appends to it, a line
// and a half at a time: reads stay consistent, a half-written line is not
// yet there, and a grown file is decoded from where the last read ended.
func TestLiveAppend(t *testing.T) {
	src := fixture(t, "acp-multi-turn.jsonl")
	lines := strings.SplitAfter(string(src), "\n")
	path := filepath.Join(t.TempDir(), RawName)
	f, _ := os.Create(path)
	defer f.Close()
	f.WriteString(lines[0])
	s, _ := OpenFile(path)
	id := func() string { in, _ := s.Sessions(context.Background()); return in[0].Header.ID }()
	prevCommitted, prevEvents := int64(0), 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, l := range lines[1:] {
			half := len(l) / 2
			f.WriteString(l[:half])
			f.Sync()
			f.WriteString(l[half:])
			f.Sync()
		}
	}()
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		if _, err := s.ReadSurface(context.Background(), id); err != nil {
			t.Fatalf("read during append: %v", err)
		}
		p := statsOf(t, s, path)
		if p.end < prevCommitted || int(p.next) < prevEvents {
			t.Fatal("a later read saw less")
		}
		prevCommitted, prevEvents = p.end, int(p.next)
	}
	surf, err := s.ReadSurface(context.Background(), id)
	if err != nil || len(surf.Events) != 5 || *surf.CapturedThroughSeq != 70 {
		t.Fatalf("final read: %v %v", err, seqs(surf))
	}
	fresh, _ := OpenFile(path)
	again, _ := fresh.ReadSurface(context.Background(), id)
	if !reflect.DeepEqual(again, surf) {
		t.Fatal("the incremental read differs from a fresh one")
	}
}

func TestPrepareOverLogs(t *testing.T) {
	s, info := open1(t, "headless-compaction-recovery.jsonl")
	r, _ := sessionref.NewResolver(s, sessionref.Config{})
	p, err := r.Prepare(context.Background(), sessionref.Target{ID: "me"}, nil, []sessionref.Reference{{SessionID: info.Header.ID}})
	if err != nil {
		t.Fatal(err)
	}
	rec := p.Context.Source.References[0]
	if !rec.Compacted || rec.OriginalMessages != 2 || *rec.CapturedThroughSeq != 30 {
		t.Fatalf("record %+v", rec)
	}
	if _, err := r.Prepare(context.Background(), sessionref.Target{ID: "me"}, nil, []sessionref.Reference{{SessionID: "nope"}}); sessionref.CodeOf(err) != sessionref.CodeReadFailed || !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing session: %v", err)
	}
}

func FuzzLog(f *testing.F) {
	for _, name := range []string{"headless-compaction-recovery.jsonl", "synthetic-torn-open-turn.jsonl", "synthetic-garbage-before-turn-end.jsonl", "acp-packed-chunks.jsonl"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err == nil {
			f.Add(data, false)
		}
	}
	if data, err := os.ReadFile(filepath.Join(fixtures, "synthetic-zstd-torn-multi-turn.jsonl.zstd")); err == nil {
		f.Add(data, true)
	}
	f.Add([]byte("{\"type\":\"session\",\"version\":0,\"id\":\"x\",\"createdAt\":1}\n{\"type\":\"user/message\",\"seq\":0,\"time\":1,\"data\":{\"content\":[],\"source\":{\"kind\":\"user\"}},\"surfaceOp\":{\"op\":\"replace\",\"start\":0,\"end\":0}}\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, isZstd bool) {
		name := RawName
		if isZstd {
			name = ZstdName
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenFile(path, WithMaxLogBytes(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		p := statsOf(t, s, path)
		if p.err != nil {
			var le *LogError
			if !errors.As(p.err, &le) {
				t.Fatalf("untyped error %v", p.err)
			}
			return
		}
		infos, _ := s.Sessions(context.Background())
		if len(infos) != 1 || infos[0].Err != nil {
			return // the header is not a session's: nothing to read by id
		}
		surf, err := s.ReadSurface(context.Background(), infos[0].Header.ID)
		if err != nil {
			var le *LogError
			if !errors.As(err, &le) {
				t.Fatalf("untyped read error %v", err)
			}
			return
		}
		for i, e := range surf.Events {
			if e.Seq == nil || i > 0 && *e.Seq == *surf.Events[i-1].Seq || e.Type == "" {
				t.Fatalf("surface event %d is not a message: %+v", i, e)
			}
		}
		if len(surf.Events) > 0 && (surf.CapturedThroughSeq == nil || *surf.CapturedThroughSeq < *surf.Events[len(surf.Events)-1].Seq) {
			t.Fatalf("captured %v before the last message", surf.CapturedThroughSeq)
		}
	})
}

// indexStats is what a test looks at in a log's index.
type indexStats struct {
	lines, closers int
	next, end      int64
	stopped        bool
	err            error
}

// statsOf reads the index of the log at path as s's reads see it (a
// torn frame's lines included).
func statsOf(t testing.TB, s *Store, path string) indexStats {
	t.Helper()
	var st indexStats
	err := s.logs.Use(context.Background(), path, func(ix *index, snap jsonlog.Snapshot) error {
		st = indexStats{lines: ix.lines, closers: len(ix.closers()), next: ix.next, end: snap.End, stopped: ix.stopped, err: ix.readErr()}
		return nil
	})
	if err != nil {
		st.err = s.engineErr(path, err)
	}
	return st
}

// TestIndexFollowsTheRoot: reads use the id index of the last listing, a
// session created since is found by a rescan, and a removed one is
// reported as not found.
func TestIndexFollowsTheRoot(t *testing.T) {
	root := t.TempDir()
	put := func(src string) string { return place(t, root, fixture(t, src), RawName) }
	put("acp-multi-turn.jsonl")
	s, _ := Open(root)
	ctx := context.Background()
	if hs, _ := s.ListSessions(ctx); len(hs) != 1 {
		t.Fatal("first listing")
	}
	path := put("acp-handshake.jsonl") // after the listing
	if _, err := s.ReadSurface(ctx, "00000000-0000-0000-0000-000000000000"); err != nil {
		t.Fatalf("a new session is not found: %v", err)
	}
	titles, _ := s.ReadTitles(ctx, []string{"228b7b82-84ed-49b7-a567-981c03b28c77", "nope"})
	if titles[0].Title == nil || !errors.Is(titles[1].Err, ErrNotFound) {
		t.Fatalf("titles %+v", titles)
	}
	if _, ok := s.logs.Cached(path); !ok {
		t.Fatal("a read log is not cached")
	}
	os.Remove(path)
	if _, err := s.ReadSurface(ctx, "00000000-0000-0000-0000-000000000000"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a removed session: %v", err)
	}
	if _, ok := s.logs.Cached(path); ok {
		t.Fatal("a removed log's index is still cached")
	}
}

// place writes a log where its header says it belongs under root.
func place(t testing.TB, root string, data []byte, name string) string {
	t.Helper()
	line := data
	if i := strings.IndexByte(string(data), '\n'); i >= 0 {
		line = data[:i]
	}
	h, _, err := parseHeader("place", line)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, projectDir(h.Cwd), sessionDir(*h.ID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func linesOfSize(t *testing.T, size int) []string {
	t.Helper()
	return benchlog.Lines("halves", size)
}

// TestBadLineFarFromTurnEnd: a bad line whose later turn/end is
// megabytes away still makes the log corrupt; without one the rest is a
// torn tail, and what came before it reads.
func TestBadLineFarFromTurnEnd(t *testing.T) {
	text := strings.Join(linesOfSize(t, 4<<20), "")
	path := filepath.Join(t.TempDir(), RawName)
	lines := strings.SplitAfter(text, "\n")
	bad := strings.Join(lines[:20], "") + "{garbage\n" + strings.Join(lines[20:], "")
	os.WriteFile(path, []byte(bad), 0o644)
	s, _ := OpenFile(path)
	if p := statsOf(t, s, path); !errors.Is(p.err, ErrCorrupt) || p.next == 0 {
		t.Fatalf("a bad line before a turn/end megabytes later: %v", p.err)
	}
	var noEnd []string
	for _, l := range lines[20:] {
		if !strings.Contains(l, `"turn/end"`) {
			noEnd = append(noEnd, l)
		}
	}
	os.WriteFile(path, []byte(strings.Join(lines[:20], "")+"{garbage\n"+strings.Join(noEnd, "")), 0o644)
	s, _ = OpenFile(path)
	if p := statsOf(t, s, path); p.err != nil || !p.stopped || p.next == 0 {
		t.Fatalf("a bad line with no later turn/end: %v stopped=%v", p.err, p.stopped)
	}
}
