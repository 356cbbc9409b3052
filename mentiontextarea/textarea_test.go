package mentiontextarea

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

const idA = "3f2a9c1e-1111-4111-8111-111111111111"
const idB = "7b0e5d2a-2222-4222-8222-222222222222"

func ref(id, label string) sessionref.Reference {
	return sessionref.Reference{SessionID: id, Label: &label}
}

func canon(t testing.TB, id, label string) string {
	m, err := sessionref.FormatMention(ref(id, label))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var cands = []sessionref.Candidate{
	{SessionID: idA, Label: "Fix the parser", CreatedAt: 1},
	{SessionID: idB, Label: "Pay flow", CreatedAt: 1},
}

func newPair(t testing.TB, width int) (Model, textarea.Model) {
	t.Helper()
	ta := textarea.New()
	ta.SetWidth(width)
	ta.SetHeight(4)
	ta.Focus()
	src := picker.SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return cands, nil })
	return New(picker.New(src)), ta
}

func typeKeys(a *Model, ta *textarea.Model, s string) {
	for _, r := range s {
		if r == '\n' {
			a.Update(ta, tea.KeyPressMsg{Code: tea.KeyEnter})
			continue
		}
		a.Update(ta, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func answer(a *Model, ta *textarea.Model) {
	p := a.Picker()
	a.Update(ta, picker.NewAnswerMsg(*p, picker.SessionsID, p.Query(), picker.Answer{Candidates: cands}))
}

func TestTextareaPickBackspaceAndEditInside(t *testing.T) {
	a, ta := newPair(t, 40)
	typeKeys(&a, &ta, "see @fix")
	if !a.Picker().IsOpen() || a.Picker().Query() != "fix" {
		t.Fatalf("picker open %v query %q", a.Picker().IsOpen(), a.Picker().Query())
	}
	answer(&a, &ta)
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyTab})
	if ta.Value() != "see @Fix the parser " || a.Picker().IsOpen() {
		t.Fatalf("after Tab: %q open %v", ta.Value(), a.Picker().IsOpen())
	}
	typeKeys(&a, &ta, "now")
	want := "see " + canon(t, idA, "Fix the parser") + " now"
	if got := a.Canonical(ta); got != want {
		t.Fatalf("Value %q, want %q", got, want)
	}
	// Back to the token's end: Backspace removes it whole.
	for range len(" now") {
		a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if ta.Value() != "see " || len(a.Tokens()) != 0 {
		t.Fatalf("after backspace: %q %v", ta.Value(), a.Tokens())
	}
	// A token edited inside becomes text.
	a.SetValue(&ta, "x "+canon(t, idB, "Pay flow")+" y")
	if ta.Value() != "x @Pay flow y" || len(a.Tokens()) != 1 {
		t.Fatalf("SetValue: %q %v", ta.Value(), a.Tokens())
	}
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyLeft})
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyLeft})
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyLeft})
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyLeft})
	typeKeys(&a, &ta, "Z")
	if ta.Value() != "x @Pay flZow y" || len(a.Tokens()) != 0 || a.Canonical(ta) != "x @Pay flZow y" {
		t.Fatalf("edit inside: %q %v %q", ta.Value(), a.Tokens(), a.Canonical(ta))
	}
}

func TestTextareaEscKeepsTextAndHostChangesAreFollowed(t *testing.T) {
	a, ta := newPair(t, 40)
	typeKeys(&a, &ta, "ping @pay")
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyEscape})
	if a.Picker().IsOpen() {
		t.Fatal("Esc did not close the picker")
	}
	for _, k := range []rune{tea.KeyHome, tea.KeyEnd, tea.KeyLeft, tea.KeyRight} {
		a.Update(&ta, tea.KeyPressMsg{Code: k})
		if a.Picker().IsOpen() {
			t.Fatalf("a move (%v) reopened the dismissed query", k)
		}
	}
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.Picker().IsOpen() || len(a.Tokens()) != 0 {
		t.Fatal("Enter turned dismissed text into a mention")
	}
	// The host changes the textarea itself: a recalled message.
	ta.SetValue("again " + canon(t, idA, "Fix the parser"))
	a.Sync(&ta)
	if ta.Value() != "again @Fix the parser" || len(a.Tokens()) != 1 {
		t.Fatalf("recall: %q %v", ta.Value(), a.Tokens())
	}
	ta.Reset()
	a.Update(&ta, tea.KeyPressMsg{Code: 'a', Text: "a"})
	if len(a.Tokens()) != 0 || a.Canonical(ta) != "a" {
		t.Fatalf("after the host's Reset: %v %q", a.Tokens(), a.Canonical(ta))
	}
}

