package claudecode_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/agentlog/internal/logtest"
	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

const sid = "0a1b2c3d-0000-4000-8000-000000000001"

// fixture is testdata/session.jsonl: 23 complete lines and a torn tail.
func fixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstLines is the fixture's first n lines, each with its newline.
func firstLines(t *testing.T, n int) []byte { return logtest.FirstLines(fixture(t), n) }

// root makes a projects directory holding the given transcripts, by
// path below it.
func root(t *testing.T, files map[string][]byte) string { return logtest.Tree(t, files) }

func open(t *testing.T, dir string, opts ...agentlog.Option) *agentlog.Store {
	t.Helper()
	s, err := claudecode.Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// turn is an event as a test states it.
type turn struct {
	seq  int64
	kind string // "user", "assistant", "checkpoint"
	text string
}

func turns(t *testing.T, s sessionref.Surface) []turn {
	t.Helper()
	return logtest.Turns(t, s, func(seq int64, kind, text string) turn { return turn{seq, kind, text} })
}

func surface(t *testing.T, s *agentlog.Store, id string) sessionref.Surface {
	t.Helper()
	sf, err := s.ReadSurface(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

// Before the compaction the conversation is the branch that ends at the
// last message: the first reply, the edited question and its answer. The
// abandoned branch ("Now make it exponential"), the sidechain, the meta
// and command lines, the tool call and result, the thinking, the image
// and the injected reminder are not in it.
func TestCurrentBranch(t *testing.T) {
	dir := root(t, map[string][]byte{"-home-ann-proj/" + sid + ".jsonl": firstLines(t, 16)})
	s := open(t, dir)
	got := turns(t, surface(t, s, claudecode.Prefix+sid))
	want := []turn{
		{3, "user", "Please add a retry to the fetcher"},
		{4, "assistant", "I'll look at fetch.go first."},
		{7, "assistant", "Added a retry with backoff."},
		{13, "user", "Actually, make the retry count configurable"},
		{14, "assistant", "The count is now a flag, --retries.\nIt defaults to 3."},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("surface\n got %v\nwant %v", got, want)
	}
	h, titles, err := s.ListSessionsWithTitles(context.Background())
	if err != nil || len(h) != 1 {
		t.Fatalf("list: %v %v", h, err)
	}
	// The summary line names a leaf of another file: the title is the
	// first line of the person's first message.
	if titles[0].Title == nil || titles[0].Title.Text != "Please add a retry to the fetcher" || titles[0].Title.EventSeq != 3 {
		t.Fatalf("title %+v", titles[0].Title)
	}
	if h[0].Cwd == nil || *h[0].Cwd != "/home/ann/proj" || h[0].CreatedAt != 1772359200000 {
		t.Fatalf("header %+v", h[0])
	}
	st := s.Stats()
	if st.Sessions != 1 || st.Bad != 1 || st.Unknown != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// A compaction boundary starts the chain again: the summary after it is
// the checkpoint, and what follows it the rest. The torn last line is not
// read; the custom title wins over the AI title.
func TestCompaction(t *testing.T) {
	dir := root(t, map[string][]byte{"-home-ann-proj/" + sid + ".jsonl": fixture(t)})
	s := open(t, dir)
	sf := surface(t, s, claudecode.Prefix+sid)
	want := []turn{
		{18, "checkpoint", "This session is being continued from a previous conversation.\nSummary: the fetcher retries, the count is a flag."},
		{20, "user", "Thanks — ship it"},
		{21, "assistant", "Shipped."},
	}
	if got := turns(t, sf); !slices.Equal(got, want) {
		t.Fatalf("surface\n got %v\nwant %v", got, want)
	}
	if sf.CapturedThroughSeq == nil || *sf.CapturedThroughSeq != 23 {
		t.Fatalf("captured %v, want 23", sf.CapturedThroughSeq)
	}
	tr, err := s.ReadTitles(context.Background(), []string{claudecode.Prefix + sid, "claude:nope", sid})
	if err != nil {
		t.Fatal(err)
	}
	if tr[0].Title == nil || tr[0].Title.Text != "Retry work" || tr[0].Title.EventSeq != 22 {
		t.Fatalf("title %+v", tr[0].Title)
	}
	if !errors.Is(tr[1].Err, agentlog.ErrNotFound) || !errors.Is(tr[2].Err, agentlog.ErrNotFound) {
		t.Fatalf("unknown ids: %v, %v", tr[1].Err, tr[2].Err)
	}
}

// The outline agrees with the surface and reads back only what it is
// asked for; Prepare over the store keeps the checkpoint.
func TestOutlineAndPrepare(t *testing.T) {
	dir := root(t, map[string][]byte{"-home-ann-proj/" + sid + ".jsonl": fixture(t)})
	s := open(t, dir)
	ctx := context.Background()
	id := claudecode.Prefix + sid
	sf := surface(t, s, id)
	o, err := s.ReadOutline(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := sessionref.SurfaceOutline(sf)
	if !slices.Equal(o.Messages, want.Messages) {
		t.Fatalf("outline %+v, surface says %+v", o.Messages, want.Messages)
	}
	for i := range o.Messages {
		a, err1 := o.Text(ctx, i)
		b, err2 := want.Text(ctx, i)
		if a != b || err1 != nil || err2 != nil {
			t.Fatalf("text %d: %q %v, want %q %v", i, a, err1, b, err2)
		}
	}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		t.Fatal(err)
	}
	label := "Retry work"
	p, err := r.Prepare(ctx, sessionref.Target{ID: "other"}, []sessionref.Block{sessionref.TextBlock("see")}, []sessionref.Reference{{SessionID: id, Label: &label}})
	if err != nil {
		t.Fatal(err)
	}
	rec := p.Context.Source.References[0]
	if !rec.Compacted || rec.OriginalMessages != 3 || rec.CapturedThroughSeq == nil || *rec.CapturedThroughSeq != 23 {
		t.Fatalf("record %+v", rec)
	}
	if !strings.Contains(p.Context.Prompt(), "Shipped.") {
		t.Fatalf("prompt lacks the reply:\n%s", p.Context.Prompt())
	}
}

// A transcript that grows is read from where the last read stopped, and
// the torn tail, once completed, is read.
func TestLiveGrowth(t *testing.T) {
	full := fixture(t)
	dir := root(t, map[string][]byte{"-home-ann-proj/" + sid + ".jsonl": firstLines(t, 16)})
	s := open(t, dir)
	id := claudecode.Prefix + sid
	if n := len(surface(t, s, id).Events); n != 5 {
		t.Fatalf("%d events before the append", n)
	}
	path := filepath.Join(dir, "-home-ann-proj", sid+".jsonl")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(full[len(firstLines(t, 16)):]); err != nil {
		t.Fatal(err)
	}
	if got := turns(t, surface(t, s, id)); len(got) != 3 || got[2].text != "Shipped." {
		t.Fatalf("after the append: %v", got)
	}
	if _, err := f.WriteString(`tten"},"uuid":"00000000-0000-4000-8000-0000000000e6"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got := turns(t, surface(t, s, id))
	if want := (turn{24, "user", "a message still being written"}); got[len(got)-1] != want {
		t.Fatalf("after the tail was completed: %v", got)
	}
}

// A transcript rewritten in place is read again from the start, and an
// outline taken before the rewrite fails to read back rather than
// returning other text.
func TestRewrite(t *testing.T) {
	dir := root(t, map[string][]byte{"-home-ann-proj/" + sid + ".jsonl": fixture(t)})
	s := open(t, dir)
	ctx := context.Background()
	id := claudecode.Prefix + sid
	o, err := s.ReadOutline(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.ReplaceAll(fixture(t), []byte("Shipped."), []byte("Reverted"))
	if err := os.WriteFile(filepath.Join(dir, "-home-ann-proj", sid+".jsonl"), other, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Text(ctx, 2); !errors.Is(err, jsonlog.ErrChanged) {
		t.Fatalf("stale read back: %v, want ErrChanged", err)
	}
	if got := turns(t, surface(t, s, id)); got[2].text != "Reverted" {
		t.Fatalf("after the rewrite: %v", got)
	}
}

// Hostile and odd files are skipped and counted, never fatal: a FIFO, a
// link, a file over the cap, a subagent's transcript, a side folder, an
// empty file, and a session id found in two project folders.
func TestSkips(t *testing.T) {
	dir := root(t, map[string][]byte{
		"-a/" + sid + ".jsonl":                          fixture(t),
		"-b/" + sid + ".jsonl":                          fixture(t),
		"-a/agent-5f3e2a1b.jsonl":                       fixture(t),
		"-a/" + sid + "/subagents/agent-1.jsonl":        fixture(t),
		"-a/empty.jsonl":                                nil,
		"-a/big.jsonl":                                  bytes.Repeat(fixture(t), 40),
		"-a/notes.txt":                                  []byte("not a transcript"),
		"-c/11111111-2222-4333-8444-555555555555.jsonl": firstLines(t, 16),
	})
	if err := os.Symlink(filepath.Join(dir, "-a", sid+".jsonl"), filepath.Join(dir, "-a", "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, "-a", "fifo.jsonl"))
	s := open(t, dir, agentlog.WithMaxLogBytes(64<<10))
	h, err := s.ListSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range h {
		ids = append(ids, x.ID)
	}
	want := []string{"claude:" + sid, "claude:11111111-2222-4333-8444-555555555555"} // same creation: by id
	if !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	st := s.Stats()
	for reason, n := range map[string]int{
		"the same session id in another project folder":           1,
		"a subagent's transcript (not a conversation of its own)": 1,
		"a session's side folder (subagents, tool output)":        1,
		"a symbolic link (not followed)":                          1,
		"no conversation in it":                                   1,
		"too large":                                               1,
	} {
		if st.Skipped[reason] != n {
			t.Errorf("skipped %q: %d, want %d (all: %v)", reason, st.Skipped[reason], n, st.Skipped)
		}
	}
	if fifoSupported && st.Skipped["not a regular file (links are not followed)"] != 1 {
		t.Errorf("the FIFO is not counted: %v", st.Skipped)
	}
	if err := sessionref.CheckStore(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// A listed log that becomes a FIFO is read as one: the error says so,
// not that the session is gone.
func TestListedLogBecomesFIFO(t *testing.T) {
	if !fifoSupported {
		t.Skip("no FIFOs here")
	}
	dir := root(t, map[string][]byte{"-a/" + sid + ".jsonl": fixture(t)})
	s := open(t, dir)
	if _, err := s.ListSessions(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "-a", sid+".jsonl")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, path)
	_, err := s.ReadSurface(context.Background(), "claude:"+sid)
	if !errors.Is(err, jsonlog.ErrNotRegular) || errors.Is(err, agentlog.ErrNotFound) || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("a log become a FIFO: %v", err)
	}
}

// Ids round-trip through the URI and name one store.
func TestIDs(t *testing.T) {
	dir := root(t, map[string][]byte{"-p/" + sid + ".jsonl": fixture(t), "-p/é x.jsonl": fixture(t)})
	s := open(t, dir)
	h, err := s.ListSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range h {
		uri, err := sessionref.EncodeURI(x.ID)
		if err != nil {
			t.Fatal(err)
		}
		back, err := sessionref.DecodeURI(uri)
		if err != nil || back != x.ID || !s.Owns(back) {
			t.Fatalf("%q → %q → %q, %v", x.ID, uri, back, err)
		}
		if _, err := s.ReadSurface(context.Background(), back); err != nil {
			t.Fatal(err)
		}
	}
}

// A transcript being written while it is listed, read and outlined: each
// read sees a prefix of whole lines, its events in order, and an outline
// taken meanwhile reads back what it indexed (the writer only appends).
func TestConcurrentGrowth(t *testing.T) {
	dir := root(t, map[string][]byte{"-p/" + sid + ".jsonl": firstLines(t, 3)})
	path := filepath.Join(dir, "-p", sid+".jsonl")
	s := open(t, dir)
	ctx := context.Background()
	id := claudecode.Prefix + sid
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const n = 200
	done := make(chan error, 1)
	go func() {
		parent := "00000000-0000-4000-8000-0000000000a1"
		for i := range n {
			u := fmt.Sprintf("10000000-0000-4000-8000-%012d", i)
			line := fmt.Sprintf(`{"type":"assistant","parentUuid":%q,"uuid":%q,"message":{"content":[{"type":"text","text":"reply %d"}]}}`+"\n", parent, u, i)
			// Half a line, then the rest: readers meet torn tails.
			if _, err := f.WriteString(line[:len(line)/2]); err != nil {
				done <- err
				return
			}
			if _, err := f.WriteString(line[len(line)/2:]); err != nil {
				done <- err
				return
			}
			parent = u
		}
		done <- nil
	}()
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 30 {
				sf, err := s.ReadSurface(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				for i, e := range sf.Events[1:] {
					if want := fmt.Sprintf("reply %d", i); e.Content[0].Text != want {
						t.Errorf("event %d: %q, want %q", i+1, e.Content[0].Text, want)
						return
					}
				}
				o, err := s.ReadOutline(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := o.Text(ctx, len(o.Messages)-1); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := len(surface(t, s, id).Events); got != n+1 {
		t.Fatalf("%d events at the end, want %d", got, n+1)
	}
}

// A line over the line cap (a pasted file, an image) is skipped and
// counted, never held; the chain it broke ends there, and the rest of the
// transcript reads.
func TestLongLine(t *testing.T) {
	long := `{"type":"user","parentUuid":"00000000-0000-4000-8000-0000000000e5","uuid":"00000000-0000-4000-8000-0000000000f1","message":{"content":"` + strings.Repeat("x", 100<<10) + `"}}` + "\n"
	tail := `{"type":"assistant","parentUuid":"00000000-0000-4000-8000-0000000000e5","uuid":"00000000-0000-4000-8000-0000000000f2","message":{"content":[{"type":"text","text":"after the long line"}]}}` + "\n"
	data := append(append(firstLines(t, 23), long...), tail...)
	dir := root(t, map[string][]byte{"-p/" + sid + ".jsonl": data})
	s := open(t, dir, agentlog.WithMaxLineBytes(64<<10))
	got := turns(t, surface(t, s, claudecode.Prefix+sid))
	if len(got) != 4 || got[3] != (turn{25, "assistant", "after the long line"}) {
		t.Fatalf("surface %v", got)
	}
	if st := s.Stats(); st.Bad != 2 {
		t.Fatalf("bad lines %d, want 2 (the fixture's and the long one)", st.Bad)
	}
}
