package mention

import (
	"github.com/dshkit/mentions/picker"
	"strings"
	"testing"

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

// typeAt inserts s at the cursor and follows, as an editor would.
func typeAt(t *Tracker, text string, cursor int, s string) (string, int, Result) {
	text = text[:cursor] + s + text[cursor:]
	res := t.Follow(text, cursor+len(s), false)
	return res.Text, res.Cursor, res
}

func TestQueryOpensPicksAndRoundTrips(t *testing.T) {
	var tr Tracker
	text, cur, res := typeAt(&tr, "", 0, "see @")
	if !res.Open || res.Query != "" || res.At != 4 {
		t.Fatalf("after '@': %+v", res)
	}
	_, cur, res = typeAt(&tr, text, cur, "par")
	if !res.Open || res.Query != "par" {
		t.Fatalf("after 'par': %+v", res)
	}
	res, ok := tr.Pick(ref(idA, "Fix the parser"), cur)
	if !ok || res.Text != "see @Fix the parser " || res.Cursor != len(res.Text) || res.Open {
		t.Fatalf("pick: %+v %v", res, ok)
	}
	text, cur = res.Text, res.Cursor
	text, _, _ = typeAt(&tr, text, cur, "now")
	got := tr.Canonical()
	want := "see " + canon(t, idA, "Fix the parser") + " now"
	if got != want {
		t.Fatalf("canonical %q, want %q", got, want)
	}
	parsed, err := sessionref.ParseText(got)
	if err != nil || len(parsed.References) != 1 || parsed.References[0].SessionID != idA {
		t.Fatalf("ParseText: %+v %v", parsed, err)
	}
	if text != "see @Fix the parser now" {
		t.Fatalf("text %q", text)
	}
}

func TestBackspaceAtEdgeRemovesWholeAndEditInsideMakesText(t *testing.T) {
	var tr Tracker
	tr.SetValue("a " + canon(t, idA, "Pay") + " b")
	if got := tr.Text(); got != "a @Pay b" {
		t.Fatalf("shown %q", got)
	}
	res, ok := tr.DeleteBefore(len("a @Pay"))
	if !ok || res.Text != "a  b" || res.Cursor != 2 || len(tr.Spans()) != 0 {
		t.Fatalf("backspace: %+v %v %v", res, ok, tr.Spans())
	}
	tr.SetValue(canon(t, idA, "Pay") + "x")
	if res, ok := tr.DeleteAfter(0); !ok || res.Text != "x" {
		t.Fatalf("delete: %+v %v", res, ok)
	}
	// An edit inside a token turns it into plain text.
	tr.SetValue("a " + canon(t, idA, "Pay") + " b")
	tr.Follow("a @Pxay b", 5, false)
	if len(tr.Spans()) != 0 || tr.Canonical() != "a @Pxay b" {
		t.Fatalf("edited inside: %v %q", tr.Spans(), tr.Canonical())
	}
	// Typing right before or after a token keeps it.
	tr.SetValue(canon(t, idA, "Pay"))
	tr.Follow("x@Pay", 1, false)
	tr.Follow("x@Payy", 6, false)
	if sp := tr.Spans(); len(sp) != 1 || sp[0].Start != 1 || sp[0].End != 5 {
		t.Fatalf("spans %+v", sp)
	}
}

func TestPasteAndRecallBecomeTokens(t *testing.T) {
	var tr Tracker
	tr.Follow("hi ", 3, false)
	paste := canon(t, idA, "One") + " and " + canon(t, idB, "Two")
	res := tr.Follow("hi "+paste+"!", 3+len(paste), false)
	if !res.Rewrite || res.Text != "hi @One and @Two!" || res.Cursor != len("hi @One and @Two") {
		t.Fatalf("paste: %+v", res)
	}
	if refs := tr.References(); len(refs) != 2 || refs[1].SessionID != idB {
		t.Fatalf("refs %+v", refs)
	}
	if tr.Canonical() != "hi "+paste+"!" {
		t.Fatalf("canonical %q", tr.Canonical())
	}
	// A whole new text (history recall, SetValue) is read the same way.
	res = tr.Follow(paste, len(paste), false)
	if res.Text != "@One and @Two" || len(tr.Spans()) != 2 {
		t.Fatalf("recall: %+v %v", res, tr.Spans())
	}
	tr.Follow("", 0, false) // Reset in the editor
	if len(tr.Spans()) != 0 || tr.Canonical() != "" {
		t.Fatalf("after reset: %v", tr.Spans())
	}
}

func TestHostileLabelsShowSafely(t *testing.T) {
	var tr Tracker
	label := "evil\x1b]52;c;Zm9v\x07 \u202etxt.exe" + strings.Repeat("x", 200)
	res := tr.SetValue(canon(t, idA, label))
	if strings.ContainsAny(res.Text, "\x1b\x07\u202e") {
		t.Fatalf("control reached the editor: %q", res.Text)
	}
	if len(tr.Spans()) != 1 {
		t.Fatalf("spans %v", tr.Spans())
	}
	parsed, err := sessionref.ParseText(tr.Canonical())
	if err != nil || len(parsed.References) != 1 {
		t.Fatalf("canonical %q: %v", tr.Canonical(), err)
	}
}

// TestDismissedQueryStaysText: Esc makes the @word text. Moving over it,
// typing after it (even another '@') keep it closed; an edit inside it
// opens it again.
func TestDismissedQueryStaysText(t *testing.T) {
	var tr Tracker
	text, cur, _ := typeAt(&tr, "", 0, "ping @pay")
	tr.Dismiss()
	for _, c := range []int{0, len(text), 6, len(text)} { // Home, End, into it, back
		if res := tr.Follow(text, c, true); res.Open {
			t.Fatalf("a move to %d reopened it: %+v", c, res)
		}
	}
	text2, cur2, res := typeAt(&tr, text, cur, "@")
	if res.Open {
		t.Fatalf("typing after it reopened it as %q", res.Query)
	}
	text2, _, res = typeAt(&tr, text2, cur2, "x")
	if res.Open {
		t.Fatalf("typing on after it reopened it as %q", res.Query)
	}
	// Backspace inside the word: the user edits the query.
	text = text2[:len("ping @pa")] + text2[len("ping @pay"):]
	res = tr.Follow(text, len("ping @pa"), false)
	if !res.Open || res.Query != "pa" {
		t.Fatalf("an edit inside did not reopen it: %+v", res)
	}
	// A new @word after a space is a new query.
	var tr2 Tracker
	text, cur, _ = typeAt(&tr2, "", 0, "ping @pay")
	tr2.Dismiss()
	_, _, res = typeAt(&tr2, text, cur, " @re")
	if !res.Open || res.Query != "re" {
		t.Fatalf("a new @word: %+v", res)
	}
}

func TestQueryRules(t *testing.T) {
	cases := []struct {
		typed string
		open  bool
		query string
	}{
		{"@", true, ""},
		{"a@b", false, ""},
		{"@ ", false, ""},
		{"@fix the", true, "fix the"},
		{"@fix the ", true, "fix the"},
		{"@fix  the", false, ""},
		{"x\n@par", true, "par"},
		{"@" + strings.Repeat("a", MaxQuery+1), false, ""},
	}
	for _, c := range cases {
		var tr Tracker
		text, cur := "", 0
		var res Result
		for _, r := range c.typed { // typed a character at a time
			text, cur, res = typeAt(&tr, text, cur, string(r))
		}
		if res.Open != c.open || res.Query != c.query {
			t.Errorf("%q: open %v query %q, want %v %q", c.typed, res.Open, res.Query, c.open, c.query)
		}
	}
}

func TestReplaceInsertsHostText(t *testing.T) {
	var tr Tracker
	_, cur, _ := typeAt(&tr, "", 0, "read @mai")
	res := tr.Replace("main.go", nil, cur)
	if res.Text != "read main.go " || res.Open || len(tr.Spans()) != 0 {
		t.Fatalf("%+v", res)
	}
}

// TestChipCutsWhole: a long label with a bidi override shows in the
// editor as the picker shows it: cut between whole characters and
// escapes, never inside an escape.
func TestChipCutsWhole(t *testing.T) {
	label := strings.Repeat("a", 36) + "\u202e" + strings.Repeat("b", 10)
	chip := Chip(sessionref.Reference{SessionID: "s", Label: &label})
	if chip != "@"+picker.MentionLabel(label) || strings.Contains(chip, `\u2…`) {
		t.Fatalf("chip %q, the picker's label %q", chip, picker.MentionLabel(label))
	}
}