// atInView finds the cell of the last '@' in the textarea's rendered
// view: what the popup's anchor must match.
func atInView(t *testing.T, ta textarea.Model) (int, int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(ta.View()), "\n")
	for y := len(lines) - 1; y >= 0; y-- {
		if i := strings.LastIndex(lines[y], "@"); i >= 0 {
			return ansi.StringWidth(lines[y][:i]), y
		}
	}
	t.Fatalf("no '@' in the view:\n%s", ta.View())
	return 0, 0
}

func TestAtCellMatchesTheView(t *testing.T) {
	cases := []struct {
		name  string
		setup func(*textarea.Model)
		typed string
	}{
		{"plain", func(*textarea.Model) {}, "hello @pa"},
		{"soft wrap", func(*textarea.Model) {}, "one two three four five six seven @eight"},
		{"line numbers", func(ta *textarea.Model) { ta.ShowLineNumbers = true }, "a\nb\nhello @pa"},
		{"prompt func", func(ta *textarea.Model) {
			ta.SetPromptFunc(4, func(info textarea.PromptInfo) string { return "ab> " })
		}, "x @q"},
		{"scrolled", func(*textarea.Model) {}, "1\n2\n3\n4\n5\n6\nnow @sc"},
		{"wide text", func(*textarea.Model) {}, "全角の日本語テキスト @q"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, ta := newPair(t, 16)
			c.setup(&ta)
			typeKeys(&a, &ta, c.typed)
			_, at, ok := a.draft.Query()
			if !ok {
				t.Fatalf("no query open after %q", c.typed)
			}
			x, y, ok := AtCell(ta, at)
			if !ok {
				t.Fatalf("no cell for the '@'")
			}
			wx, wy := atInView(t, ta)
			if x != wx || y != wy {
				t.Fatalf("AtCell (%d,%d), the view has '@' at (%d,%d):\n%s", x, y, wx, wy, ansi.Strip(ta.View()))
			}
		})
	}
}

// TestTextareaPickWaitsForItsAnswer: Tab before the answer picks the first
// match when it comes; what was typed meanwhile stays after the token.
func TestTextareaPickWaitsForItsAnswer(t *testing.T) {
	a, ta := newPair(t, 40)
	typeKeys(&a, &ta, "see @fix")
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyTab})
	if !a.Picker().Accepting() {
		t.Fatal("Tab before the answer should wait for it")
	}
	typeKeys(&a, &ta, "why")
	if a.Picker().Query() != "fix" {
		t.Fatalf("typing on changed the query to %q", a.Picker().Query())
	}
	p := a.Picker()
	a.Update(&ta, picker.NewAnswerMsg(*p, picker.SessionsID, "fix", picker.Answer{Candidates: cands}))
	if ta.Value() != "see @Fix the parser why" || len(a.Tokens()) != 1 {
		t.Fatalf("after the answer: %q %v", ta.Value(), a.Tokens())
	}
	if got := cursorOffset(ta); got != len(ta.Value()) {
		t.Fatalf("cursor at %d, want the end", got)
	}
}

// TestTextareaSpaceAfterNoMatch: as in the composer, a space typed after
// a query whose answers are in and match nothing ends the query as
// prose: the picker closes, the text stays, and typing on does not
// reopen it; before the answer, the space stays part of the query.
func TestTextareaSpaceAfterNoMatch(t *testing.T) {
	a, ta := newPair(t, 40)
	typeKeys(&a, &ta, "mail @nobody")
	p := a.Picker()
	a.Update(&ta, picker.NewAnswerMsg(*p, picker.SessionsID, p.Query(), picker.Answer{}))
	typeKeys(&a, &ta, " ")
	if a.Picker().IsOpen() {
		t.Fatal("a space after a query that matched nothing left the picker open")
	}
	typeKeys(&a, &ta, "and more")
	if a.Picker().IsOpen() || ta.Value() != "mail @nobody and more" || a.Canonical(ta) != "mail @nobody and more" {
		t.Fatalf("open %v, %q / %q", a.Picker().IsOpen(), ta.Value(), a.Canonical(ta))
	}

	b, tb := newPair(t, 40)
	typeKeys(&b, &tb, "see @fix ")
	if !b.Picker().IsOpen() {
		t.Fatal("a space before the answer closed the picker")
	}
}

// TestTextareaAtTypedBeforeAWord: as in the composer, a pick after an
// '@' typed in front of a word keeps that word.
func TestTextareaAtTypedBeforeAWord(t *testing.T) {
	a, ta := newPair(t, 40)
	typeKeys(&a, &ta, "hello world")
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyHome})
	typeKeys(&a, &ta, "@fix")
	answer(&a, &ta)
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyTab})
	if ta.Value() != "@Fix the parser hello world" {
		t.Fatalf("after the pick: %q", ta.Value())
	}
}
