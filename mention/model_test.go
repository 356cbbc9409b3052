package mention

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dshkit/mentions/sessionref"
)

const idA = "3f2a9c1e-1111-4111-8111-111111111111"
const idB = "7b0e5d2a-2222-4222-8222-222222222222"

func ref(id, label string) sessionref.Reference {
	return sessionref.Reference{SessionID: id, Label: &label}
}

// canon is the canonical mention of id with label.
func canon(t testing.TB, id, label string) string {
	m, err := sessionref.FormatMention(ref(id, label))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func uri(t testing.TB, id string) string {
	u, err := sessionref.EncodeURI(id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func typeAll(m *Model, s string) {
	for _, r := range s {
		m.Type(string(r))
	}
}

func TestTypePickAndCanonical(t *testing.T) {
	var m Model
	typeAll(&m, "see @par")
	if q, at, ok := m.Query(); !ok || q != "par" || at != 4 {
		t.Fatalf("query %q %d %v", q, at, ok)
	}
	if !m.Pick(ref(idA, "Fix the parser")) {
		t.Fatal("no pick")
	}
	if got := m.Readable(); got != "see @Fix the parser " || m.Cursor() != len(got) {
		t.Fatalf("readable %q cursor %d", got, m.Cursor())
	}
	// The space after a pick is not doubled.
	typeAll(&m, " now")
	want := "see " + canon(t, idA, "Fix the parser") + " now"
	if got := m.Canonical(); got != want {
		t.Fatalf("canonical %q, want %q", got, want)
	}
	if _, _, ok := m.Query(); ok {
		t.Fatal("query open after the pick")
	}
}

func TestBackspaceAtEdgeAndEditInside(t *testing.T) {
	var m Model
	m.SetValue("a " + canon(t, idA, "Pay") + " b")
	if got := m.Readable(); got != "a @Pay b" {
		t.Fatalf("readable %q", got)
	}
	m.Move(len("a @Pay"), Jump)
	if !m.DeleteBackward() || m.Readable() != "a  b" || m.Cursor() != 2 || len(m.Tokens()) != 0 {
		t.Fatalf("backspace: %q %d %v", m.Readable(), m.Cursor(), m.Tokens())
	}
	m.SetValue(canon(t, idA, "Pay") + "x")
	m.Move(0, Jump)
	if !m.DeleteForward() || m.Readable() != "x" {
		t.Fatalf("delete: %q", m.Readable())
	}
	m.SetValue("a " + canon(t, idA, "Pay") + " b")
	m.Move(4, Move)
	m.Type("x")
	if m.Readable() != "a @Pxay b" || len(m.Tokens()) != 0 {
		t.Fatalf("edit inside: %q %v", m.Readable(), m.Tokens())
	}
}

func TestEscDismissesUntilEditInside(t *testing.T) {
	var m Model
	typeAll(&m, "@abc")
	m.Dismiss()
	typeAll(&m, "d")
	if _, _, ok := m.Query(); ok {
		t.Fatal("typing after a dismissed word opened it")
	}
	m.Move(2, Move)
	if _, _, ok := m.Query(); ok {
		t.Fatal("moving into a dismissed word opened it")
	}
	m.Type("x")
	if q, _, ok := m.Query(); !ok || q != "ax" {
		t.Fatalf("an edit inside did not reopen: %q %v", q, ok)
	}
}

// A space after a query that matched nothing ends it as prose, and
// Backspace over the space does not bring it back.
func TestSpaceAfterNoMatchDismisses(t *testing.T) {
	var m Model
	typeAll(&m, "@zzz")
	if !m.EndsQuery(" ", true) {
		t.Fatal("not ended")
	}
	m.Type(" ")
	m.Delete(m.Cursor()-1, m.Cursor())
	if _, _, ok := m.Query(); ok {
		t.Fatal("Backspace after the no-match space reopened the query")
	}
	if m.EndsQuery(" ", false) {
		t.Fatal("ended with matches")
	}
}

func TestAwaitPickTypedOn(t *testing.T) {
	var m Model
	typeAll(&m, "@pa")
	m.AwaitPick()
	typeAll(&m, " hi")
	if q, _, ok := m.Query(); !ok || q != "pa" || !m.Waiting() {
		t.Fatalf("waiting query %q %v", q, ok)
	}
	m.Pick(ref(idA, "Pay"))
	if m.Readable() != "@Pay hi" || m.Cursor() != len(m.Readable()) {
		t.Fatalf("readable %q cursor %d", m.Readable(), m.Cursor())
	}
	// Going back into the query drops the waiting pick.
	m.Reset()
	typeAll(&m, "@pa")
	m.AwaitPick()
	m.Move(1, Move)
	if m.Waiting() {
		t.Fatal("still waiting")
	}
	// An answer with nothing, typed on: closed; not typed on: open.
	m.Reset()
	typeAll(&m, "@pa")
	m.AwaitPick()
	m.NoPick()
	if _, _, ok := m.Query(); !ok {
		t.Fatal("closed though not typed on")
	}
}

// A title is sanitised and capped once: the chip is the label on the
// wire, and a title that spells a mention references nothing else.
func TestLabelOnceAndTitleSpellingAMention(t *testing.T) {
	long := strings.Repeat("x\n\u202e\x1b[31m", 2000)
	var m Model
	m.SetValue("see " + canon(t, idA, long))
	tok := m.Tokens()[0]
	if w := len(*tok.Reference.Label); w > 4*MaxLabelWidth+16 {
		t.Fatalf("label of %d bytes", w)
	}
	pt, err := sessionref.ParseText(m.Canonical())
	if err != nil || len(pt.References) != 1 || *pt.References[0].Label != *tok.Reference.Label {
		t.Fatalf("wire label %v differs from chip %q (%v)", pt.References, *tok.Reference.Label, err)
	}
	if m.Readable()[tok.Start:tok.End] != "@"+*tok.Reference.Label {
		t.Fatal("chip is not the label")
	}
	title := "@[P](" + uri(t, idB) + ")"
	m.Reset()
	typeAll(&m, "@P")
	m.Pick(ref(idA, title))
	for _, s := range []string{m.Canonical(), m.Readable()} {
		for _, f := range sessionref.FindValidMentions(s) {
			if f.Reference.SessionID != idA {
				t.Fatalf("%q references %s", s, f.Reference.SessionID)
			}
		}
	}
	var back Model
	back.SetValue(m.Readable())
	if len(back.Tokens()) != 0 {
		t.Fatalf("recalling the readable text made tokens %v", back.Tokens())
	}
	back.SetValue(m.Canonical())
	if rs := back.References(); len(rs) != 1 || rs[0].SessionID != idA {
		t.Fatalf("recalling the canonical text: %v", rs)
	}
}

// A mention arriving in parts, or typed key by key, becomes a token; so
// does one whose '@' lies before a textarea's edit.
func TestMentionArrivingAnyWay(t *testing.T) {
	c := canon(t, idA, "Pay")
	var m Model
	typeAll(&m, "x "+c)
	if len(m.Tokens()) != 0 || strings.Contains(m.Canonical(), sessionref.Scheme) {
		t.Fatalf("typed, the cursor at its end: %q %v", m.Canonical(), m.Tokens())
	}
	m.Type(" ")
	if len(m.Tokens()) != 1 || m.Readable() != "x @Pay " {
		t.Fatalf("typed: %q %v", m.Readable(), m.Tokens())
	}
	m.Reset()
	m.Paste(c[:7])
	m.Paste(c[7:])
	if len(m.Tokens()) != 1 {
		t.Fatalf("pasted in halves: %q", m.Readable())
	}
	m.Reset()
	m.Paste("a " + uri(t, idB) + " b")
	if len(m.Tokens()) != 1 || m.Tokens()[0].Reference.SessionID != idB {
		t.Fatalf("bare URI: %q", m.Readable())
	}
	// Follow: the host sets canonical text whose '@' is in the part that
	// did not change.
	m.SetValue("look at " + c + " please")
	if m.Follow("look at "+c+" please edited", len("look at "+c+" please edited"), Edit) != true {
		t.Fatal("no rewrite")
	}
	if m.Readable() != "look at @Pay please edited" || len(m.Tokens()) != 1 {
		t.Fatalf("follow: %q", m.Readable())
	}
}

func TestCanonicalUnclosedBracketBeforeToken(t *testing.T) {
	var m Model
	m.SetValue(canon(t, idA, "Pay"))
	m.Move(0, Jump)
	typeAll(&m, "@[x ")
	m.Close()
	assertIntegrity(t, &m)
	if !strings.Contains(m.Canonical(), "@"+wordJoiner+"[x") {
		t.Fatalf("canonical %q", m.Canonical())
	}
}

// assertIntegrity checks the model's invariants.
func assertIntegrity(t *testing.T, m *Model) {
	t.Helper()
	text := m.Readable()
	prevEnd := 0
	toks := m.Tokens()
	for _, tok := range toks {
		if tok.Start < prevEnd || tok.End > len(text) || text[tok.Start:tok.End] != "@"+*tok.Reference.Label {
			t.Fatalf("token %+v does not hold its chip in %q", tok, text)
		}
		if Label(*tok.Reference.Label) != *tok.Reference.Label {
			t.Fatalf("label %q not made safe", *tok.Reference.Label)
		}
		prevEnd = tok.End
	}
	if c := m.Cursor(); c < 0 || c > len(text) || c < len(text) && !utf8.RuneStart(text[c]) {
		t.Fatalf("cursor %d in %q", c, text)
	}
	// Every reference the wire text makes is a token, in order.
	pt, err := sessionref.ParseText(m.Canonical())
	if err != nil {
		// A malformed URI fails the send; it references nothing.
		if len(sessionref.FindValidMentions(m.Canonical())) != len(toks) {
			t.Fatalf("canonical %q: %v, and finds other mentions than %d tokens", m.Canonical(), err, len(toks))
		}
		return
	}
	if len(pt.References) != len(toks) {
		t.Fatalf("canonical %q references %d sessions, %d tokens", m.Canonical(), len(pt.References), len(toks))
	}
	for i, r := range pt.References {
		if r.SessionID != toks[i].Reference.SessionID || *r.Label != *toks[i].Reference.Label {
			t.Fatalf("reference %d: %+v, token %+v", i, r, toks[i].Reference)
		}
	}
}

// TakeChange describes every change since the last call, SetValue
// included, as one replaced span of the text the last call saw.
func TestTakeChangeCoversSetValue(t *testing.T) {
	var m Model
	typeAll(&m, "hello world")
	m.TakeChange()
	before := m.Readable()
	m.Move(5, Jump)
	m.Delete(0, 5)
	m.SetValue("x " + canon(t, idA, "Pay"))
	from, oldEnd, newEnd, ok := m.TakeChange()
	if !ok || before[:from]+m.Readable()[from:newEnd]+before[oldEnd:] != m.Readable() {
		t.Fatalf("change [%d,%d)->[%d,%d) does not turn %q into %q", from, oldEnd, from, newEnd, before, m.Readable())
	}
	if _, _, _, ok := m.TakeChange(); ok {
		t.Fatal("a second TakeChange reports a change")
	}
}
