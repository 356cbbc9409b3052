package sessionref

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// outlineStore is a memStore that also offers outlines, built from the
// same surfaces, counting the texts Prepare asks for.
type outlineStore struct {
	*memStore
	texts, textBytes atomic.Int64
	textErr          error
	wrongLength      bool
}

func (o *outlineStore) ReadOutline(ctx context.Context, id string) (Outline, error) {
	s, err := o.ReadSurface(ctx, id)
	if err != nil {
		return Outline{}, err
	}
	out := SurfaceOutline(s)
	text := out.Text
	out.Text = func(ctx context.Context, i int) (string, error) {
		o.texts.Add(1)
		if o.textErr != nil {
			return "", o.textErr
		}
		t, err := text(ctx, i)
		o.textBytes.Add(int64(len(t)))
		if o.wrongLength {
			t += "x"
		}
		return t, err
	}
	return out, nil
}

// both is one Prepare over a session's surface and one over its outline.
type both struct {
	viaSurface, viaOutline Prepared
	errSurface, errOutline error
	store                  *outlineStore
}

// prepareBoth runs one Prepare over the surface and one over the
// outline of the same session.
func prepareBoth(t *testing.T, events []Event, max int) (b both) {
	t.Helper()
	m := newMemStore()
	m.put("s", ptr("/p"), 1, ptr[int64](int64(len(events))), events...)
	o := &outlineStore{memStore: m}
	b.store = o
	cfg := Config{MaxReferenceBytes: max}
	plain, err := NewResolver(m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	outlined, err := NewResolver(o, cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := Target{ID: "t"}
	refs := []Reference{ref("s", "the label")}
	b.viaSurface, b.errSurface = plain.Prepare(context.Background(), target, []Block{TextBlock("hi")}, refs)
	b.viaOutline, b.errOutline = outlined.Prepare(context.Background(), target, []Block{TextBlock("hi")}, refs)
	return b
}

// samePrepared fails unless two Prepares gave the same snapshot and
// record (the message ids are random) or the same error code.
func samePrepared(t *testing.T, r both) {
	t.Helper()
	a, b, errA, errB := r.viaSurface, r.viaOutline, r.errSurface, r.errOutline
	if (errA == nil) != (errB == nil) {
		t.Fatalf("surface: %v; outline: %v", errA, errB)
	}
	if errA != nil {
		var ea, eb *Error
		if !errors.As(errA, &ea) || !errors.As(errB, &eb) || ea.Code != eb.Code {
			t.Fatalf("surface: %v; outline: %v", errA, errB)
		}
		return
	}
	if a.Context.Prompt() != b.Context.Prompt() {
		t.Fatalf("prompts differ:\nsurface %q\noutline %q", a.Context.Prompt(), b.Context.Prompt())
	}
	if !reflect.DeepEqual(a.Context.Source, b.Context.Source) {
		t.Fatalf("records differ:\nsurface %+v\noutline %+v", a.Context.Source, b.Context.Source)
	}
}

// FuzzOutlineMatchesSurface: Prepare over a store's outline gives the
// snapshot, the record and the failures it gives over the surface, for
// every mix of messages, escapes and budgets.
func FuzzOutlineMatchesSurface(f *testing.F) {
	f.Add([]byte{0, 2, 4, 1, 3}, "hello", 200)
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 12, 20, 28}, strings.Repeat("界", 40), 300)
	f.Add([]byte{255, 254, 2, 0, 6, 7}, "\ufeffbom<x>", 420)
	f.Add([]byte{44, 45, 46, 47, 40, 41}, strings.Repeat("<", 90), 360)
	f.Add([]byte{}, "", 1)
	f.Fuzz(func(t *testing.T, shape []byte, pool string, max int) {
		if len(shape) > 64 || len(pool) > 4096 || max < 1 || max > 1<<15 {
			return
		}
		events := eventsFrom(shape, validOrReplaced(pool))
		samePrepared(t, prepareBoth(t, events, max))
	})
}

