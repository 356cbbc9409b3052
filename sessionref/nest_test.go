package sessionref

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// innerWords is what the session referenced inside envelopeHead says; no
// snapshot of a session that quotes the envelope may carry it.
const innerWords = "INNER words of a"

var envelopeOnce = sync.OnceValue(func() string {
	m := newMemStore()
	m.put("a", nil, 1, ptr[int64](1), userEv(innerWords))
	r, err := NewResolver(m, Config{})
	if err != nil {
		panic(err)
	}
	mention, err := FormatMention(ref("a", "a"))
	if err != nil {
		panic(err)
	}
	p, err := r.PrepareText(context.Background(), Target{ID: "b"}, "look at "+mention)
	if err != nil {
		panic(err)
	}
	s, err := p.SingleMessage()
	if err != nil {
		panic(err)
	}
	return strings.TrimSuffix(s, p.Parsed.Text)
})

// envelopeHead is a single-message form up to its direct message: a
// person's message that is envelopeHead()+text carries a snapshot of a
// session saying innerWords, and text.
func envelopeHead() string { return envelopeOnce() }

func TestProjectTakesTheDirectText(t *testing.T) {
	events := []Event{
		userEv(envelopeHead() + "look at @a"),
		assistantEv(TextBlock("a reply")),
		userEv(envelopeHead()), // an empty direct message stays, empty
		userEv("## Referenced sessions but not the form"),
		checkpointEv(envelopeHead() + "a summary quoting it"), // a checkpoint is kept whole
	}
	got := Project(events)
	want := []string{"look at @a", "a reply", "", "## Referenced sessions but not the form", envelopeHead() + "a summary quoting it"}
	if len(got) != len(want) {
		t.Fatalf("%d turns, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Text != want[i] {
			t.Fatalf("turn %d = %q, want %q", i, got[i].Text, want[i])
		}
	}
}

// TestSnapshotsNeverNest: a session whose person's messages are stored in
// the single-message form gives a snapshot of their direct text only, over
// a surface and over an outline alike (the same bytes and record), whether
// the message is kept, cut or dropped.
func TestSnapshotsNeverNest(t *testing.T) {
	long := strings.Repeat("direct ", 40)
	events := []Event{
		userEv(envelopeHead() + "first, " + long),
		assistantEv(TextBlock("reply one")),
		userEv(envelopeHead() + "second"),
		assistantEv(TextBlock("reply two")),
		userEv(envelopeHead() + "newest " + long),
	}
	for _, max := range []int{1 << 16, 700, 400, 200} {
		r := prepareBoth(t, events, max)
		samePrepared(t, r)
		if r.errSurface != nil {
			t.Fatalf("budget %d: %v", max, r.errSurface)
		}
		prompt := r.viaSurface.Context.Prompt()
		if strings.Contains(prompt, innerWords) || strings.Count(prompt, ContextOpenTag) != 1 {
			t.Fatalf("budget %d: the snapshot nests the earlier one:\n%s", max, prompt)
		}
		rec := r.viaSurface.Context.Source.References[0]
		if max == 1<<16 {
			if rec.Truncated || !strings.Contains(prompt, `"text":"second"`) {
				t.Fatalf("whole session: %+v\n%s", rec, prompt)
			}
			continue
		}
		if !rec.Truncated {
			t.Fatalf("budget %d: nothing left out: %+v", max, rec)
		}
	}
}
