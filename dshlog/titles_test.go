package dshlog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshkit/mentions/sessionref"
	"github.com/valyala/fastjson"
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
	if s.logs.order.Len() != 0 {
		t.Fatal("reading titles filled the event cache")
	}
	scanned := s.titles[path].committed
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
	if e := s.titles[path]; e.committed != int64(len(body)+len(titleLine(3, "second"))) {
		t.Fatalf("the half-written line was taken: committed %d", e.committed)
	}

	// A rewrite in place, longer, with different earlier bytes and no
	// title past the old stop: the scan starts over, so the old titles
	// are gone.
	before, _ := os.Stat(path)
	rewritten := head + `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n" + titleLine(1, "rewritten") +
		strings.Repeat(`{"type":"turn/start","seq":2,"time":1,"data":{"turn":1}}`+"\n", 20)
	rewriteInPlace(t, path, rewritten)
	after, _ := os.Stat(path)
	if k1, k2 := fileKeyOf(before), fileKeyOf(after); !k1.sameFile(k2) || k2.size <= k1.size {
		t.Fatalf("not a rewrite in place of a longer file: %+v %+v", k1, k2)
	}
	got, _ = s.ReadTitles(ctx, []string{"t1"})
	if got[0].Title == nil || got[0].Title.Text != "rewritten" {
		t.Fatalf("after a rewrite in place %+v", got[0].Title)
	}
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
	var jp fastjson.Parser
	var out *sessionref.Title
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		text = text[:i+1]
	} else {
		return nil
	}
	for _, l := range splitLines(text) {
		if len(l) > maxTitleLine {
			continue
		}
		r, _, err := decodeRecord(&jp, l)
		if err != nil || r.typ != "session/title" {
			continue
		}
		if text, ok := str(r.data.Get("title")); ok {
			out = &sessionref.Title{Text: text, EventSeq: r.seq, UpdatedAt: r.time}
		}
	}
	return out
}

// FuzzTitleScan: the byte scan, fed in pieces of any size, finds the same
// last title as decoding every line.
func FuzzTitleScan(f *testing.F) {
	f.Add([]byte(titleLine(0, "a")+titleLine(1, "b")), uint64(1))
	f.Add([]byte(titleLine(0, "a")+`{"type":"x/y","seq":1,"time":1,"data":{"s":"\"session/title\""}}`+"\n"+titleLine(2, "c")[:30]), uint64(7))
	f.Add(fixture(f, "acp-multi-turn.jsonl"), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 1))
		var sc titleScan
		for rest := data; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			sc.write(rest[:n])
			rest = rest[n:]
		}
		want := naiveTitle(data)
		if (want == nil) != (sc.title == nil) || (want != nil && *want != *sc.title) {
			t.Fatalf("scan %+v, decoding every line %+v", sc.title, want)
		}
	})
}

// TestTitleStoreMatchesParse: over every fixture, the title the store
// scans is the last title record of the log.
func TestTitleStoreMatchesParse(t *testing.T) {
	entries, _ := os.ReadDir(fixtures)
	for _, e := range entries {
		if !strings.Contains(e.Name(), ".jsonl") || strings.HasSuffix(e.Name(), ".zstd") {
			continue
		}
		s, info := open1(t, e.Name())
		got, err := s.title(context.Background(), info.Path)
		data := fixture(t, e.Name())
		want := naiveTitle(data)
		if err != nil || (want == nil) != (got == nil) || (want != nil && *want != *got) {
			t.Errorf("%s: title %+v (%v), want %+v", e.Name(), got, err, want)
		}
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
