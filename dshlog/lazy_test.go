package dshlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// TestLazyTextFollowsTheFile: a log's message text is read back from the
// file it was indexed from. An outline whose log was rewritten since
// fails to give a text (a typed error naming the file, never another
// version's bytes); ReadSurface, ReadOutline and a Prepare after the
// rewrite read the new log.
func TestLazyTextFollowsTheFile(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeMessages(t, dir, "w", 40, 30)
	s := listed(t, dir)
	ctx := context.Background()
	o, err := s.ReadOutline(ctx, "w")
	if err != nil || len(o.Messages) != 40 {
		t.Fatalf("%d messages, %v", len(o.Messages), err)
	}
	early, err := s.ReadOutline(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	first, err := early.Text(ctx, 0)
	if err != nil || len(first) != early.Messages[0].Bytes || first[:2] != "0 " {
		t.Fatalf("text %q, %v", first, err)
	}

	// The same log, its texts changed in place (same size and seqs).
	old, _ := os.ReadFile(path)
	next := bytes.ReplaceAll(old, []byte("opqrs"), []byte("OPQRS"))
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(path, next, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, later, later)
	_, err = o.Text(ctx, 1)
	var le *LogError
	if !errors.As(err, &le) || le.Path != path {
		t.Fatalf("a text of a rewritten log: %v", err)
	}
	// An outline is one version of the log: none of its texts is read
	// from another.
	if again, err := early.Text(ctx, 0); !errors.As(err, &le) || !errors.Is(err, errChanged) {
		t.Fatalf("an outline's text read again after the rewrite: %q, %v", again, err)
	}

	surf, err := s.ReadSurface(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	o2, err := s.ReadOutline(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range surf.Events {
		text, err := o2.Text(ctx, i)
		if err != nil || text != e.Content[0].Text {
			t.Fatalf("message %d: outline %q (%v), surface %q", i, text, err, e.Content[0].Text)
		}
	}
	if got := surf.Events[16].Content[0].Text; !strings.Contains(got, "OPQRS") {
		t.Fatalf("the surface did not read the new log: %q", got)
	}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Prepare(ctx, sessionref.Target{ID: "x"}, nil, []sessionref.Reference{{SessionID: "w"}}); err != nil {
		t.Fatal(err)
	}
}

// TestLazyMatchesDecoded: a log read from a raw file and from a zstd
// one (its messages read back by decoding their frame) gives the same
// surface, outline, texts, walk and captured seq — for the fixtures and,
// when it is here, every log of the corpus: tool results, tool calls,
// checkpoints, legacy rows, interrupted messages.
func TestLazyMatchesDecoded(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	if dir := os.Getenv("MENTIONS_DSHLOG_CORPUS"); dir != "" {
		more, _ := filepath.Glob(filepath.Join(corpusDir(t), "*.jsonl"))
		logs = append(logs, more...)
	}
	compared := 0
	for _, path := range logs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		raw, zst := filepath.Join(dir, RawName), filepath.Join(dir, RawName+".zstd")
		os.WriteFile(raw, data, 0o644)
		os.WriteFile(zst, oneShotFrame(data), 0o644)
		b, errB := readAllWays(t, zst)
		a, errA := readAllWays(t, raw)
		if errA != nil || errB != nil {
			continue // a log a torn line ends reads otherwise inside a zstd frame
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: raw and zstd differ:\nraw  %+v\nzstd %+v", filepath.Base(path), a, b)
		}
		compared++
	}
	t.Logf("%d reads of %d logs compared", compared, len(logs))
	if compared < 5 {
		t.Fatalf("only %d logs compared", compared)
	}
}

// allWays is what a store gives of one log, every way it reads it.
type allWays struct {
	Surface  sessionref.Surface
	Messages []sessionref.OutlineMessage
	Texts    []string
	Walked   []sessionref.Event
}

func readAllWays(t *testing.T, path string) (allWays, error) {
	t.Helper()
	s, err := OpenFile(path)
	if err != nil {
		return allWays{}, err
	}
	ctx := context.Background()
	infos, err := s.Sessions(ctx)
	if err != nil || len(infos) != 1 {
		return allWays{}, fmt.Errorf("%d sessions, %v", len(infos), err)
	}
	id := infos[0].Header.ID
	var out allWays
	// The outline and the walk first, before a read caches the parse.
	o, errO := s.ReadOutline(ctx, id)
	if out.Surface, err = s.ReadSurface(ctx, id); err != nil {
		if errO == nil || errO.Error() != err.Error() {
			t.Fatalf("%s: the surface fails (%v), the outline %v", path, err, errO)
		}
		return allWays{}, err
	}
	if errO != nil {
		t.Fatalf("%s: the surface reads, the outline fails: %v", path, errO)
	}
	out.Messages = slices.Clip(o.Messages)
	if len(out.Messages) == 0 {
		out.Messages = nil // an empty outline, however it was made
	}
	for i := range o.Messages {
		text, err := o.Text(ctx, i)
		if err != nil {
			t.Fatalf("%s: message %d: %v", path, i, err)
		}
		out.Texts = append(out.Texts, text)
	}
	fresh, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	captured, err := fresh.WalkSurface(ctx, id, func(e *sessionref.Event) bool {
		out.Walked = append(out.Walked, e.Clone())
		return true
	})
	if err != nil {
		t.Fatalf("%s: the surface reads, the walk fails: %v", path, err)
	}
	again, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seqs, err := again.CapturedSeqs(ctx, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(captured, out.Surface.CapturedThroughSeq) || !reflect.DeepEqual(o.CapturedThroughSeq, captured) ||
		!reflect.DeepEqual(seqs[0], captured) || !reflect.DeepEqual(o.Session, out.Surface.Session) {
		t.Fatalf("%s: captured %v (walk), %v (outline), %v (surface), %v (CapturedSeqs)", path, captured, o.CapturedThroughSeq, out.Surface.CapturedThroughSeq, seqs[0])
	}
	return out, nil
}

// TestLazyReadsOfALiveLog: a session still being written to (a line
// appended every few reads) reads without error: an append leaves the
// bytes a parse saw where they were, so its messages are read back from
// the grown file; an outline taken before the appends still gives its
// texts.
func TestLazyReadsOfALiveLog(t *testing.T) {
	for _, c := range []struct {
		name  string
		cache int64
	}{{"cached", 1 << 30}, {"uncached", 1}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path, _ := writeMessages(t, dir, "live", 3000, 60)
			s := listed(t, dir, WithCacheBytes(c.cache))
			ctx := context.Background()
			o, err := s.ReadOutline(ctx, "live")
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			seq := 3000 + 3000/10*2 // writeMessages: a turn/start and a turn/end every ten messages
			for round := range 20 {
				fmt.Fprintf(f, `{"type":"user/message","seq":%d,"time":%d,"data":{"content":[{"type":"text","text":"more %d"}],"source":{"kind":"user"}},"surfaceOp":"append"}`+"\n", seq, seq, round)
				seq++
				if _, err := o.Text(ctx, len(o.Messages)-1-round*97); err != nil {
					t.Fatalf("round %d: an outline's text after an append: %v", round, err)
				}
				n := 0
				if _, err := s.WalkSurface(ctx, "live", func(*sessionref.Event) bool { n++; return true }); err != nil || n != 3000+round+1 {
					t.Fatalf("round %d: walked %d, %v", round, n, err)
				}
				surf, err := s.ReadSurface(ctx, "live")
				if err != nil || len(surf.Events) != 3000+round+1 {
					t.Fatalf("round %d: %d events, %v", round, len(surf.Events), err)
				}
			}
		})
	}
}

// TestLazyReadOfACutFile: a file cut shorter than what an index saw is a
// change, never an EOF: a line the index read is not there any more.
func TestLazyReadOfACutFile(t *testing.T) {
	dir := t.TempDir()
	path, size := writeMessages(t, dir, "cut", 200, 60)
	s := listed(t, dir)
	o, err := s.ReadOutline(context.Background(), "cut")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size/2); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Text(context.Background(), len(o.Messages)-1); !errors.Is(err, errChanged) {
		t.Fatalf("a line past the end of a cut file: %v", err)
	}
	// ReadSurface reads the cut log again (its torn last line dropped).
	if _, err := s.ReadSurface(context.Background(), "cut"); err != nil {
		t.Fatal(err)
	}
}

