package dshlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

func titleLine(seq int, title string) string {
	return fmt.Sprintf(`{"type":"session/title","seq":%d,"time":%d,"data":{"title":%q,"messageSeqs":[],"source":{"kind":"fallback"}}}`+"\n", seq, 1000+seq, title)
}

// TestTitlesWithoutEvents: titles come from a byte scan, never from the
// event cache; a line that only mentions session/title is not a title; a
// grown log is scanned from where the last scan stopped; a log rewritten
// in place with a longer file is scanned again in full.
func TestTitlesWithoutEvents(t *testing.T) {
	root := t.TempDir()
	head := `{"type":"session","version":0,"id":"t1","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n"
	body := head +
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n" +
		titleLine(1, "first") +
		`{"type":"user/message","seq":2,"time":1,"data":{"id":"u","role":"user","content":[{"type":"text","text":"not a \"session/title\" record"}],"source":{"kind":"user"}},"surfaceOp":"append"}` + "\n"
	path := place(t, root, []byte(body), RawName)
	s, _ := Open(root)
	ctx := context.Background()
	hs, ts, err := s.ListSessionsWithTitles(ctx)
	if err != nil || len(hs) != 1 || ts[0].Title == nil || ts[0].Title.Text != "first" || ts[0].Title.EventSeq != 1 {
		t.Fatalf("titles %+v %v", ts, err)
	}
	got, _ := s.ReadTitles(ctx, []string{"t1"})
	if got[0].Title == nil || got[0].Title.Text != "first" {
		t.Fatalf("ReadTitles %+v", got)
	}
	if n, _ := s.logs.CacheStats(); n != 0 {
		t.Fatal("reading titles filled the event cache")
	}
	scanned := titleEnd(t, s, path)
	if scanned != int64(len(body)) {
		t.Fatalf("scan stopped at %d of %d", scanned, len(body))
	}

	// Growth: a new title and a half-written line after it.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(titleLine(3, "second") + `{"type":"session/title","seq":4,"ti`)
	f.Close()
	got, _ = s.ReadTitles(ctx, []string{"t1"})
	if got[0].Title == nil || got[0].Title.Text != "second" {
		t.Fatalf("after growth %+v", got[0].Title)
	}
	if end := titleEnd(t, s, path); end != int64(len(body)+len(titleLine(3, "second"))) {
		t.Fatalf("the half-written line was taken: read to %d", end)
	}

	// A rewrite in place, longer, with different earlier bytes and no
	// title past the old stop: the scan starts over, so the old titles
	// are gone.
	before, _ := os.Stat(path)
	rewritten := head + `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n" + titleLine(1, "rewritten") +
		strings.Repeat(`{"type":"turn/start","seq":2,"time":1,"data":{"turn":1}}`+"\n", 20)
	rewriteInPlace(t, path, rewritten)
	after, _ := os.Stat(path)
	if k1, k2 := jsonlog.KeyOf(before), jsonlog.KeyOf(after); !k1.SameFile(k2) || k2.Size <= k1.Size {
		t.Fatalf("not a rewrite in place of a longer file: %+v %+v", k1, k2)
	}
	got, _ = s.ReadTitles(ctx, []string{"t1"})
	if got[0].Title == nil || got[0].Title.Text != "rewritten" {
		t.Fatalf("after a rewrite in place %+v", got[0].Title)
	}
}

// titleEnd is where the title index of the log at path stopped reading.
func titleEnd(t *testing.T, s *Store, path string) int64 {
	t.Helper()
	var end int64
	if err := s.titles.Use(context.Background(), path, func(_ *titleIndex, snap jsonlog.Snapshot) error {
		end = snap.End
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return end
}

// titleOf is the title a title index fed text's whole lines finds.
func titleOf(text []byte) *sessionref.Title {
	ti := newTitleIndex("x")
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		for n, l := range bytes.Split(text[:i], []byte{'\n'}) {
			ti.Line(n+1, 0, l)
		}
	}
	return ti.title
}

// splitLines is text's whole lines.
func splitLines(text []byte) [][]byte {
	if len(text) == 0 {
		return nil
	}
	return bytes.Split(text[:len(text)-1], []byte{'\n'})
}

// rewriteInPlace writes data over the file, keeping its inode.
func rewriteInPlace(t *testing.T, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// naiveTitle decodes every whole line and keeps the last title record.
func naiveTitle(text []byte) *sessionref.Title {
	var out *sessionref.Title
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		text = text[:i+1]
	} else {
		return nil
	}
	for _, l := range splitLines(text) {
		if len(l) > maxTitleLine {
			if jsonType(l) == "session/title" {
				out = nil // too long to read: not a title, and no earlier one stands in
			}
			continue
		}
		r, _, err := decodeRecord(l)
		if err != nil || r.typ != "session/title" {
			continue
		}
		if text, ok := r.data.get("title").str(); ok {
			out = &sessionref.Title{Text: text, EventSeq: r.seq, UpdatedAt: r.time}
		}
	}
	return out
}

// jsonType is a line's top-level type as encoding/json reads it (keys
// matched exactly, escapes decoded), "" when it has none.
func jsonType(l []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(l, &m) != nil {
		return ""
	}
	var t string
	if json.Unmarshal(m["type"], &t) != nil {
		return ""
	}
	return t
}

// jsonTitle decodes every whole line with encoding/json, independently
// of the scanner's parser, and keeps the last title record: what
// JSON.parse of each line would make of the log.
func jsonTitle(text []byte) *sessionref.Title {
	var out *sessionref.Title
	i := bytes.LastIndexByte(text, '\n')
	if i < 0 {
		return nil
	}
	for _, l := range splitLines(text[:i+1]) {
		if jsonType(l) != "session/title" {
			continue
		}
		if len(l) > maxTitleLine {
			out = nil
			continue
		}
		var r struct {
			Seq  *int64 `json:"seq"`
			Time *int64 `json:"time"`
			Data struct {
				Title *string `json:"title"`
			} `json:"data"`
		}
		if json.Unmarshal(l, &r) != nil || r.Seq == nil || r.Time == nil || r.Data.Title == nil {
			continue
		}
		out = &sessionref.Title{Text: *r.Data.Title, EventSeq: *r.Seq, UpdatedAt: *r.Time}
	}
	return out
}

// spell writes s as a JSON string, each character picked at random as
// itself, a \u escape (either case of hex) or, for '/', "\/".
func spell(r *rand.Rand, s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, `\u%04x`, c)
		case 1:
			fmt.Fprintf(&b, `\u%04X`, c)
		case 2:
			if c == '/' {
				b.WriteString(`\/`)
				continue
			}
			fallthrough
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// escapedLog is a log of title records and other events whose keys and
// types are spelled with random escapes.
func escapedLog(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"e","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n")
	types := []string{"session/title", "session/title", "session/titl", "session/title-llm-request", "turn/start", "user/message"}
	for seq := range n {
		typ := types[r.IntN(len(types))]
		fmt.Fprintf(&b, `{%s:%s,"seq":%d,"time":%d,"data":{%s:"t%d","note":"a\/b \u0041"}}`+"\n",
			spell(r, "type"), spell(r, typ), seq, 1000+seq, spell(r, "title"), seq)
	}
	return b.Bytes()
}

// TestEscapedTitleSpellings: whatever escapes spell the type (and its
// key, and the title's key), the scan finds the title a full decode of
// every line finds, with the record decoder and with encoding/json alike; and a
// log read through the store agrees.
func TestEscapedTitleSpellings(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 2))
		data := escapedLog(r, 1+r.IntN(12))
		got := titleOf(data)
		want, other := naiveTitle(data), jsonTitle(data)
		if (want == nil) != (other == nil) || (want != nil && *want != *other) {
			t.Fatalf("seed %d: decoder %+v, encoding/json %+v\n%s", seed, want, other, data)
		}
		if (want == nil) != (got == nil) || (want != nil && *want != *got) {
			t.Fatalf("seed %d: scan %+v, full decode %+v\n%s", seed, got, want, data)
		}
	}

	for l, want := range map[string]bool{
		`{"type":"tool/result","data":{"text":"\u001b[31m red \u00e9"}}`: false,
		`{"type":"x","data":{"text":"\u0074"}}`:                          true,
		`{"type":"x","data":{"text":"a\/b"}}`:                            true,
	} {
		if titleCandidate([]byte(l)) != want {
			t.Errorf("titleCandidate(%s) = %v", l, !want)
		}
	}

	// The spoof the probe found: a later title whose type is escaped.
	root := t.TempDir()
	head := `{"type":"session","version":0,"id":"sp","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n"
	for _, typ := range []string{`"session\/title"`, `"session\u002ftitle"`, `"\u0073ession/title"`} {
		body := head + titleLine(0, "first") +
			`{"type":` + typ + `,"seq":1,"time":1001,"data":{"title":"second","messageSeqs":[],"source":{"kind":"fallback"}}}` + "\n"
		path := place(t, root, []byte(body), RawName)
		s, _ := OpenFile(path)
		got, err := s.ReadTitles(context.Background(), []string{"sp"})
		if err != nil || got[0].Title == nil || got[0].Title.Text != "second" {
			t.Fatalf("%s: ReadTitles %+v %v", typ, got, err)
		}
	}
}

// TestTitleTooLong: a title record longer than the scanner keeps is an
// error for that session's title, never an earlier title standing in,
// raw or zstd; a title after it is read again.
func TestTitleTooLong(t *testing.T) {
	head := `{"type":"session","version":0,"id":"tl","createdAt":1,"cwd":"/w","delegationDepth":0}` + "\n"
	long := `{"data":{"title":"` + strings.Repeat("A", maxTitleLine+10) + `","messageSeqs":[]},"type":"session\/title","seq":1,"time":1001}` + "\n"
	big := `{"type":"user/message","seq":1,"time":1,"data":{"text":"\u001b` + strings.Repeat("B", maxTitleLine+10) + `"}}` + "\n"
	for _, tc := range []struct {
		name, body string
		want       string // "" = the error
	}{
		{"long title", head + titleLine(0, "first") + long, ""},
		{"long title then title", head + titleLine(0, "first") + long + titleLine(2, "third"), "third"},
		{"long other line", head + titleLine(0, "first") + big, "first"},
	} {
		for _, z := range []bool{false, true} {
			root := t.TempDir()
			name := RawName
			if z {
				name += ".zstd"
			}
			path := place(t, root, []byte(tc.body), name)
			if z {
				if err := os.WriteFile(path, oneShotFrame([]byte(tc.body)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, _ := OpenFile(path)
			got, err := s.ReadTitles(context.Background(), []string{"tl"})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				var le *LogError
				if got[0].Title != nil || !errors.As(got[0].Err, &le) || !errors.Is(le, ErrTooLarge) || le.Path != path {
					t.Errorf("%s zstd=%v: %+v %v", tc.name, z, got[0].Title, got[0].Err)
				}
				continue
			}
			if got[0].Err != nil || got[0].Title == nil || got[0].Title.Text != tc.want {
				t.Errorf("%s zstd=%v: %+v %v", tc.name, z, got[0].Title, got[0].Err)
			}
			if want := naiveTitle([]byte(tc.body)); want == nil || want.Text != tc.want {
				t.Errorf("%s: full decode %+v", tc.name, want)
			}
		}
	}
}

// FuzzTitleScan: the title index, reading a log written in two parts
// (the second appended after a first read), finds the same last title as
// decoding every line.
func FuzzTitleScan(f *testing.F) {
	f.Add([]byte(titleLine(0, "a")+titleLine(1, "b")), uint64(1))
	f.Add([]byte(titleLine(0, "a")+`{"type":"x/y","seq":1,"time":1,"data":{"s":"\"session/title\""}}`+"\n"+titleLine(2, "c")[:30]), uint64(7))
	f.Add(fixture(f, "acp-multi-turn.jsonl"), uint64(3))
	f.Add([]byte(titleLine(0, "a")+`{"type":"session\/title","seq":1,"time":1,"data":{"title":"b"}}`+"\n"), uint64(5))
	f.Add([]byte(titleLine(0, "a")+`{"typ\u0065":"session\u002Ftitle","seq":1,"time":1,"data":{"title":"b"}}`+"\n"), uint64(9))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		path := filepath.Join(t.TempDir(), RawName)
		cut := 0
		if len(data) > 0 {
			cut = int(seed % uint64(len(data)+1))
		}
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s.title(context.Background(), path)
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.Write(data[cut:])
		f.Close()
		got, err := s.title(context.Background(), path)
		if err != nil {
			var le *LogError
			if !errors.As(err, &le) {
				t.Fatalf("untyped %v", err)
			}
			return
		}
		want := naiveTitle(data)
		if other := jsonTitle(data); (want == nil) != (other == nil) || (want != nil && *want != *other) {
			t.Skip("the record decoder and encoding/json disagree on this input") // not the scanner's question
		}
		if (want == nil) != (got == nil) || (want != nil && *want != *got) {
			t.Fatalf("scan %+v, decoding every line %+v", got, want)
		}
	})
}

// TestTitleStoreMatchesParse: over every fixture, the title the store
// scans is the last title record of the log.
func TestTitleStoreMatchesParse(t *testing.T) {
	entries, err := os.ReadDir(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	raw := 0
	for _, e := range entries {
		if !strings.Contains(e.Name(), ".jsonl") || strings.HasSuffix(e.Name(), ".zstd") {
			continue
		}
		raw++
		s, info := open1(t, e.Name())
		got, err := s.title(context.Background(), info.Path)
		data := fixture(t, e.Name())
		want := naiveTitle(data)
		if err != nil || (want == nil) != (got == nil) || (want != nil && *want != *got) {
			t.Errorf("%s: title %+v (%v), want %+v", e.Name(), got, err, want)
		}
	}
	if raw < 5 {
		t.Fatalf("%d raw fixtures compared: the check proves little", raw)
	}
	for _, name := range []string{"synthetic-zstd-compaction-recovery.jsonl.zstd", "synthetic-zstd-torn-multi-turn.jsonl.zstd"} {
		s, info := open1(t, name)
		got, err := s.title(context.Background(), info.Path)
		if err != nil || got == nil || got.Text == "" {
			t.Errorf("%s: title %+v %v", name, got, err)
		}
	}
	_ = filepath.Join
}

// TestCapturedSeqs: the seq each session's ReadSurface reports, from the
// cache when it holds the current version (nothing decoded again), and
// anew after the log grows; nil for a missing or unreadable session.
func TestCapturedSeqs(t *testing.T) {
	var _ interface {
		CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error)
	} = (*Store)(nil) // discover.SeqLister, which this package does not import
	root := t.TempDir()
	ctx := context.Background()
	var ids []string
	paths := map[string]string{}
	for _, name := range []string{"acp-multi-turn.jsonl", "synthetic-unknown-ignorable.jsonl", "synthetic-zstd-compaction-recovery.jsonl.zstd"} {
		data := fixture(t, name)
		_, info := open1(t, name)
		ids = append(ids, info.Header.ID)
		base := RawName
		if strings.HasSuffix(name, ".zstd") {
			base = ZstdName
		}
		paths[info.Header.ID] = filepath.Join(root, projectDir(info.Header.Cwd), sessionDir(info.Header.ID), base)
		os.MkdirAll(filepath.Dir(paths[info.Header.ID]), 0o755)
		os.WriteFile(paths[info.Header.ID], data, 0o644)
	}
	s, _ := Open(root)
	want := func() []*int64 {
		var out []*int64
		for _, id := range ids {
			sf, err := s.ReadSurface(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sf.CapturedThroughSeq)
		}
		return append(out, nil)
	}
	got, err := s.CapturedSeqs(ctx, append(ids, "absent"))
	if err != nil || !reflect.DeepEqual(got, want()) {
		t.Fatalf("%v %v, want %v", got, err, want())
	}
	for _, path := range paths {
		if _, ok := s.logs.Cached(path); !ok {
			t.Fatalf("%s not cached", path)
		}
	}
	if got, _ = s.CapturedSeqs(ctx, ids); !reflect.DeepEqual(got, want()[:len(ids)]) {
		t.Fatal("second call differs")
	}
	// Logs the cache of indexes has let go are not read again while
	// they are unchanged: their seqs are kept by file version.
	s.logs.Forget()
	if got, _ = s.CapturedSeqs(ctx, ids); !reflect.DeepEqual(got, want()[:len(ids)]) {
		t.Fatal("after eviction the seqs differ")
	}
	s.logs.Forget()
	s.CapturedSeqs(ctx, ids)
	for path := range paths {
		if _, ok := s.logs.Cached(path); ok {
			t.Fatalf("%s read again though unchanged", path)
		}
	}
	// Growth: a turn/start appended to the raw log.
	raw := paths[ids[0]]
	before := *got[0]
	f, _ := os.OpenFile(raw, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, `{"type":"turn/start","seq":%d,"time":1,"data":{"turn":9}}`+"\n", before+1)
	f.Close()
	got, _ = s.CapturedSeqs(ctx, ids[:1])
	if got[0] == nil || *got[0] <= before || !reflect.DeepEqual(got, want()[:1]) {
		t.Fatalf("after growth %v, was %d", got, before)
	}
}
