package sessionref

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// storedRoundTrip prepares draft in "t" over a store holding ids, and
// checks the message's life: the stored single-message form reads back
// as the readable text, and its canonical draft, prepared again, gives
// the same references (sessions, order, labels) and, unless text had to
// be kept from reading as a mention, the same readable text.
func storedRoundTrip(t *testing.T, draft string, ids []string) {
	t.Helper()
	m := newMemStore()
	for _, id := range ids {
		m.put(id, nil, 1, ptr[int64](1), userEv("words of "+id))
	}
	r, err := NewResolver(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := r.PrepareText(ctx, Target{ID: "t"}, draft)
	if err != nil {
		return // not a draft that can be sent
	}
	stored, err := first.SingleMessage()
	if err != nil {
		t.Fatalf("SingleMessage: %v", err)
	}
	if got := Readable(stored); got != first.Parsed.Text {
		t.Fatalf("Readable(stored) = %q, want %q", got, first.Parsed.Text)
	}
	if got := Readable(first.Parsed.Text); first.Context == nil && got != first.Parsed.Text {
		t.Fatalf("Readable of a message without mentions = %q, want it as it is", got)
	}
	canon := Canonical(stored)
	again, err := r.PrepareText(ctx, Target{ID: "t"}, canon)
	if err != nil {
		t.Fatalf("the canonical draft %q of %q does not prepare: %v", canon, draft, err)
	}
	if (first.Context == nil) != (again.Context == nil) {
		t.Fatalf("references lost or made up: %q gave %q", draft, canon)
	}
	if first.Context == nil {
		if canon != first.Canonical {
			t.Fatalf("a message without references came back as %q", canon)
		}
		return
	}
	a, b := first.Context.Source.References, again.Context.Source.References
	if !reflect.DeepEqual(refKeys(a), refKeys(b)) {
		t.Fatalf("draft %q: references %v, after Canonical (%q) %v", draft, refKeys(a), canon, refKeys(b))
	}
	if !strings.Contains(canon, wordJoiner) && again.Parsed.Text != first.Parsed.Text {
		t.Fatalf("readable text %q became %q (canonical %q)", first.Parsed.Text, again.Parsed.Text, canon)
	}
	if got := Canonical(canon); got != canon {
		t.Fatalf("a canonical draft stored as it is changed: %q", got)
	}
}

func refKeys(rs []ReferenceRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.SessionID+"\x00"+r.Label)
	}
	return out
}