// TestReadWhileWritten: a log read while a line is appended (a live
// session) reads as what was there when the read began; one rewritten
// meanwhile is read again, and one that goes on being rewritten is an
// error naming it, never a mix of two versions.
func TestReadWhileWritten(t *testing.T) {
	retryPause = 0 // the reads again do not wait on the clock
	defer func() { afterRead, retryPause = nil, 5*time.Millisecond }()
	dir := t.TempDir()
	path, _ := writeMessages(t, dir, "live", 500, 60)
	s := listed(t, dir, WithCacheBytes(1))
	ctx := context.Background()
	seq := 500 + 500/10*2
	afterRead = func(string) {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, `{"type":"user/message","seq":%d,"time":%d,"data":{"content":[{"type":"text","text":"more"}],"source":{"kind":"user"}},"surfaceOp":"append"}`+"\n", seq, seq)
		f.Close()
		seq++
	}
	o, err := s.ReadOutline(ctx, "live")
	if err != nil || len(o.Messages) != 500 {
		t.Fatalf("appended during the read: %d messages, %v", len(o.Messages), err)
	}
	if text, err := o.Text(ctx, 499); err != nil || !strings.HasPrefix(text, "499 ") {
		t.Fatalf("text %q, %v", text, err)
	}

	rewrites := 0
	afterRead = func(string) {
		if rewrites++; rewrites <= 2 {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.ReplaceAll(data, []byte("opqrs"), []byte("OPQRS")), 0o644)
			later := time.Now().Add(time.Duration(rewrites) * time.Hour)
			os.Chtimes(path, later, later)
		}
	}
	o, err = s.ReadOutline(ctx, "live")
	if err != nil || rewrites != 3 {
		t.Fatalf("rewritten twice during reads: %v after %d reads", err, rewrites)
	}
	if text, _ := o.Text(ctx, 3); !strings.Contains(text, "OPQRS") {
		t.Fatalf("the log read is not the rewritten one: %q", text)
	}

	afterRead = func(string) {
		data, _ := os.ReadFile(path)
		os.WriteFile(path, data, 0o644)
		later := time.Now().Add(time.Duration(rewrites) * time.Hour)
		rewrites++
		os.Chtimes(path, later, later)
	}
	before := rewrites
	_, err = s.ReadOutline(ctx, "live")
	var le *LogError
	if !errors.As(err, &le) || le.Path != path || !errors.Is(err, errChanged) {
		t.Fatalf("a log rewritten under every read: %v", err)
	}
	// Read six times, not again by each read around the one that gave up.
	if n := rewrites - before; n != 6 {
		t.Fatalf("read %d times", n)
	}
	// A surface, whose read around the index retries too, gives up as soon.
	before = rewrites
	if _, err := s.ReadSurface(ctx, "live"); !errors.Is(err, errChanged) {
		t.Fatalf("a surface of a log rewritten under every read: %v", err)
	}
	if n := rewrites - before; n != 6 {
		t.Fatalf("the surface read %d times", n)
	}
}