// TestOutlineReadsWhatIsKept: over a long session Prepare asks an outline
// for the text of the messages the snapshot keeps (and the one that did
// not fit), not for every message; the snapshot is the surface's.
func TestOutlineReadsWhatIsKept(t *testing.T) {
	const n, max = 100_000, 4096
	events := make([]Event, 0, n)
	for i := range n {
		text := strings.Repeat("word ", 10+i%7)
		if i%2 == 0 {
			events = append(events, userEv(text))
		} else {
			events = append(events, assistantEv(TextBlock(text)))
		}
	}
	r := prepareBoth(t, events, max)
	samePrepared(t, r)
	o := r.store
	rec := r.viaOutline.Context.Source.References[0]
	if rec.OriginalMessages != n || rec.RetainedMessages == 0 || rec.RetainedMessages > max/24 {
		t.Fatalf("record %+v", rec)
	}
	if got := o.texts.Load(); got > int64(rec.RetainedMessages)+1 {
		t.Fatalf("%d texts read for %d kept messages", got, rec.RetainedMessages)
	}
	if got := o.textBytes.Load(); got > 2*max {
		t.Fatalf("%d bytes of text read for a budget of %d", got, max)
	}
}

// TestOutlineCheckpointsOverBudget: checkpoints that cannot fit even
// with every text cut fail at once, without reading any text.
func TestOutlineCheckpointsOverBudget(t *testing.T) {
	r := prepareBoth(t, checkpoints(5000, 100), 4096)
	samePrepared(t, r)
	var e *Error
	if !errors.As(r.errOutline, &e) || e.Code != CodeBudgetExceeded {
		t.Fatalf("err %v, want %s", r.errOutline, CodeBudgetExceeded)
	}
	if got := r.store.texts.Load(); got != 0 {
		t.Fatalf("%d texts read", got)
	}
}

// TestOutlineTextFails: a text the store cannot read, or one that is not
// the length the outline said, fails the Prepare as a read failure that
// names the session; nothing is returned.
func TestOutlineTextFails(t *testing.T) {
	for _, c := range []struct {
		name    string
		set     func(o *outlineStore)
		inError string
	}{
		{"error", func(o *outlineStore) { o.textErr = errors.New("disk on fire") }, "disk on fire"},
		{"wrong length", func(o *outlineStore) { o.wrongLength = true }, "the outline says"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newMemStore()
			m.put("s", nil, 1, nil, userEv("hello"), assistantEv(TextBlock("there")))
			o := &outlineStore{memStore: m}
			c.set(o)
			r, err := NewResolver(o, Config{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Prepare(context.Background(), Target{ID: "t"}, []Block{TextBlock("x")}, []Reference{ref("s", "lbl")})
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeReadFailed || e.SessionID != "s" || e.Label != "lbl" || !strings.Contains(err.Error(), c.inError) {
				t.Fatalf("err %v", err)
			}
			if p.Context != nil || p.Content != nil {
				t.Fatalf("a failed Prepare returned %+v", p)
			}
		})
	}
}

// TestOutlineOfText: a single text block of n bytes is seen as OutlineOf
// sees the full event, for every type and source, empty text included.
func TestOutlineOfText(t *testing.T) {
	sources := []Source{{Kind: SourceUser}, {Kind: SourceModel}, {Kind: SourceTool}, {Kind: SourcePlugin, Plugin: PluginCompact}, {Kind: SourcePlugin, Plugin: "x"}, {}}
	for _, typ := range []string{EventUserMessage, EventAssistantMessage, EventToolResult, "other"} {
		for _, src := range sources {
			for _, text := range []string{"", "a", "hello\nthere"} {
				e := Event{Type: typ, Source: src, Content: []Block{TextBlock(text)}}
				want, wantOK := OutlineOf(&e)
				got, ok := OutlineOfText(typ, src, len(text))
				if ok != wantOK || ok && got != want {
					t.Errorf("%s %+v %q: %+v %v, OutlineOf %+v %v", typ, src, text, got, ok, want, wantOK)
				}
			}
		}
	}
}