func mentionOf(t *testing.T, id string, label ...string) string {
	t.Helper()
	m, err := FormatMention(ref(id, label...))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStoredMessageLife(t *testing.T) {
	a, b := mentionOf(t, "a", "alpha"), mentionOf(t, "b", "beta")
	cases := []string{
		"plain words",
		"compare " + a + " with " + b,
		"say @alpha first, then " + a + " and " + b + " and " + mentionOf(t, "a", "again"),
		b + a + b,
		mentionOf(t, "a", "x") + mentionOf(t, "b", "x y") + " @x",
		"bare " + "dsh-session:" + strings.TrimPrefix(strings.TrimSuffix(a[strings.Index(a, "(")+1:], ")"), "dsh-session:"),
		// a label quoting a mention, repeated so the repeat stays text
		mentionOf(t, "a", "see "+b) + " " + mentionOf(t, "a", "dsh-session:Yg"),
		mentionOf(t, "a", `back\slash ] bracket`) + " " + mentionOf(t, "b", "@[x](y)"),
		mentionOf(t, "a", "") + " empty label",
		PromptPrefix + "a text that begins as the form does",
	}
	for _, c := range cases {
		t.Run("", func(t *testing.T) { storedRoundTrip(t, c, []string{"a", "b", "c"}) })
	}
}

func TestCanonicalPlacesMentions(t *testing.T) {
	a, b := mentionOf(t, "a", "alpha"), mentionOf(t, "b", "beta")
	m := newMemStore()
	m.put("a", nil, 1, nil, userEv("x"))
	m.put("b", nil, 1, nil, userEv("y"))
	r, _ := NewResolver(m, Config{})
	draft := "say @alpha first, then " + a + " and " + b + " and " + mentionOf(t, "a", "again")
	p, err := r.PrepareText(context.Background(), Target{ID: "t"}, draft)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := p.SingleMessage()
	// The first "@alpha" is taken: the sessions and their order are what
	// a canonical draft promises, not which of two equal words was the
	// mention.
	want := "say " + a + " first, then @alpha and " + b + " and @again"
	if got := Canonical(stored); got != want {
		t.Fatalf("Canonical = %q\nwant        %q", got, want)
	}
	if got := Readable(stored); got != "say @alpha first, then @alpha and @beta and @again" {
		t.Fatalf("Readable = %q", got)
	}
	if got := Readable(draft); got != "say @alpha first, then @alpha and @beta and @again" {
		t.Fatalf("Readable of the canonical text = %q", got)
	}
	if got := Readable("a @[bad](dsh-session:!) one"); got != "a @[bad](dsh-session:!) one" {
		t.Fatalf("a malformed mention changed: %q", got)
	}
}

// TestCanonicalOfAForeignText: a host that wrote the form around another
// text still gets every reference back, at the end.
func TestCanonicalOfAForeignText(t *testing.T) {
	m := newMemStore()
	m.put("a", nil, 1, nil, userEv("x"))
	r, _ := NewResolver(m, Config{})
	p, err := r.Prepare(context.Background(), Target{ID: "t"}, nil, []Reference{ref("a", "alpha")})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := FormatSingleMessage(p.Context, "no label here")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Canonical(stored), "no label here "+mentionOf(t, "a", "alpha"); got != want {
		t.Fatalf("Canonical = %q, want %q", got, want)
	}
}

// FuzzStoredRoundTrip: for any text, any references and any labels
// (brackets, backslashes, URIs, '@', line breaks), the canonical draft of
// a stored message references the same sessions in the same order with
// the same labels, and the readable text is the one sent.
func FuzzStoredRoundTrip(f *testing.F) {
	f.Add("compare | with | now", "alpha\x00beta", []byte{0, 1, 0})
	f.Add("|@[x](dsh-session:Yg)|", "see @[a](dsh-session:Yg)\x00dsh-session:YQ", []byte{1, 0, 1, 0})
	f.Add("@| |dsh-session:", `a\]b`+"\x00]\x00@", []byte{2, 1, 0, 2})
	f.Fuzz(func(t *testing.T, text, labels string, picks []byte) {
		if len(text) > 512 || len(labels) > 512 || len(picks) > 8 {
			return
		}
		ls := strings.Split(labels, "\x00")
		ids := []string{"a", "b", "c"}
		parts := strings.Split(text, "|")
		var b strings.Builder
		for i, p := range parts {
			b.WriteString(p)
			if i < len(picks) && i < len(parts)-1 {
				k := int(picks[i])
				id := ids[k%len(ids)]
				m, err := FormatMention(ref(id, ls[(k/3)%len(ls)]))
				if err != nil {
					return
				}
				b.WriteString(m)
			}
		}
		storedRoundTrip(t, b.String(), ids)
	})
}

// TestCanonicalKeepsQuotedMentionsText: a repeated mention whose label
// spells a URI is sent as plain text; it comes back as text (with a word
// joiner), not as a mention of another session.
func TestCanonicalKeepsQuotedMentionsText(t *testing.T) {
	m := newMemStore()
	m.put("a", nil, 1, nil, userEv("x"))
	m.put("b", nil, 1, nil, userEv("y"))
	r, _ := NewResolver(m, Config{})
	draft := mentionOf(t, "a", "alpha") + " " + mentionOf(t, "a", "dsh-session:Yg") // Yg is b's id
	p, err := r.PrepareText(context.Background(), Target{ID: "t"}, draft)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := p.SingleMessage()
	got := Canonical(stored)
	if want := mentionOf(t, "a", "alpha") + " @dsh-session" + wordJoiner + ":Yg"; got != want {
		t.Fatalf("Canonical = %q, want %q", got, want)
	}
	storedRoundTrip(t, draft, []string{"a", "b"})
}
